#include "webhook/admission_response.h"

#include <set>
#include <utility>

#include "validation/core/json_node.h"
#include "validation/core/k8s_names.h"
#include "validation/lint/rule_registry.h"

namespace jobset::webhook {
namespace {

// Cuts `s` to at most `max` bytes without splitting a UTF-8 sequence.
std::string CutUtf8(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

}  // namespace

bool ParseChildObjects(std::string_view text, ChildObjects* out) {
  if (text == "warn") {
    *out = ChildObjects::kWarn;
  } else if (text == "deny") {
    *out = ChildObjects::kDeny;
  } else {
    return false;
  }
  return true;
}

void ApplyChildObjects(ChildObjects mode, std::vector<Finding>* findings) {
  if (mode == ChildObjects::kDeny) return;
  for (Finding& f : *findings) {
    const RuleInfo* rule = FindRule(f.rule);
    if (!rule || rule->source != RuleSource::kChild || f.severity != Severity::kError) continue;
    f.severity = Severity::kWarning;
    // The message names the child's own field path; the parent's would only crowd the
    // 120-character warning.
    f.field.clear();
  }
}

AdmissionResponse AllowedResponse() {
  AdmissionResponse r;
  r.allowed = true;
  return r;
}

AdmissionResponse BadRequestResponse(std::string message) {
  AdmissionResponse r;
  r.allowed = false;
  Status s;
  s.code = 400;
  s.reason = "BadRequest";
  s.message = std::move(message);
  r.status = std::move(s);
  return r;
}

bool IsObject(const std::optional<Node>& n) { return n && n->is_map(); }

std::string ObjectName(const Node& object) {
  const Node* md = object.Find("metadata");
  return md ? std::string(md->StringOr("name")) : "";
}

bool IsRequestFor(const AdmissionRequest& request, const KindHandler& kind) {
  if (!request.sub_resource.empty()) return false;
  if (request.kind.kind.empty() && request.kind.group.empty()) {
    // Not said: look at the object itself.
    return request.object && FindKindHandler(*request.object) == &kind;
  }
  return request.kind.group == ApiGroupOf(kind) && request.kind.kind == kind.kind &&
         request.kind.version == ServedVersionOf(kind);
}

StatusCause CauseOf(const std::string& upstream) {
  static const std::pair<std::string_view, std::string_view> kTypes[] = {
      {"Invalid value", "FieldValueInvalid"},
      {"Required value", "FieldValueRequired"},
      {"Forbidden", "FieldValueForbidden"},
      {"Too long", "FieldValueTooLong"},
      {"Too many", "FieldValueTooMany"},
      {"Duplicate value", "FieldValueDuplicate"},
      {"Unsupported value", "FieldValueNotSupported"},
      {"Not found", "FieldValueNotFound"},
      {"Internal error", "InternalError"},
  };
  for (size_t pos = upstream.find(": "); pos != std::string::npos;
       pos = upstream.find(": ", pos + 1)) {
    std::string_view rest = std::string_view(upstream).substr(pos + 2);
    for (const auto& [type, reason] : kTypes) {
      if (rest.substr(0, type.size()) == type &&
          (rest.size() == type.size() || rest[type.size()] == ':')) {
        return {std::string(reason), std::string(rest), upstream.substr(0, pos)};
      }
    }
  }
  return {"FieldValueInvalid", upstream, ""};
}

Status InvalidStatus(std::string_view name, const std::vector<Finding>& errors,
                     std::string_view kind, std::string_view group) {
  Status s;
  s.code = 422;
  s.reason = "Invalid";
  s.name = std::string(name);
  s.group = std::string(group);
  s.kind = std::string(kind);
  std::vector<std::string> distinct;
  std::set<std::string> seen;
  for (const Finding& f : errors) {
    const std::string& text = f.upstream.empty() ? f.message : f.upstream;
    s.causes.push_back(CauseOf(text));
    if (seen.insert(text).second) distinct.push_back(text);
  }
  std::string aggregate;
  if (distinct.size() == 1) {
    aggregate = distinct[0];
  } else {
    aggregate = "[";
    for (size_t i = 0; i < distinct.size(); ++i) aggregate += (i ? ", " : "") + distinct[i];
    aggregate += "]";
  }
  s.message = s.kind + "." + s.group + " " + GoQuote(name) + " is invalid";
  if (!distinct.empty()) s.message += ": " + aggregate;
  return s;
}

std::vector<std::string> WarningsOf(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const Finding& f : findings) {
    if (f.severity == Severity::kError || !f.suppressed_by.empty()) continue;
    std::string text = f.message;
    if (!f.field.empty() && text.rfind(f.field, 0) != 0) text = f.field + ": " + text;
    for (char& c : text) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    }
    if (text.size() > kMaxWarningBytes) text = CutUtf8(text, kMaxWarningBytes - 3) + "...";
    if (seen.insert(text).second) out.push_back(std::move(text));
  }
  // kube-apiserver drops warnings once 4096 characters have accumulated: rather than lose
  // the tail silently, stop early and say how many more there are.
  size_t total = 0, kept = 0;
  for (; kept < out.size(); ++kept) {
    if (total + out[kept].size() > kMaxWarningsBytes - kMaxWarningBytes) break;
    total += out[kept].size();
  }
  if (kept < out.size()) {
    size_t more = out.size() - kept;
    out.resize(kept);
    out.push_back(std::to_string(more) + " more warning" + (more == 1 ? "" : "s") +
                  ": run `kubectl jobset lint` on the manifest to see all");
  }
  return out;
}

std::string JsonPatchText(const std::vector<PatchOp>& ops) {
  if (ops.empty()) return "";
  std::string out = "[";
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i) out += ",";
    out += R"({"op":)" + NodeToJsonText(Node::String(ops[i].op)) + R"(,"path":)" +
           NodeToJsonText(Node::String(ops[i].path)) + R"(,"value":)" +
           NodeToJsonText(ops[i].value) + "}";
  }
  return out + "]";
}

}  // namespace jobset::webhook
