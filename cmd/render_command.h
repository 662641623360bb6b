// `kubectl jobset render`: the child objects the controllers create (a JobSet's Jobs and headless
// Service, a Volcano Job's or a Framework's Pods), for the tools users run on native objects.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace jobset {

/// The flags of `render`.
struct RenderFlags {
  std::vector<std::string> paths;  ///< Files, or - for standard input.
  std::string output = "yaml";     ///< yaml | json
  std::string only;      ///< --replicated-job / --task: one replicated job or task (role).
  int64_t restarts = 0;  ///< --restarts: as after this many restarts.
};

/// Renders the children of every JobSet, Volcano Job and Framework of the files (documents of
/// other kinds are skipped): a YAML stream (`---` between objects) or one JSON List. Exit status
/// 0; 1 when the objects of a file have no children (no spec, no tasks, another controller
/// manages them), with `error: FILE: nothing to render: <why>` on `err`; 2 with a message on
/// `err` for an unreadable or unparsable file, a file without any supported object, or an
/// object that cannot be rendered (no name, no such replicated job). With 1 or 2 nothing is
/// printed on `out`.
int RunRender(const RenderFlags& flags, std::ostream& out, std::ostream& err);

/// Adds the `render` command to `app`, its flags bound to `flags`; returns it.
CLI::App* AddRenderCommand(CLI::App& app, RenderFlags* flags);

}  // namespace jobset
