// The input of `kubectl jobset why`: the objects `kubectl get ... -o json` printed for one
// workload (the workload itself, its child Jobs or Pods, their Pods, and events), parsed once
// and looked up by kind, owner and label. Never throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// Bounds on a dump.
struct WorkloadDumpLimits {
  size_t max_bytes = 512u << 20;  ///< Larger dumps are refused.
  int max_depth = 200;            ///< Deepest JSON nesting.
};

/// The bracket state of JSON text read one character at a time, to find where a top-level
/// object or array ends without parsing it (brackets inside strings do not count).
struct JsonScanState {
  int depth = 0;
  bool in_string = false;
  bool escape = false;
  /// Advances over `c`; true when `c` closes a top-level object or array.
  bool Step(char c);
};

/// One dump: every object it holds, in the order kubectl printed them.
struct WorkloadDump {
  std::vector<Node> objects;  ///< Items of a `kind: List` (flattened), or the one object.
};

/// Parses `text`: a `kind: List` (or any `...List` with `items`, as `kubectl get a,b -o json`
/// prints), a single object, or several such JSON values one after another (what `kubectl get
/// --watch -o json` prints). Gives false and a one-line message naming the byte offset of a
/// syntax error, or saying what is not an object.
bool ParseWorkloadDump(std::string_view text, const WorkloadDumpLimits& limits, WorkloadDump* out,
                       std::string* error);

/// `dump` without its object at `index` (all of it when `index` is past the end): a dump with
/// one part left out, as a watch that missed an object or a listing refused for one resource
/// gives.
WorkloadDump DumpWithout(const WorkloadDump& dump, size_t index);

/// The API group of `apiVersion` ("batch" for "batch/v1", "" for "v1").
std::string_view ApiGroup(const Node& object);

/// The objects of `kind` whose API group is `group` ("" for the core group), in dump order.
std::vector<const Node*> ObjectsOfKind(const WorkloadDump& dump, std::string_view group,
                                       std::string_view kind);

/// metadata.name, metadata.namespace, metadata.uid ("" when absent).
std::string_view ObjectName(const Node& object);
std::string_view ObjectNamespace(const Node& object);
std::string_view ObjectUid(const Node& object);

/// metadata.labels[key], metadata.annotations[key] ("" when absent).
std::string_view LabelOf(const Node& object, std::string_view key);
std::string_view AnnotationOf(const Node& object, std::string_view key);

/// True when metadata.ownerReferences names an owner of `kind` called `name` (and, when `uid`
/// is not empty, with that uid).
bool IsOwnedBy(const Node& object, std::string_view kind, std::string_view name,
               std::string_view uid = {});

/// The events whose involvedObject (or regarding, for events.k8s.io) is of `kind` called `name`,
/// ordered by time (lastTimestamp, eventTime or firstTimestamp; ties keep dump order).
std::vector<const Node*> EventsFor(const WorkloadDump& dump, std::string_view kind,
                                   std::string_view name);

/// The time an event last happened: lastTimestamp, eventTime, firstTimestamp or
/// series.lastObservedTime, the first that is set ("" when none).
std::string_view EventTime(const Node& event);

/// Reads a Kubernetes timestamp (RFC 3339: `2026-01-02T03:04:05Z`, fractional seconds and a
/// numeric offset allowed) as seconds since the Unix epoch; false when `text` is not one.
bool ParseKubeTime(std::string_view text, int64_t* seconds);

}  // namespace jobset
