#include "validation/k8s/pod_scheduling.h"

#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"
#include "validation/k8s/rules.h"

namespace jobset::pod {
namespace {

// IsValidLabelValue on each string of `values`.
void LabelValues(PodCheck& pc, const Node* values, const std::string& at, RuleId rule) {
  if (!values || !values->is_seq()) return;
  for (size_t i = 0; i < values->items.size(); ++i) {
    const Node& v = values->items[i];
    if (!v.is_string() || Skip(pc, v.text)) continue;
    for (const std::string& e : LabelValueErrors(v.text))
      Add(pc, rule, Index(at, i), kInvalid, GoQuote(v.text), e);
  }
}

// One requirement of a selector's matchExpressions: ValidateNodeSelectorRequirement when
// `numeric_operators` (Gt and Lt take one value), else metav1's
// ValidateLabelSelectorRequirement (Gt and Lt are not operators). The values are label values
// when `check_values`.
void SelectorRequirement(PodCheck& pc, const Node& rq, const std::string& path, RuleId rule,
                         bool numeric_operators, bool check_values) {
  if (!rq.is_map()) return;
  const Node* op_node = Str(rq, "operator");
  const std::string op = op_node ? op_node->text : "";
  const Node* values = Present(rq, "values");
  const size_t n = values && values->is_seq() ? values->items.size() : 0;
  if (op == "In" || op == "NotIn") {
    if (n == 0) {
      Add(pc, rule, path + ".values", kRequired, "",
          "must be specified when `operator` is 'In' or 'NotIn'", PointAt::kKey);
    }
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (n > 0) {
      Add(pc, rule, path + ".values", "Forbidden", "",
          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", PointAt::kKey);
    }
  } else if (numeric_operators && (op == "Gt" || op == "Lt")) {
    if (n != 1) {
      Add(pc, rule, path + ".values", kRequired, "",
          "must be specified single value when `operator` is 'Lt' or 'Gt'", PointAt::kKey);
    }
  } else {
    Add(pc, rule, path + ".operator", kInvalid, GoQuote(op), "not a valid selector operator",
        op_node ? PointAt::kValue : PointAt::kKey);
  }
  const Node* key = Str(rq, "key");
  if (key && !Skip(pc, key->text)) {
    for (const std::string& e : QualifiedNameErrors(key->text))
      Add(pc, rule, path + ".key", kInvalid, GoQuote(key->text), e);
  }
  if (check_values) LabelValues(pc, values, path + ".values", rule);
}

// metav1 validation ValidateLabelSelector: matchExpressions
// (ValidateLabelSelectorRequirement), then matchLabels (ValidateLabels).
void LabelSelector(PodCheck& pc, const Node& s, const std::string& at, RuleId rule) {
  if (const Node* exprs = Present(s, "matchExpressions"); exprs && exprs->is_seq()) {
    for (size_t j = 0; j < exprs->items.size(); ++j) {
      SelectorRequirement(pc, exprs->items[j], Index(at + ".matchExpressions", j), rule,
                          /*numeric_operators=*/false, /*check_values=*/true);
    }
  }
  if (const Node* labels = Present(s, "matchLabels"); labels && labels->is_map()) {
    const std::string path = at + ".matchLabels";
    Labels(pc, *labels, rule, path, path);
  }
}

// A preferred term's weight, 1 to 100.
void Weight(PodCheck& pc, const Node& term, const std::string& at, RuleId rule) {
  if (const Node* w = Int(term, "weight"); w && (w->integer <= 0 || w->integer > 100)) {
    Add(pc, rule, at + ".weight", kInvalid, std::to_string(w->integer),
        "must be in the range 1-100");
  }
}

// ValidateNodeSelectorTerm: matchExpressions (ValidateNodeSelectorRequirement) and matchFields
// (ValidateNodeFieldSelectorRequirement).
void NodeSelectorTerm(PodCheck& pc, const Node& term, const std::string& at,
                      bool allow_invalid_values) {
  if (!term.is_map()) return;
  if (const Node* exprs = Present(term, "matchExpressions"); exprs && exprs->is_seq()) {
    for (size_t j = 0; j < exprs->items.size(); ++j) {
      SelectorRequirement(pc, exprs->items[j], Index(at + ".matchExpressions", j),
                          kChildNodeAffinity,
                          /*numeric_operators=*/true, /*check_values=*/!allow_invalid_values);
    }
  }
  if (const Node* fields = Present(term, "matchFields"); fields && fields->is_seq()) {
    for (size_t j = 0; j < fields->items.size(); ++j) {
      const Node& rq = fields->items[j];
      if (!rq.is_map()) continue;
      const std::string path = Index(at + ".matchFields", j);
      const Node* op_node = Str(rq, "operator");
      const std::string op = op_node ? op_node->text : "";
      const Node* values = Present(rq, "values");
      const size_t n = values && values->is_seq() ? values->items.size() : 0;
      if (op == "In" || op == "NotIn") {
        if (n != 1) {
          Add(pc, kChildNodeAffinity, path + ".values", kRequired, "",
              "must be only one value when `operator` is 'In' or 'NotIn' for node field "
              "selector",
              PointAt::kKey);
        }
      } else {
        Add(pc, kChildNodeAffinity, path + ".operator", kInvalid, GoQuote(op),
            "not a valid selector operator", op_node ? PointAt::kValue : PointAt::kKey);
      }
      const Node* key = Str(rq, "key");
      const std::string k = key ? key->text : "";
      if (k != "metadata.name") {
        Add(pc, kChildNodeAffinity, path + ".key", kInvalid, GoQuote(k),
            "not a valid field selector key", key ? PointAt::kValue : PointAt::kKey);
      } else if (n > 0) {
        for (size_t i = 0; i < n; ++i) {
          const Node& v = values->items[i];
          if (!v.is_string() || Skip(pc, v.text)) continue;
          for (const std::string& e : DNS1123SubdomainErrors(v.text))
            Add(pc, kChildNodeAffinity, Index(path + ".values", i), kInvalid, GoQuote(v.text), e);
        }
      }
    }
  }
}

// validatePodAffinityTerm: the label and namespace selectors (ValidateLabelSelector), the
// namespaces, and the topologyKey.
void PodAffinityTerm(PodCheck& pc, const Node& term, const std::string& at) {
  if (!term.is_map()) return;
  for (const char* selector : {"labelSelector", "namespaceSelector"}) {
    if (const Node* s = Present(term, selector); s && s->is_map())
      LabelSelector(pc, *s, at + "." + selector, kChildPodAffinity);
  }
  if (const Node* namespaces = Present(term, "namespaces"); namespaces && namespaces->is_seq()) {
    for (const Node& ns : namespaces->items) {
      if (!ns.is_string() || Skip(pc, ns.text)) continue;
      for (const std::string& e : DNS1123LabelErrors(ns.text))
        Add(pc, kChildPodAffinity, at + ".namespace", kInvalid, GoQuote(ns.text), e,
            PointAt::kValue, at + ".namespaces");
    }
  }
  const Node* key = Present(term, "topologyKey");
  if (key && !key->is_string()) return;  // The schema reports the type.
  const std::string k = key ? key->text : "";
  if (Skip(pc, k)) return;
  const PointAt point = key ? PointAt::kValue : PointAt::kKey;
  if (k.empty()) {
    Add(pc, kChildPodAffinity, at + ".topologyKey", kRequired, "", "can not be empty", point);
  }
  for (const std::string& e : QualifiedNameErrors(k))
    Add(pc, kChildPodAffinity, at + ".topologyKey", kInvalid, GoQuote(k), e, point);
}

// ValidateTolerations.
void Toleration(PodCheck& pc, const Node& t, const std::string& at) {
  if (!t.is_map()) return;
  const Node* key_node = Str(t, "key");
  const Node* op_node = Str(t, "operator");
  const Node* value_node = Str(t, "value");
  const Node* effect_node = Str(t, "effect");
  const std::string key = key_node ? key_node->text : "";
  const std::string op = op_node ? op_node->text : "";
  const std::string value = value_node ? value_node->text : "";
  const std::string effect = effect_node ? effect_node->text : "";
  if (!key.empty() && !Skip(pc, key)) {
    for (const std::string& e : QualifiedNameErrors(key))
      Add(pc, kChildToleration, at + ".key", kInvalid, GoQuote(key), e);
  }
  if (key.empty() && op != "Exists") {
    Add(pc, kChildToleration, at + ".operator", kInvalid, GoQuote(op),
        "operator must be Exists when `key` is empty, which means \"match all values and all "
        "keys\"",
        op_node ? PointAt::kValue : PointAt::kKey);
  }
  const Node* seconds = Present(t, "tolerationSeconds");
  if (seconds && effect != "NoExecute") {
    Add(pc, kChildToleration, at + ".effect", kInvalid, GoQuote(effect),
        "effect must be 'NoExecute' when `tolerationSeconds` is set",
        effect_node ? PointAt::kValue : PointAt::kKey);
  }
  if (op.empty() || op == "Equal") {
    if (!Skip(pc, value)) {
      std::vector<std::string> errs = LabelValueErrors(value);
      std::string joined;
      for (size_t i = 0; i < errs.size(); ++i) joined += (i ? ";" : "") + errs[i];
      if (!errs.empty()) {
        Add(pc, kChildToleration, at + ".operator", kInvalid, GoQuote(value), joined,
            op_node ? PointAt::kValue : PointAt::kKey);
      }
    }
  } else if (op == "Exists") {
    if (!value.empty()) {
      // The whole toleration, as JSON in the field order of core.Toleration.
      std::string json = "{";
      auto field = [&](const char* name, const std::string& v) {
        if (v.empty()) return;
        json += (json.size() > 1 ? "," : "") + std::string("\"") + name + "\":" + GoQuote(v);
      };
      field("key", key);
      field("operator", op);
      field("value", value);
      field("effect", effect);
      if (seconds && seconds->is_int()) {
        json += (json.size() > 1 ? "," : "") + std::string("\"tolerationSeconds\":") +
                std::to_string(seconds->integer);
      }
      json += "}";
      Add(pc, kChildToleration, at + ".operator", kInvalid, json,
          "value must be empty when `operator` is 'Exists'");
    }
  } else {
    Add(pc, kChildToleration, at + ".operator", kUnsupported, GoQuote(op),
        Supported({"Equal", "Exists"}));
  }
  if (!effect.empty() && !OneOf(effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"})) {
    Add(pc, kChildToleration, at + ".effect", kUnsupported, GoQuote(effect),
        Supported({"NoSchedule", "PreferNoSchedule", "NoExecute"}));
  }
}

}  // namespace

// ValidateLabels on spec.nodeSelector: errors name the map, and point at the entry.
void NodeSelector(PodCheck& pc, const Node& spec) {
  const Node* ns = Present(spec, "nodeSelector");
  if (!ns || !ns->is_map()) return;
  Labels(pc, *ns, kChildNodeSelector, "spec.nodeSelector", "spec.nodeSelector");
}

// validateAffinity: node affinity, pod affinity, pod anti-affinity.
void Affinity(PodCheck& pc, const Node& affinity) {
  const std::string at = "spec.affinity";
  if (const Node* na = Present(affinity, "nodeAffinity"); na && na->is_map()) {
    const std::string path = at + ".nodeAffinity";
    if (const Node* req = Present(*na, "requiredDuringSchedulingIgnoredDuringExecution");
        req && req->is_map()) {
      // ValidateNodeSelector.
      const std::string terms_path =
          path + ".requiredDuringSchedulingIgnoredDuringExecution" + ".nodeSelectorTerms";
      const Node* terms = Present(*req, "nodeSelectorTerms");
      if (!terms || (terms->is_seq() && terms->items.empty())) {
        Add(pc, kChildNodeAffinity, terms_path, kRequired, "",
            "must have at least one node selector term", PointAt::kKey);
      } else if (terms->is_seq()) {
        for (size_t i = 0; i < terms->items.size(); ++i)
          NodeSelectorTerm(pc, terms->items[i], Index(terms_path, i), false);
      }
    }
    if (const Node* pref = Present(*na, "preferredDuringSchedulingIgnoredDuringExecution");
        pref && pref->is_seq()) {
      // ValidatePreferredSchedulingTerms: invalid label values are allowed here.
      const std::string pref_path = path + ".preferredDuringSchedulingIgnoredDuringExecution";
      for (size_t i = 0; i < pref->items.size(); ++i) {
        const Node& term = pref->items[i];
        Weight(pc, term, Index(pref_path, i), kChildNodeAffinity);
        if (const Node* p = Present(term, "preference"); p && p->is_map())
          NodeSelectorTerm(pc, *p, Index(pref_path, i) + ".preference", true);
      }
    }
  }
  for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
    const Node* pa = Present(affinity, kind);
    if (!pa || !pa->is_map()) continue;
    const std::string path = at + "." + kind;
    if (const Node* req = Present(*pa, "requiredDuringSchedulingIgnoredDuringExecution");
        req && req->is_seq()) {
      for (size_t i = 0; i < req->items.size(); ++i) {
        PodAffinityTerm(pc, req->items[i],
                        Index(path + ".requiredDuringSchedulingIgnoredDuringExecution", i));
      }
    }
    if (const Node* pref = Present(*pa, "preferredDuringSchedulingIgnoredDuringExecution");
        pref && pref->is_seq()) {
      for (size_t i = 0; i < pref->items.size(); ++i) {
        const std::string term_path =
            Index(path + ".preferredDuringSchedulingIgnoredDuringExecution", i);
        Weight(pc, pref->items[i], term_path, kChildPodAffinity);
        if (const Node* t = Present(pref->items[i], "podAffinityTerm"); t && t->is_map())
          PodAffinityTerm(pc, *t, term_path + ".podAffinityTerm");
      }
    }
  }
}

// validateTopologySpreadConstraints (without matchLabelKeys, whose rules depend on feature
// gates).
void TopologySpread(PodCheck& pc, const Node& spec) {
  const Node* tscs = Present(spec, "topologySpreadConstraints");
  if (!tscs || !tscs->is_seq()) return;
  for (size_t i = 0; i < tscs->items.size(); ++i) {
    const Node& c = tscs->items[i];
    if (!c.is_map()) continue;
    const std::string at = Index("spec.topologySpreadConstraints", i);
    if (const Node* skew = Int(c, "maxSkew"); skew && skew->integer <= 0) {
      Add(pc, kChildTopologySpread, at + ".maxSkew", kInvalid, std::to_string(skew->integer),
          "must be greater than zero");
    }
    const Node* key = Str(c, "topologyKey");
    if (key && key->text.empty()) {
      Add(pc, kChildTopologySpread, at + ".topologyKey", kRequired, "", "can not be empty");
    }
    const Node* when = Str(c, "whenUnsatisfiable");
    const std::string w = when ? when->text : "";
    if (when && !OneOf(w, {"DoNotSchedule", "ScheduleAnyway"})) {
      Add(pc, kChildTopologySpread, at + ".whenUnsatisfiable", kUnsupported, GoQuote(w),
          Supported({"DoNotSchedule", "ScheduleAnyway"}));
    }
    // ValidateSpreadConstraintNotRepeat: the first of a repeated pair is reported. The JobSet
    // CRD keys the list by the pair, and rejects the repeat itself.
    for (size_t j = i + 1; key && when && pc.options.duplicates && j < tscs->items.size(); ++j) {
      const Node* k2 = Str(tscs->items[j], "topologyKey");
      const Node* w2 = Str(tscs->items[j], "whenUnsatisfiable");
      if (k2 && w2 && k2->text == key->text && w2->text == w) {
        Add(pc, kChildTopologySpread, at + ".{topologyKey, whenUnsatisfiable}", kDuplicate,
            GoQuote("{" + key->text + ", " + w + "}"), "", PointAt::kValue, at);
        break;
      }
    }
    if (const Node* min = Int(c, "minDomains")) {
      if (min->integer <= 0) {
        Add(pc, kChildTopologySpread, at + ".minDomains", kInvalid, std::to_string(min->integer),
            "must be greater than zero");
      }
      if (w != "DoNotSchedule") {
        Add(pc, kChildTopologySpread, at + ".minDomains", kInvalid, std::to_string(min->integer),
            "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + w);
      }
    }
    for (const char* policy : {"nodeAffinityPolicy", "nodeTaintsPolicy"}) {
      if (const Node* p = Str(c, policy); p && !OneOf(p->text, {"Honor", "Ignore"})) {
        Add(pc, kChildTopologySpread, at + "." + policy, kUnsupported, GoQuote(p->text),
            Supported({"Honor", "Ignore"}));
      }
    }
    if (const Node* sel = Present(c, "labelSelector"); sel && sel->is_map())
      LabelSelector(pc, *sel, at + ".labelSelector", kChildTopologySpread);
  }
}

// ValidateTolerations on spec.tolerations.
void Tolerations(PodCheck& pc, const Node& spec) {
  if (const Node* ts = Present(spec, "tolerations"); ts && ts->is_seq()) {
    for (size_t k = 0; k < ts->items.size(); ++k)
      Toleration(pc, ts->items[k], Index("spec.tolerations", k));
  }
}

}  // namespace jobset::pod
