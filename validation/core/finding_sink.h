// FindingSink: collects the findings of one object as kube-apiserver renders them, placed in the
// document (line and column of the field they are about). Every kind's checks write to one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/field_path.h"
#include "validation/core/finding.h"
#include "validation/core/node.h"
#include "validation/core/rule_registry.h"

namespace jobset {

/// Collects findings about one object, rendering them the way kube-apiserver does and placing
/// them in the document.
class FindingSink {
 public:
  FindingSink(const Node& object, std::vector<Finding>* out) : object_(object), out_(out) {}

  /// A plain webhook error: rendered upstream as "<nil>: Internal error: <message>". `locate`
  /// is the field it is about, for the position and the JSON `field`.
  void Plain(RuleId rule, std::string_view locate, std::string message,
             PointAt at = PointAt::kValue);
  /// A field error "<path>: <type>: <value>: <detail>" (value omitted when empty, detail too).
  /// The finding's `field` is `path`, the one the API server names; `locate`, when given, is the
  /// more useful place its line and column point at (where upstream's path is misspelt, or names
  /// a whole list). When `locate` is outside `path` and `path` is in the file, the note gives
  /// the position of `path`.
  void Field(RuleId rule, std::string_view path, std::string_view type, std::string value,
             std::string detail, std::string_view locate = {}, PointAt at = PointAt::kValue);
  /// A finding of our own (a warning or info), with no upstream rendering. `related` names the
  /// other end of the problem (e.g. the template line a rule conflicts with); its position goes
  /// into the finding's note.
  void Own(RuleId rule, Severity severity, std::string_view locate, std::string message,
           std::string_view related = {}, PointAt at = PointAt::kValue);

  /// A rejection of a child object the controller creates from this object (see
  /// RuleSource::kChild): an error whose message is also its upstream text. `path` is the
  /// field in this object; the finding sits there, or at `locate` when that is given (a
  /// required field the file lacks is reported at the field that requires it), with `note`.
  void ChildError(RuleId rule, std::string_view path, std::string message,
                  PointAt at = PointAt::kValue, std::string_view locate = {},
                  std::string note = {});

  const Node& object() const { return object_; }

 private:
  const Node& object_;
  std::vector<Finding>* out_;
};

}  // namespace jobset
