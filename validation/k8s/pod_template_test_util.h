// What the tests of the pod template checks share: a template from flow YAML, its errors as
// "[<rule>] <text>", upstream's format texts, and the table of rejected and accepted twins.
// Each case follows a case of kubernetes/kubernetes pkg/apis/core/validation/validation_test.go
// (the Go test it comes from is named), with the API server's exact error text for the rejected
// template and none for the accepted twin.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/loader.h"
#include "validation/k8s/pod_template.h"

namespace jobset {

/// The one document of `yaml`.
inline Node Parse(const std::string& yaml) {
  SourceFile f = ParseSource("t.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

/// The errors of a template whose spec is `spec` (flow YAML), as "[<rule>] <text>".
inline std::vector<std::string> Errors(const std::string& spec, PodTemplateOptions options = {}) {
  std::vector<std::string> out;
  for (const FieldError& e : ValidatePodTemplateSpec(Parse("spec: " + spec), options))
    out.push_back("[" + std::string(e.rule.id) + "] " + e.Text());
  return out;
}

/// No errors.
inline const std::vector<std::string> kNone;

/// IsValidLabelValue's format text.
inline const std::string kLabelValue =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
/// IsQualifiedName's format text.
inline const std::string kQualifiedName =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
    "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/// A template the API server rejects, and its valid twin.
struct Case {
  const char* upstream;             ///< The Go test the case follows.
  std::string rejected;             ///< A pod spec (flow YAML) the API server rejects...
  std::vector<std::string> errors;  ///< ...with these errors.
  std::string accepted;             ///< Its valid twin.
};

/// Checks that each case's rejected spec has exactly its errors and its twin none.
inline void CheckCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO(c.upstream);
    std::vector<std::string> rejected = Errors(c.rejected), accepted = Errors(c.accepted);
    std::string got;
    for (const std::string& e : rejected) got += "\n  " + e;
    CHECK_MESSAGE(rejected == c.errors, got);
    CHECK_MESSAGE(accepted == kNone, (accepted.empty() ? "" : accepted[0]));
  }
}

}  // namespace jobset
