#include "cmd/render_command.h"

#include <CLI/CLI.hpp>
#include <ostream>

#include "cmd/flag_checks.h"
#include "validation/core/json_node.h"
#include "validation/core/loader.h"
#include "validation/core/yaml_emit.h"
#include "validation/lint/kinds.h"

namespace jobset {

namespace {

// The objects of a document: its root, or the items of a List.
std::vector<const Node*> Objects(const Node& root) {
  std::vector<const Node*> objects;
  if (root.is_map() && root.StringOr("kind") == "List") {
    if (const Node* items = root.Find("items"); items && items->is_seq()) {
      for (const Node& i : items->items) objects.push_back(&i);
    }
  } else {
    objects.push_back(&root);
  }
  return objects;
}

// "JobSet (jobset.x-k8s.io/v1alpha2), Volcano Job (...) or Framework (...)".
std::string SupportedKindsText() {
  std::string text;
  const std::vector<KindHandler>& kinds = SupportedKinds();
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0) text += i + 1 == kinds.size() ? " or " : ", ";
    text += std::string(kinds[i].kind) + " (" + std::string(kinds[i].api_version) + ")";
  }
  return text;
}

}  // namespace

int RunRender(const RenderFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.output != "yaml" && flags.output != "json") {
    err << "error: unknown output format \"" << flags.output << "\" (yaml or json)\n";
    return 2;
  }
  if (flags.restarts < 0) {
    err << "error: --restarts must be at least 0, got " << flags.restarts << "\n";
    return 2;
  }
  ChildOptions options{flags.only, flags.restarts};
  std::vector<Node> children;
  std::vector<std::string> notes;
  std::vector<std::string> empty_files;  // "FILE: nothing to render[: why]"
  for (const std::string& path : flags.paths) {
    SourceFile file;
    std::string error;
    if (!LoadFile(path, LoadLimits{}, &file, &error)) {
      err << "error: " << error << "\n";
      return 2;
    }
    if (!file.problems.empty()) {
      err << "error: " << path << ": " << file.problems[0].message << "\n";
      return 2;
    }
    int rendered = 0;
    const size_t children_before = children.size();
    std::string why;  // the notes of this file's objects
    for (const Document& doc : file.documents) {
      for (const Finding& p : doc.problems) {
        if (p.severity != Severity::kError) continue;
        err << "error: " << path << ":" << p.mark.line << ":" << p.mark.column << ": " << p.message
            << "\n";
        return 2;
      }
      for (const Node* object : Objects(doc.root)) {
        const KindHandler* kind = FindKindHandler(*object);
        if (kind == nullptr) continue;
        ChildObjects c = kind->render(*object, options);
        if (!c.error.empty()) {
          err << "error: " << path << ":" << object->mark.line << ": " << c.error << "\n";
          return 2;
        }
        if (!c.note.empty()) {
          notes.push_back(path + ": " + c.note);
          why += (why.empty() ? "" : "; ") + c.note;
        }
        for (Node& child : c.objects) children.push_back(std::move(child));
        ++rendered;
      }
    }
    if (rendered == 0) {
      err << "error: " << path << ": no " << SupportedKindsText() << " in this file\n";
      return 2;
    }
    if (children.size() == children_before) {
      empty_files.push_back(path + ": nothing to render" + (why.empty() ? "" : ": " + why));
    }
  }
  if (!empty_files.empty()) {
    for (const std::string& e : empty_files) err << "error: " << e << "\n";
    return 1;
  }
  for (const std::string& note : notes) err << "note: " << note << "\n";
  if (flags.output == "json") {
    Node list = Node::Map();
    list.Set("apiVersion", Node::String("v1"));
    list.Set("kind", Node::String("List"));
    Node items = Node::Seq();
    items.items = std::move(children);
    list.Set("items", std::move(items));
    out << NodeToJson(list).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
        << "\n";
    return 0;
  }
  for (size_t i = 0; i < children.size(); ++i) {
    if (i > 0) out << "---\n";
    out << NodeToYaml(children[i]);
  }
  return 0;
}

namespace {

const char kRenderExamples[] = R"(
Examples:
  # The Jobs and the headless Service the JobSet controller creates
  kubectl jobset render examples/training-fail-fast.yaml

  # Check them with the tools you run on native objects
  kubectl jobset render js.yaml | kubeconform -strict -summary
  kubectl jobset render js.yaml | kube-linter lint -

  # One replicated job (a Volcano task, a Framework task role), after 2 restarts, as JSON
  kubectl jobset render js.yaml --replicated-job workers --restarts 2 -o json

  # The Pods of a Volcano Job or a FrameworkController Framework
  kubectl jobset render examples/volcano/1-pytorch-gang-restart.yaml
  kubectl jobset render examples/framework/tensorflow.yaml

Values only the cluster knows are placeholders: every uid is
00000000-0000-0000-0000-000000000000, an object without a namespace gets none (job keys use
"default"), a Volcano volume's 12 random characters are its index. JobSet feature gates are off.

Exit status: 0; 1 when a file's objects have no children (no spec, no tasks, managed by another
controller); 2 for an unreadable file, a file without a JobSet, Volcano Job or Framework, or an
object that cannot be rendered (no name, no such replicated job). With 1 or 2 nothing is printed.
)";

}  // namespace

CLI::App* AddRenderCommand(CLI::App& app, RenderFlags* flags) {
  CLI::App* render_cmd = app.add_subcommand(
      "render",
      "Print the child objects the controller creates: a JobSet's Jobs and headless Service, a "
      "Volcano Job's or a Framework's Pods.");
  render_cmd->add_option("PATH", flags->paths, "Files, or - for standard input")->required();
  render_cmd->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  render_cmd->add_option("--replicated-job,--task", flags->only,
                         "Only this replicated job (a Volcano Job's task, a Framework's task "
                         "role)");
  render_cmd
      ->add_option("--restarts", flags->restarts,
                   "Render as after N restarts (the restart-attempt labels, Volcano's job "
                   "version and retry count, the framework attempt)")
      ->capture_default_str()
      ->check(AtLeast(0));
  render_cmd->footer(kRenderExamples);
  return render_cmd;
}

}  // namespace jobset
