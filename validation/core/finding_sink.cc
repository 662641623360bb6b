#include "validation/core/finding_sink.h"

#include <string>
#include <utility>

#include "validation/core/field_path.h"

namespace jobset {

void FindingSink::Plain(RuleId rule, std::string_view locate, std::string message, PointAt at) {
  Finding f;
  f.rule = std::string(rule.id);
  f.severity = Severity::kError;
  f.field = std::string(locate);
  f.upstream = "<nil>: Internal error: " + message;
  f.message = std::move(message);
  f.mark = Locate(object_, locate, at);
  out_->push_back(std::move(f));
}

void FindingSink::Field(RuleId rule, std::string_view path, std::string_view type,
                        std::string value, std::string detail, std::string_view locate,
                        PointAt at) {
  Finding f;
  f.rule = std::string(rule.id);
  f.severity = Severity::kError;
  f.field = std::string(path);
  std::string text = std::string(path) + ": " + std::string(type);
  if (!value.empty()) text += ": " + value;
  if (!detail.empty()) text += ": " + detail;
  f.upstream = text;
  f.message = std::move(text);
  const std::string_view where = locate.empty() ? path : locate;
  f.mark = Locate(object_, where, at);
  // Pointing elsewhere than the reported field, outside it: the note points back at it.
  const bool inside = where.size() > path.size() && where.substr(0, path.size()) == path &&
                      (where[path.size()] == '.' || where[path.size()] == '[');
  if (where != path && !inside) {
    if (const Node* reported = FindPath(object_, path); reported && reported->mark.known()) {
      Mark m = Locate(object_, path, PointAt::kKey);
      f.note = "the API server reports it at " + std::string(path) + " (line " +
               std::to_string(m.line) + ", column " + std::to_string(m.column) + ")";
    } else if (FindPath(object_, where)) {
      // Upstream's path is not in the object (misspelt, or the value is generated from
      // another field): say which field the position is.
      f.note = "the API server's path " + std::string(path) + " is " + std::string(where) +
               " in the file";
    }
  }
  out_->push_back(std::move(f));
}

void FindingSink::ChildError(RuleId rule, std::string_view path, std::string message, PointAt at,
                             std::string_view locate, std::string note) {
  Finding f;
  f.rule = std::string(rule.id);
  f.severity = Severity::kError;
  f.field = std::string(path);
  f.upstream = message;
  f.message = std::move(message);
  f.mark = Locate(object_, locate.empty() ? path : locate, at);
  f.note = std::move(note);
  out_->push_back(std::move(f));
}

void FindingSink::Own(RuleId rule, Severity severity, std::string_view locate, std::string message,
                      std::string_view related, PointAt at) {
  Finding f;
  f.rule = std::string(rule.id);
  f.severity = severity;
  f.field = std::string(locate);
  f.message = std::move(message);
  f.mark = Locate(object_, locate, at);
  if (!related.empty()) {
    Mark m = Locate(object_, related);
    f.note = "see " + std::string(related);
    if (m.known())
      f.note += " (line " + std::to_string(m.line) + ", column " + std::to_string(m.column) + ")";
  }
  out_->push_back(std::move(f));
}

}  // namespace jobset
