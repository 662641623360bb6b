// What `render` prints: the objects a controller creates for one parent object (a JobSet's Jobs
// and headless Service, a Volcano Job's or a Framework's Pods), as each system's children
// function builds them offline.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
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

/// More pods than this (over the groups `ChildOptions::only` selects) is not a manifest anyone
/// reviews: render refuses rather than print millions.
inline constexpr int64_t kMaxChildPods = 100000;

/// Checks the groups of a parent's Pods (a Volcano Job's tasks, a Framework's task roles)
/// against `options` before anything is rendered: `options.only`, when set, must name one of
/// them, and the groups it selects (all when empty) may hold at most kMaxChildPods Pods.
/// `groups` is the sequence of groups (null when absent), each a mapping with a `name` and the
/// number of Pods at `count_key` (`replicas`, `taskNumber`); `parent` names the object
/// ("Volcano Job mpi") and `group` a group ("task"). Returns the error for ChildObjects::error,
/// or "" when rendering may go on.
std::string CheckChildGroups(const Node* groups, std::string_view count_key,
                             const ChildOptions& options, std::string_view parent,
                             std::string_view group);

}  // namespace jobset
