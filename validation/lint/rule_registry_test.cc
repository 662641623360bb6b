#include "validation/lint/rule_registry.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "validation/core/embedded.h"
#include "validation/core/finding_sink.h"
#include "validation/jobset/rules.h"

namespace jobset {
namespace {

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// One system's rules file, found by globbing the source tree: the header that declares its
/// RuleId constants, and their ids in order.
struct RulesFile {
  std::string header;  ///< Under the source tree, e.g. "validation/jobset/rules.h".
  std::vector<std::string> declared;
};

std::vector<std::string> DeclaredIds(const std::string& text);

/// Every validation/<folder>/rules.h under `root`, in path order, with its declared ids.
std::vector<RulesFile> RulesFiles(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<RulesFile> files;
  for (const auto& e : fs::directory_iterator(root / "validation")) {
    const fs::path header = e.path() / "rules.h";
    if (!e.is_directory() || !fs::exists(header)) continue;
    files.push_back(
        {header.lexically_relative(root).generic_string(), DeclaredIds(ReadAll(header))});
  }
  std::sort(files.begin(), files.end(),
            [](const RulesFile& a, const RulesFile& b) { return a.header < b.header; });
  return files;
}

/// Where `ids` begin in `rows` as one contiguous run in the same order, or -1.
int RunIn(std::span<const RuleInfo> rows, const std::vector<std::string>& ids) {
  for (size_t start = 0; start + ids.size() <= rows.size(); ++start) {
    if (rows[start].id != ids.front()) continue;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (rows[start + i].id != ids[i]) return -1;
    }
    return static_cast<int>(start);
  }
  return -1;
}

// The ids of the `inline constexpr RuleId kName{"id"};` declarations of a header, in order.
std::vector<std::string> DeclaredIds(const std::string& text) {
  static const std::regex decl(R"re(inline constexpr RuleId k\w+\s*\{\s*"([^"]+)"\};)re");
  std::vector<std::string> ids;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), decl); it != std::sregex_iterator();
       ++it) {
    ids.push_back((*it)[1]);
  }
  return ids;
}

// Whether a RuleId parameter accepts a braced string: it must not, or `{"x/y"}` would slip a
// bare id past the constants.
template <typename T>
concept TakesBracedString = requires(void (*f)(T)) {
  f({"group/name"});
};

/// Whether `s` reads like a rule id: "group/name" in lower case, digits and dashes.
bool LooksLikeRuleId(std::string_view s) {
  return s.find('/') != std::string_view::npos && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '/';
         });
}

/// The end (one past its '}') of the braced list of ten or more quoted rule ids, and nothing
/// else, that starts at text[open] == '{'; or 0 when there is none there.
size_t IdListEnd(const std::string& text, size_t open) {
  constexpr int kListed = 10;
  int ids = 0;
  size_t at = open + 1;
  auto skip_space = [&] {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  };
  for (;;) {
    skip_space();
    if (at < text.size() && text[at] == '}') return ids >= kListed ? at + 1 : 0;
    if (at >= text.size() || text[at] != '"') return 0;
    const size_t close = text.find('"', at + 1);
    if (close == std::string::npos ||
        !LooksLikeRuleId(std::string_view(text).substr(at + 1, close - at - 1))) {
      return 0;
    }
    ++ids;
    at = close + 1;
    skip_space();
    if (at < text.size() && text[at] == ',') ++at;
  }
}

/// `text` with its lists of ten or more rule ids blanked: such a list (`covered = {...}`) claims
/// coverage, it asserts nothing about what a check reports.
std::string WithoutIdLists(std::string text) {
  for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    if (const size_t end = IdListEnd(text, open)) text.replace(open, end - open, end - open, ' ');
  }
  return text;
}

/// The `"ruleId": "..."` entries of a SARIF log: its results, without its table of every rule.
std::string SarifResults(const std::string& sarif) {
  static constexpr std::string_view kKey = "\"ruleId\": \"";
  std::string results;
  for (size_t at = sarif.find(kKey); at != std::string::npos; at = sarif.find(kKey, at + 1)) {
    const size_t end = sarif.find('"', at + kKey.size());
    if (end == std::string::npos) break;
    results += sarif.substr(at, end + 1 - at) + "\n";
  }
  return results;
}

