#include "validation/lint/kinds.h"

#include <cctype>

#include "validation/core/diagnosis.h"
#include "validation/core/patch.h"
#include "validation/core/rules.h"
#include "validation/core/suggest.h"
#include "validation/core/workload_dump.h"
#include "validation/framework/children.h"
#include "validation/framework/lint.h"
#include "validation/framework/rules.h"
#include "validation/framework/types.h"
#include "validation/framework/why.h"
#include "validation/jobset/children.h"
#include "validation/jobset/defaults.h"
#include "validation/jobset/fix.h"
#include "validation/jobset/lint.h"
#include "validation/jobset/rules.h"
#include "validation/jobset/types.h"
#include "validation/jobset/update.h"
#include "validation/jobset/why.h"
#include "validation/lint/lint.h"
#include "validation/volcano/children.h"
#include "validation/volcano/defaults.h"
#include "validation/volcano/lint.h"
#include "validation/volcano/rules.h"
#include "validation/volcano/why.h"

namespace jobset {

namespace {

std::vector<Finding> LintJobSetObject(const Node& object, const LintOptions& options) {
  return LintJobSet(object, options.gates, JobSetSchema(options));
}
std::vector<Finding> UpdateJobSetObject(const Node& old_object, const Node& new_object,
                                        const LintOptions& options) {
  return LintUpdate(old_object, new_object, options.gates, JobSetSchema(options));
}
std::vector<Finding> LintVolcanoObject(const Node& object, const LintOptions&) {
  return LintVolcanoJob(object);
}
std::vector<Finding> UpdateVolcanoObject(const Node& old_object, const Node& new_object,
                                         const LintOptions&) {
  return LintVolcanoUpdate(old_object, new_object);
}
void VolcanoWebhookDefaults(Node* object, std::vector<PatchOp>* patch) {
  ApplyVolcanoWebhookDefaults(object, kVolcanoDefaultScheduler, patch);
}
bool DiagnoseVolcanoObject(const WorkloadDump& dump, std::string_view name, const FeatureGates&,
                           Diagnosis* out, std::string* error) {
  return DiagnoseVolcanoJob(dump, name, out, error);
}
std::vector<Finding> LintFrameworkObject(const Node& object, const LintOptions&) {
  return LintFramework(object);
}
bool DiagnoseFrameworkObject(const WorkloadDump& dump, std::string_view name, const FeatureGates&,
                             Diagnosis* out, std::string* error) {
  return DiagnoseFramework(dump, name, out, error);
}

}  // namespace

const std::vector<KindHandler>& SupportedKinds() {
  // Add a kind here, at the index of its KindId: its identity and checks (declared in its own
  // folder's headers); then bind it in cmd/kind_commands.cc and KindAdmissions in
  // webhook/admission_handler.cc.
  static const std::vector<KindHandler> kinds = {
      // JobSet (validation/jobset/).
      {.id = KindId::kJobSet,
       .api_version = kJobSetApiVersion,
       .kind = kJobSetKind,
       .lint = &LintJobSetObject,
       .title = "JobSet",
       .group_word = "jobset",
       .attach_fixes = &AttachFixes,
       .crd_defaults = &ApplyCrdDefaults,
       .webhook_defaults = &ApplyWebhookDefaults,
       .update = &UpdateJobSetObject,
       .render = &RenderJobSetChildren,
       .diagnose = &DiagnoseJobSet,
       .rules = &JobSetRules,
       .noun = "JobSet",
       .resource_words = {"jobset", "jobsets", "jobset.jobset.x-k8s.io", "jobsets.jobset.x-k8s.io",
                          "JobSet"},
       .resource = "jobsets.jobset.x-k8s.io",
       .child_resources = "jobs.batch,pods",
       .child_label = "jobset.sigs.k8s.io/jobset-name"},
      // Volcano Job (validation/volcano/).
      {.id = KindId::kVolcanoJob,
       .api_version = kVolcanoApiVersion,
       .kind = kVolcanoKind,
       .lint = &LintVolcanoObject,
       .title = "Volcano Job",
       .group_word = "volcano",
       .attach_fixes = nullptr,
       .crd_defaults = &ApplyVolcanoCrdDefaults,
       .webhook_defaults = &VolcanoWebhookDefaults,
       .update = &UpdateVolcanoObject,
       .render = &RenderVolcanoJobPods,
       .diagnose = &DiagnoseVolcanoObject,
       .rules = &VolcanoRules,
       .noun = "Volcano Job",
       .resource_words = {"vcjob", "vcjobs", "job.batch.volcano.sh", "jobs.batch.volcano.sh"},
       .resource = "jobs.batch.volcano.sh",
       .child_resources = "pods",
       .child_label = "volcano.sh/job-name"},
      // FrameworkController Framework (validation/framework/): no webhook, so no update check
      // and no defaulting.
      {.id = KindId::kFramework,
       .api_version = kFrameworkApiVersion,
       .kind = kFrameworkKind,
       .lint = &LintFrameworkObject,
       .title = "FrameworkController Framework",
       .group_word = "frameworkcontroller",
       .attach_fixes = nullptr,
       .crd_defaults = nullptr,
       .webhook_defaults = nullptr,
       .update = nullptr,
       .render = &RenderFrameworkPods,
       .diagnose = &DiagnoseFrameworkObject,
       .rules = &FrameworkRules,
       .noun = "Framework",
       .resource_words = {"framework", "frameworks", "framework.frameworkcontroller.microsoft.com",
                          "frameworks.frameworkcontroller.microsoft.com", "Framework"},
       .resource = "frameworks.frameworkcontroller.microsoft.com",
       .child_resources = "pods",
       .child_label = "FC_FRAMEWORK_NAME"},
  };
  return kinds;
}

const KindHandler& FindKind(KindId id) { return SupportedKinds()[static_cast<size_t>(id)]; }

const KindHandler* FindKindByResourceWord(std::string_view word) {
  for (const KindHandler& h : SupportedKinds()) {
    for (std::string_view w : h.resource_words) {
      if (w == word) return &h;
    }
  }
  return nullptr;
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

namespace {

// "jobset.x-k8s.io/v1alpha2" -> group "jobset.x-k8s.io", version "v1alpha2"; "v1" -> "", "v1".
std::pair<std::string_view, std::string_view> SplitApiVersion(std::string_view api_version) {
  size_t slash = api_version.rfind('/');
  if (slash == std::string_view::npos) return {"", api_version};
  return {api_version.substr(0, slash), api_version.substr(slash + 1)};
}

// Lower case, letters and digits only, without one plural "s": "Job Sets" -> "jobset".
std::string FoldKind(std::string_view kind) {
  std::string out;
  for (char c : kind) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (out.size() > 1 && out.back() == 's') out.pop_back();
  return out;
}

enum class KindMatch { kNone, kNear, kExact };

KindMatch MatchKind(std::string_view written, std::string_view kind) {
  if (written == kind) return KindMatch::kExact;
  if (FoldKind(written) == FoldKind(kind)) return KindMatch::kNear;
  // A couple of typos only in a kind long enough not to be another's ("Job" is everyone's), and
  // only when the word is not another supported kind in other letters ("Jobs": Job, not JobSet).
  for (const KindHandler& h : SupportedKinds()) {
    if (FoldKind(written) == FoldKind(h.kind)) return KindMatch::kNone;
  }
  if (kind.size() > 3 && EditDistance(written, kind) <= 2) return KindMatch::kNear;
  return KindMatch::kNone;
}

bool NearGroup(std::string_view group, const KindHandler& h) {
  std::string_view ours = SplitApiVersion(h.api_version).first;
  if (group.empty() || group == ours) return false;
  std::string lower;
  for (char c : group) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return EditDistance(group, ours) <= 3 || lower.find(h.group_word) != std::string::npos;
}

Finding IdentityFinding(RuleId rule, const std::string& field, Mark mark, std::string message) {
  Finding f;
  f.rule = rule.id;
  f.severity = Severity::kError;
  f.field = field;
  f.mark = mark;
  f.message = std::move(message);
  return f;
}

}  // namespace

std::string_view ApiGroupOf(const KindHandler& kind) {
  return SplitApiVersion(kind.api_version).first;
}

std::string_view ServedVersionOf(const KindHandler& kind) {
  return SplitApiVersion(kind.api_version).second;
}

bool FindIdentityProblem(const Node& object, Finding* finding) {
  if (!object.is_map()) return false;
  const Node* av = object.Find("apiVersion");
  const Node* kn = object.Find("kind");
  if ((av && !av->is_string() && !av->is_null()) || (kn && !kn->is_string() && !kn->is_null()))
    return false;
  std::string api_version = av && av->is_string() ? av->text : "";
  std::string kind = kn && kn->is_string() ? kn->text : "";
  if (api_version.empty() && kind.empty()) return false;
  auto [group, version] = SplitApiVersion(api_version);
  for (const KindHandler& h : SupportedKinds()) {
    auto [our_group, our_version] = SplitApiVersion(h.api_version);
    std::string want = "apiVersion: " + std::string(h.api_version);
    std::string want_kind = "kind: " + std::string(h.kind);
    std::string no_match =
        "no matches for kind \"" + kind + "\" in version \"" + api_version + "\"";
    KindMatch km = kind.empty() ? KindMatch::kNone : MatchKind(kind, h.kind);
    if (api_version.empty()) {
      // A near miss of "Job" may as well be a Kubernetes Job's.
      if (km == KindMatch::kNone || (km == KindMatch::kNear && h.kind.size() <= 3)) continue;
      std::string also = km == KindMatch::kNear ? " and " + want_kind : "";
      std::string other = h.kind == "Job" ? " (a Kubernetes Job is apiVersion: batch/v1)" : "";
      *finding = IdentityFinding(kInputUnknownApiVersion, "apiVersion", kn->mark,
                                 "apiVersion not set; did you mean " + want + also + " (" +
                                     std::string(h.title) + ")?" + other);
      return true;
    }
    if (group == our_group) {
      if (kind.empty()) {
        *finding = IdentityFinding(
            kInputUnknownKind, "kind", av->mark,
            "kind not set; did you mean " + want_kind + " (" + std::string(h.title) + ")?");
        return true;
      }
      if (km == KindMatch::kNone) continue;  // another kind of the group: not ours to judge
      if (version != our_version) {
        std::string also = km == KindMatch::kNear ? " and " + want_kind : "";
        *finding =
            IdentityFinding(kInputUnknownApiVersion, "apiVersion", av->mark,
                            no_match + ": the " + std::string(h.title) + " API serves only " +
                                std::string(our_version) + "; did you mean " + want + also + "?");
        return true;
      }
      *finding = IdentityFinding(
          kInputUnknownKind, "kind", kn->mark,
          no_match + "; did you mean " + want_kind + " (" + std::string(h.title) + ")?");
      return true;
    }
    if (km != KindMatch::kNone && NearGroup(group, h)) {
      std::string also = km == KindMatch::kNear ? " and " + want_kind : "";
      *finding =
          IdentityFinding(kInputUnknownApiVersion, "apiVersion", av->mark,
                          no_match + ": no API group " + std::string(group) + "; did you mean " +
                              want + also + " (" + std::string(h.title) + ")?");
      return true;
    }
  }
  return false;
}

}  // namespace jobset
