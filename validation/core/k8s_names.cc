#include "validation/core/k8s_names.h"

#include <re2/re2.h>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace jobset {
namespace {

bool FullMatch(std::string_view value, const RE2& re) {
  return RE2::FullMatch(re2::StringPiece(value.data(), value.size()), re);
}

const RE2& DNS1035() {
  static const RE2 re("[a-z]([-a-z0-9]*[a-z0-9])?");
  return re;
}
const RE2& DNS1123Label() {
  static const RE2 re("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return re;
}
const RE2& DNS1123Subdomain() {
  static const RE2 re("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  return re;
}
const RE2& LabelValue() {
  static const RE2 re("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
  return re;
}
const RE2& QualifiedNamePart() {
  static const RE2 re("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  return re;
}

const char kDNS1035Format[] =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const char kDNS1123LabelFormat[] =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const char kDNS1123SubdomainFormat[] =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const char kLabelValueFormat[] =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const char kQualifiedNameFormat[] =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

}  // namespace

std::string MaxLenError(int n) {
  return "must be no more than " + std::to_string(n) + " characters";
}

std::vector<std::string> DNS1035LabelErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(MaxLenError(63));
  if (!FullMatch(value, DNS1035())) errs.push_back(kDNS1035Format);
  return errs;
}

std::vector<std::string> DNS1123LabelErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(MaxLenError(63));
  if (!FullMatch(value, DNS1123Label())) errs.push_back(kDNS1123LabelFormat);
  return errs;
}

std::vector<std::string> DNS1123SubdomainErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 253) errs.push_back(MaxLenError(253));
  if (!FullMatch(value, DNS1123Subdomain())) errs.push_back(kDNS1123SubdomainFormat);
  return errs;
}

std::vector<std::string> LabelValueErrors(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back("must be no more than 63 bytes");
  if (!FullMatch(value, LabelValue())) errs.push_back(kLabelValueFormat);
  return errs;
}

std::vector<std::string> QualifiedNameErrors(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back(
          "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must "
          "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
          "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') "
          "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const std::string& e : DNS1123SubdomainErrors(prefix))
        errs.push_back("prefix part " + e);
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > 63) {
    errs.push_back("name part " + MaxLenError(63));
  }
  if (!FullMatch(name, QualifiedNamePart())) errs.push_back(kQualifiedNameFormat);
  return errs;
}

std::string CompactJson(const Node& v) {
  switch (v.kind) {
    case Node::Kind::kNull:
      return "null";
    case Node::Kind::kBool:
      return v.boolean ? "true" : "false";
    case Node::Kind::kInt:
      return std::to_string(v.integer);
    case Node::Kind::kFloat: {
      if (!std::isfinite(v.number)) return "null";
      return ShortestFloatText(v.number);
    }
    case Node::Kind::kString:
      return GoQuote(v.text);
    case Node::Kind::kSeq: {
      std::string out = "[";
      for (size_t i = 0; i < v.items.size(); ++i) out += (i ? "," : "") + CompactJson(v.items[i]);
      return out + "]";
    }
    case Node::Kind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < v.entries.size(); ++i) {
        out += (i ? "," : "") + GoQuote(v.entries[i].key) + ":" + CompactJson(v.entries[i].value);
      }
      return out + "}";
    }
  }
  return "null";
}

std::string RenderValue(const Node& v) {
  if (v.is_string()) return GoQuote(v.text);
  return CompactJson(v);
}

}  // namespace jobset
