#include "cmd/report.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

namespace jobset {
namespace {

// One file (with a byte order mark) holding one finding with a fix and one without.
std::vector<FileResult> WithFix() {
  FileResult r;
  r.path = "jobs/train.yaml";
  r.bom = "\xEF\xBB\xBF";
  r.objects = 1;
  Finding fixable;
  fixable.rule = "failure-policy/duplicate-rule-name";
  fixable.file = r.path;
  fixable.mark = Mark{9, 7};
  fixable.message = "rule names are not unique";
  fixable.fix = Fix{"rename rules[1] to 'retry_2'", {TextEdit{120, 5, "retry_2"}}};
  Finding plain = fixable;
  plain.rule = "failure-policy/unknown-reason";
  plain.fix = Fix{};
  r.findings = {fixable, plain};
  return {r};
}

}  // namespace

TEST_CASE("report: text says which finding --fix repairs, and how") {
  std::string text = RenderText(WithFix(), false);
  CHECK(text.find("[failure-policy/duplicate-rule-name]\n  fix (--fix): rename rules[1] to "
                  "'retry_2'\n") != std::string::npos);
  CHECK(text.find("fix (--fix)") == text.rfind("fix (--fix)"));  // only the fixable one
}

TEST_CASE("report: JSON and SARIF carry the edits, offsets counting the byte order mark") {
  auto json = nlohmann::json::parse(RenderJson(WithFix()));
  auto fix = json["findings"][0]["fix"];
  CHECK(fix["description"] == "rename rules[1] to 'retry_2'");
  CHECK(fix["edits"] ==
        nlohmann::json::parse(R"([{"offset": 123, "length": 5, "text": "retry_2"}])"));
  CHECK_FALSE(json["findings"][1].contains("fix"));

  auto sarif = nlohmann::json::parse(RenderSarif(WithFix()));
  auto results = sarif["runs"][0]["results"];
  auto change = results[0]["fixes"][0]["artifactChanges"][0];
  CHECK(results[0]["fixes"][0]["description"]["text"] == "rename rules[1] to 'retry_2'");
  CHECK(change["artifactLocation"]["uri"] == "jobs/train.yaml");
  CHECK(change["replacements"][0]["deletedRegion"]["byteOffset"] == 123);
  CHECK(change["replacements"][0]["deletedRegion"]["byteLength"] == 5);
  CHECK(change["replacements"][0]["insertedContent"]["text"] == "retry_2");
  CHECK_FALSE(results[1].contains("fixes"));
}

}  // namespace jobset

namespace jobset {

TEST_CASE("report: each lint format is declared once, with its help and renderer") {
  const std::vector<LintFormat>& formats = LintFormats();
  REQUIRE(!formats.empty());
  CHECK(formats.front().name == "text");  // the default
  std::vector<FileResult> results = WithFix();
  for (const LintFormat& f : formats) {
    CAPTURE(f.name);
    CHECK(!f.help.empty());
    REQUIRE((f.render != nullptr));
    CHECK(FindLintFormat(f.name) == &f);
    CHECK(!f.render(results, false).empty());
  }
  CHECK(FindLintFormat("json")->render(results, false) == RenderJson(results));
  CHECK(FindLintFormat("text")->render(results, true) == RenderText(results, true));
  CHECK(FindLintFormat("markdown") == nullptr);  // explain's, not lint's
  CHECK(LintFormatNames(false) == "text, json, sarif, github, junit");
  CHECK(LintFormatNames(true) == "text (default), json, sarif, github, junit");
}

}  // namespace jobset
