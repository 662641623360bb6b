#include "validation/framework/types.h"

namespace jobset {
namespace {

void DecodeRetry(const Node* n, FrameworkRetryPolicy* out) {
  if (!n || !n->is_map()) return;
  if (const Node* f = n->Find("fancyRetryPolicy"); f && f->is_bool()) out->fancy = f->boolean;
  if (const Node* m = n->Find("maxRetryCount"); m && m->is_int()) {
    out->max_retry_count = m->integer;
    out->max_set = true;
  }
}

void DecodeCompletion(const Node* n, FrameworkCompletionPolicy* out) {
  if (!n || !n->is_map()) return;
  if (const Node* f = n->Find("minFailedTaskCount"); f && f->is_int()) {
    out->min_failed = f->integer;
    out->min_failed_set = true;
  }
  if (const Node* s = n->Find("minSucceededTaskCount"); s && s->is_int()) {
    out->min_succeeded = s->integer;
    out->min_succeeded_set = true;
  }
}

}  // namespace

bool IsFramework(const Node& object) {
  return object.is_map() && object.StringOr("apiVersion") == kFrameworkApiVersion &&
         object.StringOr("kind") == kFrameworkKind;
}

Framework DecodeFramework(const Node& object) {
  Framework fw;
  if (const Node* meta = object.Find("metadata"); meta && meta->is_map())
    fw.name = std::string(meta->StringOr("name"));
  const Node* spec = object.Find("spec");
  if (!spec || !spec->is_map()) return fw;
  fw.execution_type = std::string(spec->StringOr("executionType"));
  DecodeRetry(spec->Find("retryPolicy"), &fw.retry);
  const Node* roles = spec->Find("taskRoles");
  if (!roles || !roles->is_seq()) return fw;
  for (const Node& r : roles->items) {
    FrameworkTaskRole role;
    if (r.is_map()) {
      role.name = std::string(r.StringOr("name"));
      if (const Node* n = r.Find("taskNumber"); n && n->is_int()) role.task_number = n->integer;
      DecodeCompletion(r.Find("frameworkAttemptCompletionPolicy"), &role.completion);
      if (const Node* task = r.Find("task"); task && task->is_map()) {
        DecodeRetry(task->Find("retryPolicy"), &role.retry);
        if (const Node* t = task->Find("podGracefulDeletionTimeoutSec"); t && t->is_int())
          role.pod_graceful_deletion_timeout_sec = t->integer;
      }
    }
    fw.task_roles.push_back(std::move(role));
  }
  return fw;
}

int64_t TotalTaskNumber(const Framework& fw) {
  int64_t total = 0;
  for (const FrameworkTaskRole& r : fw.task_roles) total += r.task_number > 0 ? r.task_number : 0;
  return total;
}

std::string FrameworkPodName(const Framework& fw, const std::string& role, int64_t index) {
  return fw.name + "-" + role + "-" + std::to_string(index);
}

}  // namespace jobset
