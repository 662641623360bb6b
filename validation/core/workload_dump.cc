#include "validation/core/workload_dump.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "validation/core/json_node.h"

namespace jobset {
namespace {

// The end (one past) of the JSON object or array starting at text[begin]; npos when it does
// not end.
size_t ValueEnd(std::string_view text, size_t begin) {
  JsonScanState scan;
  for (size_t i = begin; i < text.size(); ++i) {
    if (scan.Step(text[i])) return i + 1;
  }
  return std::string_view::npos;
}

bool IsList(const Node& value) {
  std::string_view kind = value.StringOr("kind");
  const Node* items = value.Find("items");
  return items != nullptr && items->is_seq() && kind.size() >= 4 &&
         kind.substr(kind.size() - 4) == "List";
}

// Appends `value` (an object, or a List whose items are appended in turn) to `out`.
bool Collect(Node value, std::vector<Node>* out, std::string* error) {
  if (!value.is_map()) {
    *error = "not a Kubernetes object or List: a JSON object is expected";
    return false;
  }
  if (!IsList(value)) {
    out->push_back(std::move(value));
    return true;
  }
  for (Node& item : value.Find("items")->items) {
    if (!Collect(std::move(item), out, error)) return false;
  }
  return true;
}

std::string_view MetadataString(const Node& object, std::string_view key) {
  const Node* metadata = object.Find("metadata");
  return metadata == nullptr ? std::string_view{} : metadata->StringOr(key);
}

std::string_view MetadataMapValue(const Node& object, std::string_view map, std::string_view key) {
  const Node* metadata = object.Find("metadata");
  const Node* values = metadata == nullptr ? nullptr : metadata->Find(map);
  return values == nullptr ? std::string_view{} : values->StringOr(key);
}

}  // namespace

bool JsonScanState::Step(char c) {
  if (in_string) {
    if (escape) {
      escape = false;
    } else if (c == '\\') {
      escape = true;
    } else if (c == '"') {
      in_string = false;
    }
    return false;
  }
  if (c == '"') {
    in_string = true;
  } else if (c == '{' || c == '[') {
    ++depth;
  } else if (c == '}' || c == ']') {
    return --depth == 0;
  }
  return false;
}

bool ParseWorkloadDump(std::string_view text, const WorkloadDumpLimits& limits, WorkloadDump* out,
                       std::string* error) {
  out->objects.clear();
  if (text.size() > limits.max_bytes) {
    *error = "dump of " + std::to_string(text.size()) + " bytes is larger than the limit of " +
             std::to_string(limits.max_bytes);
    return false;
  }
  JsonParseLimits json_limits;
  json_limits.max_depth = limits.max_depth;
  size_t pos = 0;
  bool any = false;
  while (true) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == text.size()) break;
    size_t end = text[pos] == '{' || text[pos] == '[' ? ValueEnd(text, pos) : pos + 1;
    if (end == std::string_view::npos) end = text.size();
    Node value;
    std::string parse_error;
    if (!ParseJson(text.substr(pos, end - pos), json_limits, &value, &parse_error)) {
      *error = "JSON value at byte " + std::to_string(pos + 1) + ": " + parse_error;
      return false;
    }
    if (!Collect(std::move(value), &out->objects, error)) {
      *error = "JSON value at byte " + std::to_string(pos + 1) + ": " + *error;
      return false;
    }
    any = true;
    pos = end;
  }
  if (!any) {
    *error = "empty dump: no JSON value";
    return false;
  }
  return true;
}

WorkloadDump DumpWithout(const WorkloadDump& dump, size_t index) {
  WorkloadDump part;
  part.objects.reserve(dump.objects.size());
  for (size_t i = 0; i < dump.objects.size(); ++i) {
    if (i != index) part.objects.push_back(dump.objects[i]);
  }
  return part;
}

std::string_view ApiGroup(const Node& object) {
  std::string_view api_version = object.StringOr("apiVersion");
  size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view{} : api_version.substr(0, slash);
}

