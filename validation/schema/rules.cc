#include "validation/schema/rules.h"

namespace jobset {

std::span<const RuleInfo> SchemaRules() {
  using S = Severity;
  using R = RuleSource;
  static constexpr RuleInfo kRows[] = {
      // kube-apiserver: object metadata, the CRD schema and its CEL rules.
      {kMetadataName.id, S::kError, R::kSchema,
       "metadata.name (or generateName) is missing or not a DNS-1123 subdomain."},
      {kMetadataNamespace.id, S::kError, R::kSchema, "metadata.namespace is not a DNS-1123 label."},
      {kMetadataLabels.id, S::kError, R::kSchema, "A label key or value is not valid."},
      {kSchemaUnknownField.id, S::kError, R::kSchema,
       "A field the API does not know (strict field validation rejects it)."},
      {kSchemaType.id, S::kError, R::kSchema, "A value has the wrong JSON type."},
      {kSchemaEnum.id, S::kError, R::kSchema, "A value is not one of the supported values."},
      {kSchemaRequired.id, S::kError, R::kSchema, "A required field is missing."},
      {kSchemaMinimum.id, S::kError, R::kSchema,
       "A number is below its minimum (or above its maximum)."},
      {kSchemaMaxItems.id, S::kError, R::kSchema,
       "A list has more items than allowed (or fewer: minItems)."},
      {kSchemaInvalid.id, S::kError, R::kSchema, "A value breaks another schema constraint."},
      {kSchemaDuplicateKey.id, S::kError, R::kSchema,
       "Two items of a keyed list (replicatedJobs, dependsOn) share a name."},
  };
  return kRows;
}

}  // namespace jobset
