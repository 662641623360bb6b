// `kubectl jobset why NAME`: what happened to a live workload and what happens next, read from
// the cluster (cmd/why_kubectl.h) or from a dump file, diagnosed by the kind's row
// (KindHandler::diagnose) and printed by cmd/why_render.h.
#pragma once

#include <iosfwd>
#include <string>

#include "cmd/why_kubectl.h"

namespace CLI {
class App;
}

namespace jobset {

/// The flags of `why`.
struct WhyFlags {
  std::string target;    ///< NAME or KIND/NAME; empty: list the JobSets.
  std::string file;      ///< -f: a dump file (or - for standard input) instead of the cluster.
  KubectlAccess access;  ///< -n, --context, --kubeconfig.
  bool all_namespaces = false;
  std::string output = "text";  ///< text | json | markdown
  std::string color = "auto";   ///< auto | always | never
  bool watch = false;
  std::string feature_gates;
};

/// Adds the `why` command to `app`, its flags bound to `flags`; returns it.
CLI::App* AddWhyCommand(CLI::App& app, WhyFlags* flags);

/// Runs `why`. Exit status: 0 healthy, succeeded or suspended; 1 failed, restarting or stuck; 2 a
/// usage or access error (message on `err`).
int RunWhy(const WhyFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace jobset