std::vector<const Node*> ObjectsOfKind(const WorkloadDump& dump, std::string_view group,
                                       std::string_view kind) {
  std::vector<const Node*> found;
  for (const Node& object : dump.objects) {
    if (object.StringOr("kind") == kind && ApiGroup(object) == group) found.push_back(&object);
  }
  return found;
}

std::string_view ObjectName(const Node& object) { return MetadataString(object, "name"); }
std::string_view ObjectNamespace(const Node& object) { return MetadataString(object, "namespace"); }
std::string_view ObjectUid(const Node& object) { return MetadataString(object, "uid"); }

std::string_view LabelOf(const Node& object, std::string_view key) {
  return MetadataMapValue(object, "labels", key);
}
std::string_view AnnotationOf(const Node& object, std::string_view key) {
  return MetadataMapValue(object, "annotations", key);
}

bool IsOwnedBy(const Node& object, std::string_view kind, std::string_view name,
               std::string_view uid) {
  const Node* metadata = object.Find("metadata");
  const Node* owners = metadata == nullptr ? nullptr : metadata->Find("ownerReferences");
  if (owners == nullptr || !owners->is_seq()) return false;
  for (const Node& owner : owners->items) {
    if (owner.StringOr("kind") == kind && owner.StringOr("name") == name &&
        (uid.empty() || owner.StringOr("uid") == uid)) {
      return true;
    }
  }
  return false;
}

std::string_view EventTime(const Node& event) {
  for (std::string_view key : {"lastTimestamp", "eventTime", "firstTimestamp"}) {
    std::string_view time = event.StringOr(key);
    if (!time.empty()) return time;
  }
  const Node* series = event.Find("series");
  return series == nullptr ? std::string_view{} : series->StringOr("lastObservedTime");
}

bool ParseKubeTime(std::string_view text, int64_t* seconds) {
  // YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
  auto digits = [&](size_t at, size_t n, int64_t* out) {
    if (at + n > text.size()) return false;
    int64_t v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
      v = v * 10 + (text[i] - '0');
    }
    *out = v;
    return true;
  };
  int64_t y, mo, d, h, mi, s;
  if (text.size() < 20 || !digits(0, 4, &y) || text[4] != '-' || !digits(5, 2, &mo) ||
      text[7] != '-' || !digits(8, 2, &d) || (text[10] != 'T' && text[10] != 't') ||
      !digits(11, 2, &h) || text[13] != ':' || !digits(14, 2, &mi) || text[16] != ':' ||
      !digits(17, 2, &s) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
    return false;
  }
  size_t pos = 19;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  int64_t offset = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int64_t oh, om;
    if (!digits(pos + 1, 2, &oh) || pos + 3 >= text.size() || text[pos + 3] != ':' ||
        !digits(pos + 4, 2, &om)) {
      return false;
    }
    offset = (oh * 60 + om) * 60 * (text[pos] == '+' ? 1 : -1);
    pos += 6;
  } else {
    return false;
  }
  if (pos != text.size()) return false;
  // Days from the civil date (proleptic Gregorian), as in Howard Hinnant's days_from_civil.
  const int64_t yy = y - (mo <= 2 ? 1 : 0);
  const int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
  const int64_t yoe = yy - era * 400;
  const int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const int64_t days = era * 146097 + doe - 719468;
  *seconds = days * 86400 + h * 3600 + mi * 60 + s - offset;
  return true;
}

std::vector<const Node*> EventsFor(const WorkloadDump& dump, std::string_view kind,
                                   std::string_view name) {
  std::vector<const Node*> found;
  for (const Node& object : dump.objects) {
    if (object.StringOr("kind") != "Event") continue;
    const Node* about = object.Find("involvedObject");
    if (about == nullptr) about = object.Find("regarding");
    if (about != nullptr && about->StringOr("kind") == kind && about->StringOr("name") == name) {
      found.push_back(&object);
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Node* a, const Node* b) { return EventTime(*a) < EventTime(*b); });
  return found;
}

}  // namespace jobset
