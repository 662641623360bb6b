// Kubernetes name and label checks (k8s.io/apimachinery validation), with their exact texts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"
#include "validation/core/strings.h"  // GoQuote, which the field errors use

namespace jobset {

/// Errors of IsDNS1035Label: "must be no more than 63 characters" and/or the format text.
std::vector<std::string> DNS1035LabelErrors(std::string_view value);
/// Errors of IsDNS1123Subdomain (max 253).
std::vector<std::string> DNS1123SubdomainErrors(std::string_view value);
/// Errors of IsDNS1123Label (max 63).
std::vector<std::string> DNS1123LabelErrors(std::string_view value);
/// Errors of IsValidLabelValue (max 63 bytes).
std::vector<std::string> LabelValueErrors(std::string_view value);
/// Errors of IsQualifiedName (label and annotation keys).
std::vector<std::string> QualifiedNameErrors(std::string_view value);

/// The library's "too long" text for a maximum of `n` characters.
std::string MaxLenError(int n);

/// A value as Kubernetes field errors print it: strings quoted, numbers and booleans bare,
/// null as null, lists and objects as compact JSON.
std::string RenderValue(const Node& value);

/// Compact JSON of a value (keys in document order).
std::string CompactJson(const Node& value);

}  // namespace jobset
