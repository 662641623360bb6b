// What `render` prints: the objects a controller creates for one parent object (a JobSet's Jobs
// and headless Service, a Volcano Job's or a Framework's Pods), as each system's children
// function builds them offline.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// What to render of one parent object.
struct ChildOptions {
  /// Only the children of this replicated job (JobSet), task (Volcano Job) or task role
  /// (Framework); empty: all. A name the object does not hold is an error.
  std::string only;
  /// Render as after this many restarts of the whole object: a JobSet's status.restarts
  /// (label jobset.sigs.k8s.io/restart-attempt), a Volcano Job's status.version and retryCount,
  /// a Framework's attempt id.
  int64_t restarts = 0;
};

/// The children of one parent object, in the order the controller creates them; or why there
/// are none.
struct ChildObjects {
  std::vector<Node> objects;
  std::string error;  ///< Non-empty: nothing could be rendered (a usage error).
  std::string note;   ///< Non-empty: worth telling the user (e.g. another controller manages it).
};

/// The placeholder for an object's metadata.uid, which only the API server assigns: a UUID of
/// zeros, valid wherever a uid is (label values, owner references).
inline constexpr char kPlaceholderUid[] = "00000000-0000-0000-0000-000000000000";

/// The namespace a child is hashed or named with when its parent names none: kubectl sends
/// such an object to the context's namespace, "default" unless configured.
inline constexpr char kPlaceholderNamespace[] = "default";

}  // namespace jobset
