#include "validation/lint/rule_registry.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "validation/core/embedded.h"
#include "validation/core/finding_sink.h"
#include "validation/core/rules.h"
#include "validation/framework/rules.h"
#include "validation/jobset/rules.h"
#include "validation/k8s/rules.h"
#include "validation/schema/rules.h"
#include "validation/volcano/rules.h"

namespace jobset {
namespace {

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One system's rules file: the header that declares its RuleId constants, and its rows.
struct RulesFile {
  const char* header;  // Under the source tree.
  std::span<const RuleInfo> rows;
};

std::vector<RulesFile> RulesFiles() {
  return {{"validation/core/rules.h", InputRules()},
          {"validation/schema/rules.h", SchemaRules()},
          {"validation/jobset/rules.h", JobSetRules()},
          {"validation/volcano/rules.h", VolcanoRules()},
          {"validation/framework/rules.h", FrameworkRules()},
          {"validation/k8s/rules.h", ChildRules()}};
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
  for (const RulesFile& file : RulesFiles()) {
    const std::string header = file.header;
    CAPTURE(header);
    const std::vector<std::string> declared =
        DeclaredIds(ReadAll(std::filesystem::path(JOBSET_SOURCE_DIR) / file.header));
    REQUIRE(!declared.empty());
    declared_total += declared.size();
    // The header declares the rules in the order of its rows, one constant per row.
    std::vector<std::string> rows;
    for (const RuleInfo& r : file.rows) rows.emplace_back(r.id);
    CHECK(declared == rows);
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
  // Like kube-linter's check: a rule id no test mentions is a rule nobody checks.
  std::string corpus;
  namespace fs = std::filesystem;
  for (const char* dir : {"validation", "cmd", "tests/golden"}) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(JOBSET_SOURCE_DIR) / dir)) {
      std::string name = e.path().filename().string();
      if (name.find("_test.cc") != std::string::npos || e.path().extension() == ".out") {
        corpus += ReadAll(e.path());
      }
    }
  }
  for (const RuleInfo& r : AllRules()) {
    bool named = corpus.find("\"" + std::string(r.id) + "\"") != std::string::npos ||
                 corpus.find("[" + std::string(r.id) + "]") != std::string::npos;
    CHECK_MESSAGE(named, r.id << " is not named by any test");
  }
}

}  // namespace jobset