/// What the tests under `root` assert about rules, as one text: every unit test (*_test.cc of
/// validation/, cmd/, webhook/) but this file, without its lists of ids; and every CLI golden
/// output but those that list the whole registry: `--list-rules`, and of a SARIF log only its
/// results (its rules table quotes every id).
std::string TestEvidence(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::string evidence;
  for (const char* dir : {"validation", "cmd", "webhook"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      const std::string name = e.path().filename().string();
      const bool unit = name.ends_with("_test.cc");
      if (!unit || e.path().lexically_relative(root) == "validation/lint/rule_registry_test.cc") {
        continue;
      }
      evidence += WithoutIdLists(ReadAll(e.path()));
    }
  }
  if (!fs::exists(root / "tests/golden")) return evidence;
  for (const auto& e : fs::directory_iterator(root / "tests/golden")) {
    if (e.path().extension() != ".args") continue;
    const std::string args = ReadAll(e.path());
    if (args.find("--list-rules") != std::string::npos) continue;
    std::filesystem::path out = e.path();
    const std::string output = ReadAll(out.replace_extension(".out"));
    evidence += args.find("sarif") != std::string::npos ? SarifResults(output) : output;
  }
  return evidence;
}

/// The ids among `ids` that `evidence` (TestEvidence) never names: not as a string ("group/name",
/// a finding's rule in a unit test or a JSON golden), not in brackets ([group/name], a finding
/// as text renders it).
std::vector<std::string> UntestedRules(const std::string& evidence,
                                       const std::vector<std::string>& ids) {
  std::vector<std::string> untested;
  for (const std::string& id : ids) {
    if (evidence.find('"' + id + '"') == std::string::npos &&
        evidence.find('[' + id + ']') == std::string::npos) {
      untested.push_back(id);
    }
  }
  return untested;
}

/// Writes `text` to root/relative, making its folders.
void WriteFile(const std::filesystem::path& root, const std::string& relative,
               const std::string& text) {
  std::filesystem::create_directories((root / relative).parent_path());
  std::ofstream(root / relative) << text;
}

}  // namespace

TEST_CASE("registry: a rule id is a declared constant, never a bare string") {
  static_assert(!std::is_convertible_v<const char*, RuleId>);
  static_assert(!std::is_convertible_v<std::string_view, RuleId>);
  static_assert(!std::is_convertible_v<std::string, RuleId>);
  static_assert(!TakesBracedString<RuleId>);
  static_assert(TakesBracedString<std::string_view>);  // The check itself works.
  static_assert(!std::is_invocable_v<decltype(&FindingSink::Plain), FindingSink&, const char*,
                                     std::string_view, std::string, PointAt>);
  static_assert(std::is_invocable_v<decltype(&FindingSink::Plain), FindingSink&, RuleId,
                                    std::string_view, std::string, PointAt>);
  CHECK(kFailurePolicyUnknownReason.id == "failure-policy/unknown-reason");
}

TEST_CASE("registry: each system's constants are its rows, each registered exactly once") {
  std::map<std::string, int> registered;
  for (const RuleInfo& r : AllRules()) ++registered[std::string(r.id)];
  size_t declared_total = 0;
  const std::vector<RulesFile> files = RulesFiles(JOBSET_SOURCE_DIR);
  // core, framework, jobset, k8s, schema, volcano at least: the glob did find them.
  CHECK(files.size() >= 6);
  for (const RulesFile& file : files) {
    const std::string& header = file.header;
    CAPTURE(header);
    const std::vector<std::string>& declared = file.declared;
    REQUIRE(!declared.empty());
    declared_total += declared.size();
    // The header declares the rules in the order of its rows, one constant per row: the
    // registry holds them as one run in that order (a new rules.h left out of AllRules() fails).
    CHECK_MESSAGE(RunIn(AllRules(), declared) >= 0,
                  header << "'s constants are not one run of registry rows in their order");
    for (const std::string& id : declared) {
      CAPTURE(id);
      CHECK(registered[id] == 1);
    }
  }
  // And the registry holds nothing else.
  CHECK(AllRules().size() == declared_total);
  CHECK(registered.size() == declared_total);
}

TEST_CASE("registry: production code names rules by their constants only") {
  // FindingSink takes only a RuleId; this catches the rest (`f.rule = "..."`, `f.rule == "..."`).
  // Tests may name ids as strings: they assert on what users see.
  namespace fs = std::filesystem;
  for (const char* dir : {"validation", "cmd", "webhook"}) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(JOBSET_SOURCE_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      const std::string ext = e.path().extension().string();
      if ((ext != ".cc" && ext != ".h") || name.find("_test.") != std::string::npos ||
          name == "rules.h") {
        continue;
      }
      const std::string text = ReadAll(e.path());
      for (const RuleInfo& r : AllRules()) {
        CHECK_MESSAGE(text.find("\"" + std::string(r.id) + "\"") == std::string::npos,
                      e.path().lexically_relative(JOBSET_SOURCE_DIR).string()
                          << " names " << r.id << " as a string");
      }
    }
  }
}

