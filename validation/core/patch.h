// JSON Patch (RFC 6902) operations, as a mutating admission webhook answers them and as
// defaulting records what it did.
#pragma once

#include <string>
#include <string_view>

#include "validation/core/node.h"

namespace jobset {

/// One RFC 6902 operation: "add" for JobSet (defaulting only adds; "add" on an existing member
/// replaces it, which is how an empty restartPolicy or rule name is filled in), "replace" where
/// an upstream webhook says so (Volcano's /spec/tasks and /spec/plugins).
struct PatchOp {
  std::string path;  ///< JSON Pointer, e.g. "/spec/replicatedJobs/0/replicas".
  Node value;
  std::string op = "add";  ///< "add" or "replace".
};

/// Escapes one JSON Pointer segment ("~" -> "~0", "/" -> "~1").
std::string PointerSegment(std::string_view key);

}  // namespace jobset
