// What a check reports: one problem, with its rule, severity, field path and position.
#pragma once

#include <string>
#include <vector>

#include "validation/core/node.h"
#include "validation/core/text_edit.h"

namespace jobset {

/// How bad a finding is; see docs/contract/README.md for the contract behind each level.
enum class Severity { kInfo = 0, kWarning = 1, kError = 2 };

/// "error", "warning" or "info".
const char* SeverityName(Severity s);
/// Parses "error" / "warning" / "info"; false when the text is none of them.
bool ParseSeverity(std::string_view text, Severity* out);

/// A certain repair of a finding: edits of the file's text (offsets into SourceFile::text).
struct Fix {
  std::string description;  ///< What the edits do, for people ("set restartPolicy: Never").
  std::vector<TextEdit> edits;
};

/// One problem found in one object, before and after it is placed in its file.
struct Finding {
  std::string rule;  ///< Registry id (RuleId::id), e.g. failure-policy/unknown-reason.
  Severity severity = Severity::kError;
  std::string field;    ///< Kubernetes field path of the offending value ("" for none).
  std::string message;  ///< One line for people (field errors include the field path).
  /// The error as kube-apiserver renders it in a rejection ("<nil>: Internal error: ..." or
  /// "spec.x: Invalid value: ...") — what the webhook aggregates. Empty for our own warnings.
  std::string upstream;
  Mark mark;         ///< Where it points in the file (key or value), when known.
  std::string note;  ///< Extra context (a related position).
  /// How the finding was suppressed ("annotation" or "comment"), "" when it was not. Suppressed
  /// findings stay in results (with their reason) but do not count or fail the run.
  std::string suppressed_by;
  std::string suppression_reason;
  /// The repair `lint --fix` applies; no edits when there is no certain one.
  Fix fix;

  // Filled in by the linter when the finding is attached to a document.
  std::string file;
  int document = 0;
  std::string api_version, kind, name;
};

}  // namespace jobset
