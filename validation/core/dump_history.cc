#include "validation/core/dump_history.h"

#include "validation/core/strings.h"
#include "validation/core/workload_dump.h"

namespace jobset {

const Node* TrueCondition(const Node& object, std::string_view type) {
  const Node* conditions = FindSeq(object.Find("status"), "conditions");
  if (conditions == nullptr) return nullptr;
  for (const Node& c : conditions->items) {
    if (c.StringOr("type") == type && c.StringOr("status") == "True") return &c;
  }
  return nullptr;
}

const Node* EventSubject(const Node& event) {
  const Node* about = event.Find("involvedObject");
  return about != nullptr ? about : event.Find("regarding");
}

std::string_view EventNote(const Node& event) {
  std::string_view message = event.StringOr("message");
  return message.empty() ? event.StringOr("note") : message;
}

int64_t KubeTimeSeconds(std::string_view time) {
  int64_t seconds = 0;
  return ParseKubeTime(time, &seconds) ? seconds : 0;
}

bool KubeTimeBefore(std::string_view a, std::string_view b) {
  int64_t ta = 0, tb = 0;
  if (ParseKubeTime(a, &ta) && ParseKubeTime(b, &tb)) return ta < tb;
  return a < b;
}

bool KubeTimeSpan(std::string_view from, std::string_view to, int64_t* seconds) {
  int64_t tf = 0, tt = 0;
  if (!ParseKubeTime(from, &tf) || !ParseKubeTime(to, &tt) || tt < tf) return false;
  *seconds = tt - tf;
  return true;
}

bool IntOrStringValue(const Node* n, int64_t* out) {
  if (IntValue(n, out)) return true;
  return n != nullptr && n->is_string() && ParseInt64(n->text, out);
}

std::string OnNodeWords(const Node& pod) {
  std::string_view node = StringValue(FindPath(&pod, {"spec", "nodeName"}));
  return node.empty() ? "" : " on node " + std::string(node);
}

std::string UnscheduledReason(const Node& pod) {
  std::string why;
  const Node* conditions = FindSeq(pod.Find("status"), "conditions");
  if (conditions == nullptr) return why;
  for (const Node& c : conditions->items) {
    if (c.StringOr("type") == "PodScheduled" && c.StringOr("status") == "False") {
      why = std::string(c.StringOr("reason")) + ": " + std::string(c.StringOr("message"));
    }
  }
  return why;
}

}  // namespace jobset
