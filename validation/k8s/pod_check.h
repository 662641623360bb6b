// What the checks of a pod template (pod_template.h) share: the options and the error list
// they write to, the defaults of the pod spec they read, and the small readers and writers of
// kubernetes/kubernetes pkg/apis/core/validation they all use. Not for other callers:
// ValidatePodTemplateSpec is the interface.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"
#include "validation/k8s/child.h"
#include "validation/k8s/pod_template.h"

namespace jobset::pod {

/// field.Error types as the API server prints them.
inline constexpr char kInvalid[] = "Invalid value";
inline constexpr char kRequired[] = "Required value";
inline constexpr char kUnsupported[] = "Unsupported value";
inline constexpr char kDuplicate[] = "Duplicate value";

/// One run of the checks over one template.
struct PodCheck {
  const PodTemplateOptions& options;
  std::vector<FieldError>* out;  ///< Where errors go, in upstream's order.
  int64_t grace = 30;            ///< spec.terminationGracePeriodSeconds, defaulted.
  bool host_users = true;        ///< spec.hostUsers, defaulted.
};

/// The string under `key` of a map, or nullptr (absent, null, or not a string).
const Node* Str(const Node& parent, std::string_view key);

/// The value under `key`, when it is neither absent nor null.
const Node* Present(const Node& parent, std::string_view key);

/// The integer under `key`, or nullptr.
const Node* Int(const Node& parent, std::string_view key);

/// "supported values: "A", "B"", as field.NotSupported renders its list.
std::string Supported(std::initializer_list<const char*> values);

/// Whether `v` is one of `values`.
bool OneOf(std::string_view v, std::initializer_list<const char*> values);

/// Whether `s` holds a "{{" placeholder the controller replaces (and so is not checked).
bool Skip(const PodCheck& pc, std::string_view s);

/// Appends one field error to `pc.out`.
void Add(PodCheck& pc, RuleId rule, std::string path, std::string type, std::string value,
         std::string detail, PointAt at = PointAt::kValue, std::string locate = "");

/// ValidateLabels: each key a qualified name, each value a label value; errors name `field`
/// and point at the entry (`at`.KEY).
void Labels(PodCheck& pc, const Node& map, RuleId rule, const std::string& field,
            const std::string& at);

}  // namespace jobset::pod
