#include "validation/kinds.h"

#include "validation/framework_lint.h"
#include "validation/framework_types.h"
#include "validation/jobset_types.h"
#include "validation/lint.h"
#include "validation/volcano_defaults.h"
#include "validation/volcano_lint.h"

namespace jobset {

const std::vector<KindHandler>& SupportedKinds() {
  // Add a kind here: its apiVersion, kind and lint function (declared in its own header).
  static const std::vector<KindHandler> kinds = {
      {kJobSetApiVersion, kJobSetKind, &LintObject},
      // Volcano Job (validation/volcano_lint.h).
      {kVolcanoApiVersion, kVolcanoKind, &LintVolcanoJob},
      // FrameworkController Framework (validation/framework_lint.h).
      {kFrameworkApiVersion, kFrameworkKind, &LintFramework},
  };
  return kinds;
}

const KindHandler* FindKindHandler(const Node& object) {
  if (!object.is_map()) return nullptr;
  std::string_view api_version = object.StringOr("apiVersion");
  std::string_view kind = object.StringOr("kind");
  for (const KindHandler& h : SupportedKinds()) {
    if (h.api_version == api_version && h.kind == kind) return &h;
  }
  return nullptr;
}

}  // namespace jobset
