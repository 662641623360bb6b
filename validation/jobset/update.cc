#include "validation/jobset/update.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "validation/core/dump_history.h"
#include "validation/core/field_path.h"
#include "validation/core/k8s_names.h"
#include "validation/jobset/defaults.h"
#include "validation/jobset/rules.h"
#include "validation/jobset/validation.h"
#include "validation/schema/schema.h"

namespace jobset {
namespace {

constexpr char kRJobs[] = "spec.replicatedJobs";
constexpr char kImmutable[] = "Value is immutable";
constexpr char kFieldImmutable[] = "field is immutable";

// --- Equalities --------------------------------------------------------------------------------

// CEL equality on the (null-pruned) JSON: map keys in any order, lists in order.
bool CelEqual(const Node& a, const Node& b) {
  if (a.is_map() && b.is_map()) {
    size_t present = 0;
    KeyIndex b_keys(b);
    for (const MapEntry& e : a.entries) {
      if (e.value.is_null()) continue;
      ++present;
      const Node* other = b_keys.Find(e.key);
      if (other && other->is_null()) other = nullptr;
      if (!other || !CelEqual(e.value, *other)) return false;
    }
    size_t other_present = 0;
    for (const MapEntry& e : b.entries) other_present += e.value.is_null() ? 0 : 1;
    return present == other_present;
  }
  if (a.is_seq() && b.is_seq()) {
    if (a.items.size() != b.items.size()) return false;
    for (size_t i = 0; i < a.items.size(); ++i) {
      if (!CelEqual(a.items[i], b.items[i])) return false;
    }
    return true;
  }
  return a == b;
}

// CEL equality of an x-kubernetes-list-type=map list: element order does not matter; items are
// matched by their key.
bool CelMapListEqual(const Node& a, const Node& b, std::string_view key) {
  if (!a.is_seq() || !b.is_seq()) return CelEqual(a, b);
  if (a.items.size() != b.items.size()) return false;
  // The first item of `b` under each key, so that pairing n items costs O(n), not O(n^2).
  std::unordered_map<std::string, const Node*> b_by_key;
  for (const Node& other : b.items) {
    if (const Node* ok = FindPresent(&other, key)) b_by_key.emplace(CanonicalKey(*ok), &other);
  }
  for (const Node& item : a.items) {
    const Node* k = FindPresent(&item, key);
    if (!k) return CelEqual(a, b);  // Not keyed after all: compare in order.
    auto other = b_by_key.find(CanonicalKey(*k));
    if (other == b_by_key.end() || !CelEqual(item, *other->second)) return false;
  }
  return true;
}

// Go's zero values as they appear in JSON: absent, null, [], {} (recursively).
bool IsVacant(const Node* n) {
  if (!n || n->is_null()) return true;
  if (n->is_seq()) return n->items.empty();
  if (n->is_map()) {
    for (const MapEntry& e : n->entries) {
      if (!IsVacant(&e.value)) return false;
    }
    return true;
  }
  return false;
}

// apimachinery's Semantic.DeepEqual, approximated on JSON (see the header).
bool SemanticEqual(const Node* a, const Node* b) {
  bool va = IsVacant(a), vb = IsVacant(b);
  if (va || vb) return va && vb;
  if (a->is_map() && b->is_map()) {
    KeyIndex a_keys(*a), b_keys(*b);
    for (const MapEntry& e : a->entries) {
      if (!SemanticEqual(&e.value, b_keys.Find(e.key))) return false;
    }
    for (const MapEntry& e : b->entries) {
      if (!a_keys.Find(e.key) && !IsVacant(&e.value)) return false;
    }
    return true;
  }
  if (a->is_seq() && b->is_seq()) {
    if (a->items.size() != b->items.size()) return false;
    for (size_t i = 0; i < a->items.size(); ++i) {
      if (!SemanticEqual(&a->items[i], &b->items[i])) return false;
    }
    return true;
  }
  return *a == *b;
}

// Nil-aware comparison of two optional values (Go's ptr.Equal).
bool OptionalEqual(const Node* a, const Node* b) {
  if (!a || !b) return !a && !b;
  return *a == *b;
}

// --- Masking -----------------------------------------------------------------------------------

void Erase(Node* map, std::string_view key) {
  if (!map || !map->is_map()) return;
  for (auto it = map->entries.begin(); it != map->entries.end(); ++it) {
    if (it->key == key) {
      map->entries.erase(it);
      return;
    }
  }
}

// Makes `dst` hold at `keys` what `src` holds there (Go: munged.X = old.X), creating the
// mappings on the way, or dropping the field when `src` has none.
void CopyFrom(const Node& src, Node* dst, std::initializer_list<std::string_view> keys) {
  const Node* value = &src;
  for (std::string_view k : keys) value = FindPresent(value, k);
  Node* at = dst;
  size_t depth = 0;
  for (std::string_view k : keys) {
    if (!at->is_map()) return;  // Malformed: the schema check reports it.
    if (++depth == keys.size()) {
      if (value) {
        at->Set(k, *value);
      } else {
        Erase(at, k);
      }
      return;
    }
    Node* next = at->Find(k);
    if (!next || next->is_null()) {
      if (!value) return;  // Nothing to copy and nothing to drop.
      next = &at->Set(k, Node::Map());
    }
    at = next;
  }
}

bool Suspended(const Node* spec) {
  const Node* s = FindPresent(spec, "suspend");
  return s && s->is_bool() && s->boolean;
}

std::string Int(const Node& n) { return n.is_int() ? std::to_string(n.integer) : RenderValue(n); }

}  // namespace

std::vector<Finding> ValidateTransitionRules(const Node& old_object, const Node& new_object) {
  std::vector<Finding> out;
  FindingSink sink(new_object, &out);
  const Node* old_spec = FindPresent(&old_object, "spec");
  const Node* new_spec = FindPresent(&new_object, "spec");
  auto check = [&](std::string_view key, std::string_view type) {
    const Node* o = FindPresent(old_spec, key);
    const Node* n = FindPresent(new_spec, key);
    if (o && n && !CelEqual(*o, *n)) {
      sink.Field(kUpdateImmutable, "spec." + std::string(key), "Invalid value", GoQuote(type),
                 kImmutable);
    }
  };
  // The CRD's property order.
  check("failurePolicy", "object");
  check("network", "object");
  const Node* old_rjs = FindPresent(old_spec, "replicatedJobs");
  const Node* new_rjs = FindPresent(new_spec, "replicatedJobs");
  if (old_rjs && new_rjs && old_rjs->is_seq() && new_rjs->is_seq()) {
    // replicatedJobs is a list-type=map keyed by name: CEL pairs each new item with the old
    // item of the same name (the last one, should names repeat), found through a hash map so
    // that n items cost O(n).
    std::unordered_map<std::string, const Node*> old_by_name;
    for (const Node& o : old_rjs->items) {
      if (const Node* old_name = FindPresent(&o, "name")) old_by_name[CanonicalKey(*old_name)] = &o;
    }
    for (size_t i = 0; i < new_rjs->items.size(); ++i) {
      const Node& item = new_rjs->items[i];
      const Node* name = FindPresent(&item, "name");
      if (!name) continue;
      auto found = old_by_name.find(CanonicalKey(*name));
      const Node* old_item = found == old_by_name.end() ? nullptr : found->second;
      const Node* o = FindPresent(old_item, "dependsOn");
      const Node* n = FindPresent(&item, "dependsOn");
      if (o && n && !CelMapListEqual(*o, *n, "name")) {
        sink.Field(kUpdateImmutable, Index(kRJobs, i) + ".dependsOn", "Invalid value",
                   GoQuote("array"), kImmutable);
      }
    }
  }
  check("startupPolicy", "object");
  check("successPolicy", "object");
  check("volumeClaimPolicies", "array");
  return out;
}

std::vector<Finding> ValidateWebhookUpdate(const Node& old_object, const Node& new_object,
                                           const FeatureGates& gates) {
  std::vector<Finding> out;
  FindingSink sink(new_object, &out);
  const Node* old_spec = FindPresent(&old_object, "spec");
  const Node* new_spec = FindPresent(&new_object, "spec");
  const Node* old_rjs = FindPresent(old_spec, "replicatedJobs");
  const Node* new_rjs = FindPresent(new_spec, "replicatedJobs");

  // Step 1: a copy of the new list to mask, and the old replicated jobs by name.
  Node munged = new_rjs ? *new_rjs : Node();
  std::unordered_map<std::string, const Node*> old_by_name;
  if (old_rjs && old_rjs->is_seq()) {
    for (const Node& rj : old_rjs->items) {
      if (const Node* name = FindPresent(&rj, "name"); name && name->is_string()) {
        old_by_name[name->text] = &rj;  // Later duplicates win, as in Go's map.
      }
    }
  }
  auto old_for = [&](const Node& rj) -> const Node* {
    const Node* name = FindPresent(&rj, "name");
    if (!name || !name->is_string()) return nullptr;
    auto it = old_by_name.find(name->text);
    return it == old_by_name.end() ? nullptr : it->second;
  };
  const bool listed = munged.is_seq();

  // Step 2: elastic parallelism and completions of Indexed jobs.
  if (gates.elastic_jobset && listed) {
    const bool terminal =
        TrueCondition(old_object, "Completed") || TrueCondition(old_object, "Failed");
    for (size_t i = 0; i < new_rjs->items.size(); ++i) {
      const Node& rj = new_rjs->items[i];
      const Node* old_rj = old_for(rj);
      if (!old_rj) continue;  // A new replicated job: step 4 reports it.
      const Node* job_spec = FindPresentPath(&rj, {"template", "spec"});
      const Node* old_job_spec = FindPresentPath(old_rj, {"template", "spec"});
      const Node* mode = FindPresent(job_spec, "completionMode");
      if (!mode || !mode->is_string() || mode->text != "Indexed") continue;
      const Node* p = FindPresent(job_spec, "parallelism");
      const Node* c = FindPresent(job_spec, "completions");
      const bool p_changed = !OptionalEqual(p, FindPresent(old_job_spec, "parallelism"));
      const bool c_changed = !OptionalEqual(c, FindPresent(old_job_spec, "completions"));
      const std::string path = Index(kRJobs, i) + ".template.spec";
      if (p_changed || c_changed) {
        if (terminal) {
          sink.Field(kUpdateElasticTerminal, path, "Forbidden", "",
                     "Cannot mutate parallelism or completions when JobSet is in a terminal "
                     "state (Completed or Failed)");
        } else {
          if (p_changed && p && p->is_int() && p->integer < 1) {
            sink.Field(kUpdateElasticParallelism, path + ".parallelism", "Invalid value", Int(*p),
                       "parallelism must be >= 1");
          }
          if (c_changed && c && c->is_int() && c->integer < 1) {
            sink.Field(kUpdateElasticCompletions, path + ".completions", "Invalid value", Int(*c),
                       "completions must be >= 1");
          }
          if (p && c && !(*p == *c)) {
            sink.Field(kUpdateElasticCompletions, path + ".completions", "Invalid value", Int(*c),
                       "completions must be equal to parallelism for Elastic Indexed Jobs");
          }
        }
      }
      // Mask them, changed or not, so that step 4 does not see them.
      CopyFrom(*old_rj, &munged.items[i], {"template", "spec", "parallelism"});
      CopyFrom(*old_rj, &munged.items[i], {"template", "spec", "completions"});
    }
  }

  // Step 3: the scheduling fields of the pod template are mutable while suspended (Kueue).
  if (listed && (Suspended(old_spec) || Suspended(new_spec))) {
    for (size_t i = 0; i < new_rjs->items.size(); ++i) {
      const Node* old_rj = old_for(new_rjs->items[i]);
      if (!old_rj) continue;
      Node* m = &munged.items[i];
      CopyFrom(*old_rj, m, {"template", "spec", "template", "metadata", "annotations"});
      CopyFrom(*old_rj, m, {"template", "spec", "template", "metadata", "labels"});
      CopyFrom(*old_rj, m, {"template", "spec", "template", "spec", "nodeSelector"});
      CopyFrom(*old_rj, m, {"template", "spec", "template", "spec", "tolerations"});
      CopyFrom(*old_rj, m, {"template", "spec", "template", "spec", "schedulingGates"});
    }
  }

  // Step 4: everything else under replicatedJobs is immutable.
  if (!SemanticEqual(&munged, old_rjs)) {
    sink.Field(kUpdateReplicatedJobsImmutable, kRJobs, "Invalid value", CompactJson(munged),
               kFieldImmutable);
  }

  // Step 5: managedBy is immutable.
  const Node* managed_by = FindPresent(new_spec, "managedBy");
  if (!OptionalEqual(managed_by, FindPresent(old_spec, "managedBy"))) {
    sink.Field(kUpdateManagedByImmutable, "spec.managedBy", "Invalid value",
               managed_by ? RenderValue(*managed_by) : "null", kFieldImmutable);
  }
  return out;
}

std::vector<Finding> ValidateUpdate(const Node& old_object, const Node& new_object,
                                    const FeatureGates& gates) {
  Node old_defaulted = old_object, new_defaulted = new_object;
  std::vector<PatchOp> ignored;
  ApplyCrdDefaults(&old_defaulted, &ignored);
  ApplyCrdDefaults(&new_defaulted, &ignored);
  std::vector<Finding> findings = ValidateTransitionRules(old_defaulted, new_defaulted);
  if (!findings.empty()) return findings;
  return ValidateWebhookUpdate(old_defaulted, new_defaulted, gates);
}

std::vector<Finding> LintUpdate(const Node& old_object, const Node& new_object,
                                const FeatureGates& gates, const CompiledSchema* schema) {
  Node old_defaulted = old_object, new_defaulted = new_object;
  std::vector<PatchOp> ignored;
  ApplyCrdDefaults(&old_defaulted, &ignored);
  ApplyCrdDefaults(&new_defaulted, &ignored);
  std::vector<Finding> findings;
  if (schema) findings = ValidateSchema(*schema, new_defaulted);
  FindingSink sink(new_defaulted, &findings);
  ValidateApiServerRules(new_defaulted, &sink);
  for (Finding& f : ValidateTransitionRules(old_defaulted, new_defaulted)) {
    findings.push_back(std::move(f));
  }
  for (const Finding& f : findings) {
    if (f.severity == Severity::kError) return findings;
  }
  for (Finding& f : ValidateWebhookUpdate(old_defaulted, new_defaulted, gates)) {
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace jobset
