// How `why` reads the cluster: `kubectl get ... -o json` run as argument vectors (no shell), the
// calls that read one object of a kind with its children and events, and kubectl's refusals in
// one line.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "validation/lint/kinds.h"

namespace jobset {

/// Which cluster and namespace kubectl reads: -n, --context and --kubeconfig, passed on as given
/// (empty: kubectl's default).
struct KubectlAccess {
  std::string namespace_name, context, kubeconfig;
};

/// The kubectl binary: $KUBECTL, else "kubectl" looked up on PATH.
std::string KubectlBinary();

/// Runs `argv` (argv[0] looked up on PATH) without a shell. `on_stdout` gets standard output as
/// it arrives (return false to stop the child); standard error is collected in `err_text`.
/// Returns the exit status, or -1 with `err_text` set when the program could not be started.
int RunProcess(const std::vector<std::string>& argv,
               const std::function<bool(std::string_view)>& on_stdout, std::string* err_text);

/// Appends --namespace, --context and --kubeconfig as `access` gives them.
void AddAccessFlags(const KubectlAccess& access, std::vector<std::string>* argv);

/// Runs kubectl with `args`; its output is appended to `out`. Gives 0, or 2 with a message on
/// `err`.
int Kubectl(const std::vector<std::string>& args, std::string* out, std::ostream& err);

/// The kubectl argument vectors (without the binary) that read `name` of `kind` with its
/// children (by the row's child_label) and events, honouring `access`.
std::vector<std::vector<std::string>> WhyKubectlCalls(const KindHandler& kind,
                                                      std::string_view name,
                                                      const KubectlAccess& access);

/// The one-line message for a failed kubectl call: an RBAC refusal names the verb, resource and
/// namespace it lacks; NotFound names the object.
std::string KubectlErrorMessage(std::string_view stderr_text, int status);

}  // namespace jobset
