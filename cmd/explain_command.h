// `kubectl jobset explain`: for every replicated job and failure reason, what the controller does.
#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace jobset {

/// The flags of `explain`.
struct ExplainFlags {
  std::string path;
  std::string output = "text";  ///< text | json | markdown
  std::string feature_gates;
};

/// Explains every JobSet of the file. Exit status: 0, or 2 for a usage error or an unreadable
/// or unparsable file. A JobSet the API server would reject is still explained, with a note on
/// standard error.
int RunExplain(const ExplainFlags& flags, std::ostream& out, std::ostream& err);

/// Adds the `explain` command to `app`, its flags bound to `flags`; returns it.
CLI::App* AddExplainCommand(CLI::App& app, ExplainFlags* flags);

}  // namespace jobset