TEST_CASE("registry: ids are unique and well formed") {
  std::set<std::string_view> seen;
  for (const RuleInfo& r : AllRules()) {
    CHECK_MESSAGE(seen.insert(r.id).second, r.id);
    CHECK(r.id.find('/') != std::string_view::npos);
    CHECK(!r.summary.empty());
    CHECK(FindRule(r.id) == &r);
    // Upstream verdicts are errors; our own analysis never claims to be one.
    if (r.source == RuleSource::kWebhook) CHECK(r.severity == Severity::kError);
    if (r.source == RuleSource::kAnalysis) CHECK(r.severity != Severity::kError);
    // A child object the API server refuses means the workload never runs.
    if (r.source == RuleSource::kChild) CHECK(r.severity == Severity::kError);
  }
  CHECK(FindRule("no/such-rule") == nullptr);
}

TEST_CASE("registry: every rule has a doc page with the four sections, and no page is orphaned") {
  for (const RuleInfo& r : AllRules()) {
    const std::string* doc = FindRuleDoc(r.id);
    REQUIRE_MESSAGE(doc, "docs/rules/" << r.id << ".md is missing");
    CHECK_MESSAGE(doc->rfind("# " + std::string(r.id) + "\n", 0) == 0, r.id);
    CHECK_MESSAGE(
        doc->find(std::string("**Severity:** ") + SeverityName(r.severity)) != std::string::npos,
        r.id);
    for (const char* section : {"## What it checks", "## Why", "## How to fix", "## Example"}) {
      CHECK_MESSAGE(doc->find(section) != std::string::npos, r.id << " lacks " << section);
    }
  }
  // The index lists every rule with its current severity.
  const std::string* index = FindRuleDoc("README");
  REQUIRE(index);
  for (const RuleInfo& r : AllRules()) {
    std::string row = "| [`" + std::string(r.id) + "`](" + std::string(r.id) + ".md) | " +
                      SeverityName(r.severity) + " | " + RuleSourceName(r.source) + " |";
    CHECK_MESSAGE(index->find(row) != std::string::npos, "docs/rules/README.md lacks " << row);
  }
  for (const EmbeddedFile& f : EmbeddedDocFiles()) {
    if (f.name.rfind("rules/", 0) != 0 || f.name == "rules/README.md") continue;
    std::string id = f.name.substr(6, f.name.size() - 6 - 3);
    CHECK_MESSAGE(FindRule(id) != nullptr, f.name << " documents no registry rule");
  }
}

TEST_CASE("registry: every rule is exercised by a test") {
  // Like kube-linter's check: a rule id no test asserts is a rule nobody checks. The outputs that
  // quote every id (--list-rules, SARIF's rules table) and lists of covered ids do not count.
  std::vector<std::string> ids;
  for (const RuleInfo& r : AllRules()) ids.emplace_back(r.id);
  for (const std::string& id : UntestedRules(TestEvidence(JOBSET_SOURCE_DIR), ids)) {
    FAIL_CHECK(id << " is asserted by no test: add a unit test beside its check, or a golden "
                     "(tests/golden) whose output reports it");
  }
}

TEST_CASE("registry: the exercised check counts assertions, not listings of every id") {
  namespace fs = std::filesystem;
  const fs::path root =
      fs::temp_directory_path() / ("rule_registry_test." + std::to_string(std::random_device{}()));
  std::string listed = "const std::vector<std::string_view> covered = {\"made/listed\"";
  for (int i = 1; i < 10; ++i) listed += ", \"made/l" + std::to_string(i) + "\"";
  WriteFile(root, "validation/made/check_test.cc",
            "CHECK(f.rule == \"made/asserted\");\n" + listed + "};\n");
  WriteFile(root, "cmd/render_test.cc", "CHECK(out == \"[made/rendered] x\");\n");
  WriteFile(root, "validation/lint/rule_registry_test.cc", "\"made/registry-only\"\n");
  WriteFile(root, "tests/golden/list_rules.args", "lint --list-rules\n");
  WriteFile(root, "tests/golden/list_rules.out", "made/list-only  error  webhook  x\n");
  WriteFile(root, "tests/golden/sarif.args", "lint -o sarif a.yaml\n");
  WriteFile(root, "tests/golden/sarif.out",
            "{\"id\": \"made/sarif-table\"}\n{\"ruleId\": \"made/sarif-result\"}\n");
  WriteFile(root, "tests/golden/text.args", "lint a.yaml\n");
  WriteFile(root, "tests/golden/text.out", "a.yaml:1:1: error: x [made/golden]\n");
  const std::vector<std::string> untested =
      UntestedRules(TestEvidence(root), {"made/asserted", "made/rendered", "made/listed",
                                         "made/registry-only", "made/list-only", "made/sarif-table",
                                         "made/sarif-result", "made/golden", "made/nowhere"});
  fs::remove_all(root);
  CHECK(untested == std::vector<std::string>{"made/listed", "made/registry-only", "made/list-only",
                                             "made/sarif-table", "made/nowhere"});
}

}  // namespace jobset
