#include "validation/core/embedded.h"

namespace jobset {
namespace {

const std::string* FindIn(const std::vector<EmbeddedFile>& files, std::string_view name) {
  for (const EmbeddedFile& f : files) {
    if (f.name == name) return &f.content();
  }
  return nullptr;
}

}  // namespace

const std::string* FindEmbedded(const std::string& name) {
  return FindIn(EmbeddedSchemaFiles(), name);
}

const std::string* FindRuleDoc(std::string_view rule_id) {
  return FindIn(EmbeddedDocFiles(), "rules/" + std::string(rule_id) + ".md");
}

}  // namespace jobset
