#include "cmd/jobset_objects.h"

#include "validation/defaults.h"
#include "validation/lint.h"
#include "validation/loader.h"

namespace jobset {

bool LoadJobSets(const std::string& path, const FeatureGates& gates, std::vector<LoadedJobSet>* out,
                 std::string* error) {
  SourceFile file;
  LoadLimits limits;
  if (!LoadFile(path, limits, &file, error)) return false;
  if (!file.problems.empty()) {
    *error = path + ": " + file.problems[0].message;
    return false;
  }
  LintOptions options;
  options.gates = gates;
  options.schema = BuiltinJobSetSchema();
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
      if (!IsJobSet(*o)) continue;
      LoadedJobSet js;
      js.file = path;
      for (const Finding& f : LintObject(*o, options)) js.errors += f.severity == Severity::kError;
      js.object = std::make_unique<Node>(*o);
      std::vector<PatchOp> patch;
      ApplyCrdDefaults(js.object.get(), &patch);
      ApplyWebhookDefaults(js.object.get(), &patch);
      js.jobset = DecodeJobSet(*js.object);
      out->push_back(std::move(js));
    }
  }
  if (out->empty()) {
    *error = path + ": no JobSet (jobset.x-k8s.io/v1alpha2) in this file";
    return false;
  }
  return true;
}

}  // namespace jobset
