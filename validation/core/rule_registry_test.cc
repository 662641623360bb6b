#include "validation/core/rule_registry.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "validation/core/embedded.h"

namespace jobset {
namespace {

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

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
