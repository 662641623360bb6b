#include "cmd/jobset_objects.h"

#include "cmd/kind_commands.h"
#include "validation/core/loader.h"
#include "validation/jobset/defaults.h"
#include "validation/jobset/lint.h"
#include "validation/lint/kinds.h"
#include "validation/lint/lint.h"

namespace jobset {

namespace {

// "JobSet (jobset.x-k8s.io/v1alpha2)", with the other kinds when `others` is asked for.
std::string KindsWanted(bool others) {
  auto named = [](const KindHandler& k) {
    return std::string(k.kind) + " (" + std::string(k.api_version) + ")";
  };
  std::string text = named(FindKind(KindId::kJobSet));
  if (!others) return text;
  std::vector<const KindHandler*> kinds;
  for (const KindCommands& c : KindCommandBindings()) {
    if (c.explain != nullptr) kinds.push_back(&FindKind(c.kind));
  }
  for (size_t i = 0; i < kinds.size(); ++i) {
    text += i + 1 == kinds.size() ? " or " : ", ";
    text += named(*kinds[i]);
  }
  return text;
}

}  // namespace

bool LoadJobSets(const std::string& path, const FeatureGates& gates, std::vector<LoadedJobSet>* out,
                 std::string* error, std::vector<OtherObject>* others) {
  SourceFile file;
  LoadLimits limits;
  if (!LoadFile(path, limits, &file, error)) return false;
  if (!file.problems.empty()) {
    *error = path + ": " + file.problems[0].message;
    return false;
  }
  LintOptions options;
  options.gates = gates;
  options.builtin_schema = true;
  for (const Document& doc : file.documents) {
    for (const Finding& p : doc.problems) {
      if (p.severity != Severity::kError) continue;
      *error = path + ":" + std::to_string(p.mark.line) + ":" + std::to_string(p.mark.column) +
               ": " + p.message;
      return false;
    }
    std::vector<const Node*> objects;
    if (doc.root.StringOr("kind") == "List") {
      if (const Node* items = doc.root.Find("items"); items && items->is_seq())
        for (const Node& i : items->items) objects.push_back(&i);
    } else {
      objects.push_back(&doc.root);
    }
    for (const Node* o : objects) {
      if (others != nullptr) {
        if (const KindCommands* k = OwnKindCommands(*o)) {
          others->push_back({path, std::make_unique<Node>(*o), k});
          continue;
        }
      }
      if (!IsJobSet(*o)) continue;
      LoadedJobSet js;
      js.file = path;
      for (const Finding& f : LintJobSet(*o, options.gates, JobSetSchema(options)))
        js.errors += f.severity == Severity::kError;
      js.object = std::make_unique<Node>(*o);
      std::vector<PatchOp> patch;
      ApplyCrdDefaults(js.object.get(), &patch);
      ApplyWebhookDefaults(js.object.get(), &patch);
      js.jobset = DecodeJobSet(*js.object);
      out->push_back(std::move(js));
    }
  }
  if (out->empty() && (others == nullptr || others->empty())) {
    *error = path + ": no " + KindsWanted(others != nullptr) + " in this file";
    return false;
  }
  return true;
}

}  // namespace jobset
