#include "validation/volcano/validation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "validation/core/field_path.h"
#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"
#include "validation/k8s/pod_template.h"
#include "validation/volcano/defaults.h"
#include "validation/volcano/rules.h"

namespace jobset {
namespace {

// "[a b]", as Go's %v prints a []string.
std::string GoList(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + v[i];
  return s + "]";
}

// Adds an error finding: `upstream` is the fragment upstream appends; the message for people
// is the fragment without its surrounding spaces and trailing ';'.
void Error(const Node& object, std::vector<Finding>* out, RuleId rule, std::string_view locate,
           std::string upstream, PointAt at = PointAt::kValue) {
  Finding f;
  f.rule = std::string(rule.id);
  f.severity = Severity::kError;
  f.field = std::string(locate);
  f.message = std::string(Trim(upstream, " \t\n"));
  if (!f.message.empty() && f.message.back() == ';')
    f.message = std::string(Trim(f.message.substr(0, f.message.size() - 1), " \t\n"));
  f.upstream = std::move(upstream);
  f.mark = Locate(object, locate, at);
  out->push_back(std::move(f));
}

// --- Policies
// (validatePolicies)--------------------------------------------------------------------------

// The events of one policy: `events` then `event`, duplicates removed; with where each is.
std::vector<std::pair<std::string, std::string>> PolicyEvents(const Node& policy,
                                                              const std::string& at) {
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](const std::string& e, const std::string& where) {
    for (const auto& [seen, w] : out) {
      if (seen == e) return;
    }
    out.emplace_back(e, where);
  };
  if (const Node* events = policy.Find("events"); events && events->is_seq()) {
    for (size_t k = 0; k < events->items.size(); ++k) {
      // An empty string still counts (and is refused); only `event: ""` means "not set".
      if (events->items[k].is_string()) add(events->items[k].text, Index(Child(at, "events"), k));
    }
  }
  std::string event = TextOf(policy.Find("event"));
  if (!event.empty()) add(event, Child(at, "event"));
  return out;
}

// validatePolicies for one list; `shown` is the path upstream prints ("spec.policies" or
// "spec.tasks.policies"), `base` the real one.
void ValidatePolicies(const Node& object, const Node* policies, const std::string& base,
                      const std::string& shown, std::vector<Finding>* out) {
  if (!policies || !policies->is_seq()) return;
  struct Err {
    RuleId rule;
    std::string locate, text;
  };
  std::vector<Err> errs;
  std::vector<std::string> events_seen;  // in order, for the `*` check
  std::set<int64_t> codes_seen;
  std::string star_at;
  for (size_t i = 0; i < policies->items.size() && errs.empty(); ++i) {
    const Node& p = policies->items[i];
    std::string at = Index(base, i);
    auto events = PolicyEvents(p, at);
    const Node* code = p.Find("exitCode");
    bool has_code = code && !code->is_null();
    if (!events.empty() && has_code) {
      errs.push_back(
          {kVolcanoPolicyEventExitCode, at, "must not specify event and exitCode simultaneously"});
      break;
    }
    if (events.empty() && !has_code) {
      errs.push_back(
          {kVolcanoPolicyEventExitCode, at, "either event and exitCode should be specified"});
      break;
    }
    if (!events.empty()) {
      std::string action = TextOf(p.Find("action"));
      for (const auto& [event, where] : events) {
        if (!Contains(VolcanoPolicyEvents(), event)) {
          errs.push_back({kVolcanoPolicyEvent, where,
                          shown + ": Invalid value: " + GoQuote(event) + ": invalid policy event"});
          break;
        }
        if (!Contains(VolcanoPolicyActions(), action)) {
          errs.push_back(
              {kVolcanoPolicyAction, Child(at, "action"),
               shown + ": Invalid value: " + GoQuote(action) + ": invalid policy action"});
          break;
        }
        if (Contains(events_seen, event)) {
          errs.push_back({kVolcanoDuplicatePolicy, where,
                          "duplicate event " + event + "  across different policy"});
          break;
        }
        events_seen.push_back(event);
        if (event == "*" && star_at.empty()) star_at = where;
      }
    } else if (code->is_int()) {
      if (code->integer == 0) {
        errs.push_back(
            {kVolcanoExitCodeZero, Child(at, "exitCode"), "0 is not a valid error code"});
      } else if (!codes_seen.insert(code->integer).second) {
        errs.push_back({kVolcanoDuplicatePolicy, Child(at, "exitCode"),
                        "duplicate exitCode " + std::to_string(code->integer)});
      }
    }
  }
  if (!star_at.empty() && events_seen.size() > 1) {
    errs.push_back(
        {kVolcanoWildcardEvent, star_at, "if there's * here, no other policy should be here"});
  }
  if (errs.empty()) return;
  // hashicorp/go-multierror's text, then upstream's lists (Go map order upstream; ours fixed).
  std::string text =
      std::to_string(errs.size()) + (errs.size() == 1 ? " error" : " errors") + " occurred:\n";
  for (const Err& e : errs) text += "\t* " + e.text + "\n";
  text += "\n valid events are " + GoList(VolcanoPolicyEvents()) + ", valid actions are " +
          GoList(VolcanoPolicyActions()) + ";";
  // One fragment for the list: the first finding carries it, a second one adds nothing.
  for (size_t k = 0; k < errs.size(); ++k) {
    Error(object, out, errs[k].rule, errs[k].locate, k == 0 ? text : "");
    out->back().message = errs[k].text;
  }
}

// --- Tasks ----------------------------------------------------------------------------------

bool BothTiers(const Node* nt) {
  return nt && nt->is_map() && nt->Find("highestTierAllowed") &&
         !nt->Find("highestTierAllowed")->is_null() && nt->Find("highestTierName") &&
         !nt->Find("highestTierName")->is_null();
}

constexpr char kBothTiers[] =
    "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
    "simultaneously";

// The partition policy check, first failing branch only, then its network topology.
void ValidatePartition(const Node& object, const Node& task, const std::string& at,
                       const std::string& job, std::vector<Finding>* out) {
  const Node* pp = task.Find("partitionPolicy");
  if (!pp || !pp->is_map()) return;
  std::string where = Child(at, "partitionPolicy");
  std::string in = " in task: " + TextOf(task.Find("name")) + ", job: " + job;
  int64_t total = IntOr(pp->Find("totalPartitions"), 0);
  int64_t size = IntOr(pp->Find("partitionSize"), 0);
  int64_t min_parts = IntOr(pp->Find("minPartitions"), 0);
  const Node* min = task.Find("minAvailable");
  if (total <= 0) {
    Error(object, out, kVolcanoPartitionPolicy, Child(where, "totalPartitions"),
          "'TotalPartitions' must be greater than 0" + in);
  } else if (size <= 0) {
    Error(object, out, kVolcanoPartitionPolicy, Child(where, "partitionSize"),
          "'PartitionSize' must be greater than 0" + in);
  } else if (IntOr(task.Find("replicas"), 0) != total * size) {
    Error(object, out, kVolcanoPartitionPolicy, Child(at, "replicas"),
          "'Replicas' are not equal to TotalPartitions*PartitionSize" + in);
  } else if (min && min->is_int() && min_parts > 0 && min_parts * size != IntOr(min, 0)) {
    Error(object, out, kVolcanoPartitionPolicy, Child(at, "minAvailable"),
          "'MinAvailable' is not equal to MinPartitions*PartitionSize" + in);
  }
  if (BothTiers(pp->Find("networkTopology"))) {
    Error(object, out, kVolcanoNetworkTopologyTiers, Child(where, "networkTopology"), kBothTiers);
  }
}

// Kubernetes' ValidatePodTemplate as the webhook runs it on each task template, in the
// subset validation/k8s/pod_template.h implements (containers, names, images, pull policies,
// ports, env names, volumes and mounts, probes, restart and DNS policy, tolerations), with the
// webhook's feature gates off (env names follow the legacy rule). Upstream's fragment is
// "spec.task[<i>]." followed by each error and ". "; the first finding carries the whole fragment.
// True when it found errors.
bool ValidatePodTemplate(const Node& object, const Node& task, const std::string& at, size_t index,
                         std::vector<Finding>* out) {
  const Node* tmpl = task.Find("template");
  if (!tmpl || !tmpl->is_map()) return false;
  PodTemplateOptions options;
  options.legacy_env_names = true;
  options.zero_sleep = false;
  std::vector<std::pair<std::string, std::string>> errs;  // (where, "<path>: <error>")
  for (const FieldError& e : ValidatePodTemplateSpec(*tmpl, options))
    errs.emplace_back("template." + e.Where(), "template." + e.Text());
  std::string prefix = "spec.task[" + std::to_string(index) + "].";
  std::string fragment = prefix;
  for (const auto& [where, text] : errs) fragment += text + ". ";
  for (size_t k = 0; k < errs.size(); ++k) {
    Error(object, out, kVolcanoPodTemplate, Child(at, errs[k].first), k == 0 ? fragment : "");
    out->back().message = prefix + errs[k].second;
  }
  return !errs.empty();
}

// Whether a CPU quantity is a whole number of cores.
bool WholeCpu(const Node& q) {
  if (q.is_int()) return true;
  if (q.is_number()) return std::floor(q.number) == q.number;
  if (!q.is_string()) return true;
  std::string s = q.text;
  double scale = 1;
  if (!s.empty() && s.back() == 'm') {
    scale = 0.001;
    s.pop_back();
  } else if (!s.empty() && s.back() == 'k') {
    scale = 1000;
    s.pop_back();
  }
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return true;  // Not a quantity we read; the API server checks it.
  double cores = v * scale;
  return std::fabs(cores - std::round(cores)) < 1e-9;
}

void ValidateTopologyCpu(const Node& object, const Node& task, const std::string& at, size_t index,
                         std::vector<Finding>* out) {
  std::string policy = TextOf(task.Find("topologyPolicy"));
  if (policy.empty() || policy == "none") return;
  const Node* pod = FindPath(task, "template.spec");
  if (!pod) return;
  size_t k = 0;
  for (const char* list : {"containers", "initContainers"}) {
    const Node* cs = pod->Find(list);
    if (!cs || !cs->is_seq()) continue;
    for (size_t c = 0; c < cs->items.size(); ++c, ++k) {
      const Node* res = cs->items[c].Find("resources");
      const Node* req = res ? res->Find("requests") : nullptr;
      std::string which = "requests";
      if (!req || !req->is_map() || req->entries.empty()) {
        req = res ? res->Find("limits") : nullptr;
        which = "limits";
      }
      const Node* cpu = req && req->is_map() ? req->Find("cpu") : nullptr;
      if (cpu && !WholeCpu(*cpu)) {
        Error(object, out, kVolcanoTopologyCpu,
              Index(Child(Child(at, "template.spec"), list), c) + ".resources." + which + ".cpu",
              "the cpu request isn't an integer in spec.task[" + std::to_string(index) +
                  "] container[" + std::to_string(k) + "].");
        return;
      }
    }
  }
}

// Volumes: the first failure only.
void ValidateVolumes(const Node& object, const Node* volumes, std::vector<Finding>* out) {
  if (!volumes || !volumes->is_seq()) return;
  std::set<std::string> paths;
  for (size_t i = 0; i < volumes->items.size(); ++i) {
    const Node& v = volumes->items[i];
    std::string at = Index("spec.volumes", i);
    std::string path = TextOf(v.Find("mountPath"));
    const Node* claim = v.Find("volumeClaim");
    bool has_claim = claim && !claim->is_null();
    std::string name = TextOf(v.Find("volumeClaimName"));
    if (path.empty()) {
      return Error(object, out, kVolcanoVolume, Child(at, "mountPath"), " mountPath is required;");
    }
    if (!paths.insert(path).second) {
      return Error(object, out, kVolcanoVolume, Child(at, "mountPath"),
                   " duplicated mountPath: " + path + ";");
    }
    if (!has_claim && name.empty()) {
      return Error(object, out, kVolcanoVolume, at,
                   " either VolumeClaim or VolumeClaimName must be specified;");
    }
    if (!name.empty()) {
      if (has_claim) {
        return Error(object, out, kVolcanoVolume, Child(at, "volumeClaimName"),
                     "conflict: If you want to use an existing PVC, just specify "
                     "VolumeClaimName.If you want to create a new PVC, you do not need to "
                     "specify VolumeClaimName");
      }
      std::vector<std::string> errs = DNS1123SubdomainErrors(name);
      if (!errs.empty()) {
        return Error(object, out, kVolcanoVolume, Child(at, "volumeClaimName"),
                     "invalid VolumeClaimName " + name + " : " + GoList(errs));
      }
    }
  }
}

// Whether dependsOn forms a DAG, as upstream's topoSort decides it (a dependency on a task
// that does not exist never resolves, so it counts as a cycle).
bool IsDag(const Node* tasks) {
  std::map<std::string, std::map<std::string, bool>> graph;
  std::map<std::string, int> in_degree;
  size_t count = 0;
  for (const Node& t : tasks->items) {
    std::string name = TextOf(t.Find("name"));
    ++count;
    in_degree[name] = 0;
    const Node* deps = FindPath(t, "dependsOn.name");
    if (!deps || !deps->is_seq()) continue;
    for (const Node& d : deps->items) {
      graph[TextOf(&d)][name] = true;
      ++in_degree[name];
    }
  }
  std::vector<std::string> stack;
  for (const auto& [name, degree] : in_degree) {
    if (degree == 0) stack.push_back(name);
  }
  size_t sorted = 0;
  while (!stack.empty()) {
    std::string n = stack.back();
    stack.pop_back();
    ++sorted;
    for (auto& [next, connected] : graph[n]) {
      if (!connected) continue;
      connected = false;
      if (--in_degree[next] == 0) stack.push_back(next);
    }
  }
  return sorted == count;
}

std::string MpiMaster(const Node& args) {
  std::string master = "master";
  if (!args.is_seq()) return master;
  for (const Node& a : args.items) {
    std::string s = TextOf(&a);
    if (s.rfind("--master=", 0) == 0) master = s.substr(9);
  }
  return master;
}

// The exact value of a Kubernetes quantity as apimachinery's ParseQuantity reads it, as a
// canonical text "<sign><digits>e<exponent>" (no leading or trailing zero digit; "0" for zero),
// or nullopt when `s` is not a quantity. Grammar: optional sign, decimal number, then one of the
// binary suffixes Ki..Ei, the decimal ones n u m "" k M G T P E, or e/E and an int32 exponent.
// As ParseQuantity does, the value is rounded up (away from zero) to nano units and a value with
// a binary suffix is capped at 2^63-1. Exact: decimal digits, no floating point.
std::optional<std::string> CanonicalQuantity(std::string_view s) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  auto digits = [&] {
    size_t begin = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return s.substr(begin, i - begin);
  };
  std::string_view whole = digits(), frac;
  if (i < s.size() && s[i] == '.') {
    ++i;
    frac = digits();
  }
  if (whole.empty() && frac.empty()) return std::nullopt;
  const std::string_view suffix = s.substr(i);
  int64_t exp10 = -static_cast<int64_t>(frac.size());
  int binary = 0;  // The value is multiplied by 1024^binary.
  static constexpr std::pair<std::string_view, int> kSuffixes[] = {
      {"Ki", 1}, {"Mi", 2}, {"Gi", 3}, {"Ti", 4}, {"Pi", 5}, {"Ei", 6}, {"n", -9}, {"u", -6},
      {"m", -3}, {"", 0},   {"k", 3},  {"M", 6},  {"G", 9},  {"T", 12}, {"P", 15}, {"E", 18}};
  auto known = std::find_if(std::begin(kSuffixes), std::end(kSuffixes),
                            [&](const auto& k) { return k.first == suffix; });
  if (known != std::end(kSuffixes)) {
    if (known->first.size() == 2)
      binary = known->second;
    else
      exp10 += known->second;
  } else {
    if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) return std::nullopt;
    std::string_view e = suffix.substr(1);
    bool e_negative = false;
    if (e[0] == '+' || e[0] == '-') {
      e_negative = e[0] == '-';
      e.remove_prefix(1);
    }
    if (e.empty() || e.size() > 10 ||
        !std::all_of(e.begin(), e.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    int64_t v = std::stoll(std::string(e));
    if (v > int64_t{INT32_MAX} + (e_negative ? 1 : 0)) return std::nullopt;  // Not an int32.
    exp10 += e_negative ? -v : v;
  }
  std::string d = std::string(whole) + std::string(frac);
  for (int k = 0; k < binary; ++k) {  // d *= 1024
    int carry = 0;
    for (size_t j = d.size(); j-- > 0;) {
      int x = (d[j] - '0') * 1024 + carry;
      d[j] = static_cast<char>('0' + x % 10);
      carry = x / 10;
    }
    for (; carry; carry /= 10) d.insert(d.begin(), static_cast<char>('0' + carry % 10));
  }
  d.erase(0, std::min(d.find_first_not_of('0'), d.size()));
  if (d.empty()) return "0";
  if (exp10 < -9) {  // Round up to nano, away from zero.
    const uint64_t drop = static_cast<uint64_t>(-9 - exp10);
    if (drop >= d.size()) {
      d = "1";
    } else {
      bool lost = d.find_first_not_of('0', d.size() - drop) != std::string::npos;
      d.resize(d.size() - drop);
      for (size_t j = d.size(); lost && j-- > 0;) {
        lost = d[j] == '9';
        d[j] = lost ? '0' : static_cast<char>(d[j] + 1);
      }
      if (lost) d.insert(d.begin(), '1');
    }
    exp10 = -9;
  }
  if (binary > 0) {  // The cap: 2^63-1. The integer part of d*10^exp10 has d.size()+exp10 digits.
    constexpr std::string_view kMax = "9223372036854775807";
    const int64_t n = static_cast<int64_t>(d.size()) + exp10;
    bool over = n > static_cast<int64_t>(kMax.size());
    if (n == static_cast<int64_t>(kMax.size())) {
      std::string head = d.substr(0, kMax.size());
      head.resize(kMax.size(), '0');
      over = head > kMax ||
             (head == kMax && d.find_first_not_of('0', kMax.size()) != std::string::npos);
    }
    if (over) {
      d = kMax;
      exp10 = 0;
    }
  }
  while (d.back() == '0') {
    d.pop_back();
    ++exp10;
  }
  return (negative ? "-" : "") + d + "e" + std::to_string(exp10);
}

// Go map fields of a Job spec: nil and empty maps are equal in semantic DeepEqual, and their
// entries are keys rather than fields. `key` is the field's name, `depth` that of the map holding
// it (0: spec).
bool IsGoMap(std::string_view key, int depth) {
  static constexpr std::string_view kMaps[] = {"labels", "annotations", "nodeSelector",
                                               "limits", "requests",    "overhead"};
  return (depth == 0 && key == "plugins") ||
         std::find(std::begin(kMaps), std::end(kMaps), key) != std::end(kMaps);
}

// Rewrites a decoded spec so that Node equality is apimachinery's semantic DeepEqual of the
// decoded structs, which ignores: key order; a null field (absent in Go); an empty list against
// an absent one (nil and empty slices are equal); an empty Go map against an absent one (only
// for the map fields of IsGoMap: `securityContext: {}` is a non-nil pointer, unlike absent);
// and the spelling of resource quantities, compared by value (`cpu: 1`, "1" and 1000m;
// `memory: 1Gi` and 1073741824), in the limits and requests of a `resources` object, a pod's
// `overhead` and an emptyDir's `sizeLimit`. A value that is no quantity stays compared as text.
void Normalize(Node* x, std::string_view key, std::string_view parent, int depth) {
  auto quantity = [](Node* v) {
    if (!v->is_string() && !v->is_number()) return;
    std::optional<std::string> q =
        CanonicalQuantity(v->is_int() ? std::to_string(v->integer) : v->text);
    if (q) *v = Node::String("\x01quantity " + *q);  // Never equal to a user's string.
  };
  if (x->is_map()) {
    const bool go_map = IsGoMap(key, depth - 1);
    // Struct fields held by value, where `{}` decodes to the zero value, as absent does: a
    // container's resources, a pod template's metadata.
    const bool container = parent == "containers" || parent == "initContainers";
    auto by_value = [&](std::string_view field) {
      return (container && field == "resources") || (key == "template" && field == "metadata");
    };
    for (MapEntry& e : x->entries) Normalize(&e.value, e.key, key, depth + 1);
    x->entries.erase(std::remove_if(x->entries.begin(), x->entries.end(),
                                    [&](const MapEntry& e) {
                                      const Node& v = e.value;
                                      return v.is_null() ||
                                             (!go_map && v.is_seq() && v.items.empty()) ||
                                             (v.is_map() && v.entries.empty() && !go_map &&
                                              (IsGoMap(e.key, depth) || by_value(e.key)));
                                    }),
                     x->entries.end());
    if ((parent == "resources" && (key == "limits" || key == "requests")) || key == "overhead") {
      for (MapEntry& e : x->entries) quantity(&e.value);
    }
    if (key == "emptyDir") {
      if (Node* limit = x->Find("sizeLimit")) quantity(limit);
    }
    std::sort(x->entries.begin(), x->entries.end(),
              [](const MapEntry& l, const MapEntry& r) { return l.key < r.key; });
  } else if (x->is_seq()) {
    for (Node& i : x->items) Normalize(&i, "", key, depth + 1);
  }
}

}  // namespace

const std::vector<std::string>& VolcanoPolicyEvents() {
  static const std::vector<std::string> v = {"*",          "PodFailed", "PodEvicted",
                                             "PodPending", "Unknown",   "TaskCompleted",
                                             "TaskFailed", "JobUpdated"};
  return v;
}

const std::vector<std::string>& VolcanoPolicyActions() {
  static const std::vector<std::string> v = {"AbortJob",    "RestartJob",       "RestartTask",
                                             "RestartPod",  "RestartPartition", "TerminateJob",
                                             "CompleteJob", "ResumeJob"};
  return v;
}

const std::vector<std::string>& VolcanoPlugins() {
  static const std::vector<std::string> v = {"ssh", "env",     "svc",      "tensorflow",
                                             "mpi", "pytorch", "hcclrank", "ray"};
  return v;
}

void ValidateVolcanoCreate(const Node& object, std::vector<Finding>* out) {
  const Node* md = object.Find("metadata");
  std::string job = md ? std::string(md->StringOr("name")) : "";
  // With generateName, kube-apiserver has made the name (prefix + 5 characters) before the
  // validating webhook sees the object.
  if (job.empty() && md && !md->StringOr("generateName").empty()) {
    job = std::string(md->StringOr("generateName")) + "xxxxx";
  }
  const Node* spec = object.Find("spec");
  const Node* tasks = spec ? spec->Find("tasks") : nullptr;
  // At least one task.
  if (!tasks || !tasks->is_seq() || tasks->items.empty()) {
    return Error(object, out, kVolcanoNoTasks, "spec.tasks", "No task specified in job spec",
                 PointAt::kKey);
  }
  // The mpi plugin's master task exists.
  const Node* plugins = spec->Find("plugins");
  if (const Node* mpi = plugins && plugins->is_map() ? plugins->Find("mpi") : nullptr) {
    std::string master = MpiMaster(*mpi);
    bool found = false;
    for (const Node& t : tasks->items) found = found || TextOf(t.Find("name")) == master;
    if (!found) {
      return Error(object, out, kVolcanoMpiMasterTask, "spec.plugins.mpi",
                   "The specified mpi master task was not found", PointAt::kKey);
    }
  }
  // networkTopology names one tier bound, not both.
  if (BothTiers(spec->Find("networkTopology"))) {
    Error(object, out, kVolcanoNetworkTopologyTiers, "spec.networkTopology", kBothTiers);
  }
  // Per task: replicas, minAvailable, names, policies, template, topology, partitions.
  std::set<std::string> names;
  int64_t total_replicas = 0;
  for (size_t i = 0; i < tasks->items.size(); ++i) {
    const Node& t = tasks->items[i];
    std::string at = Index("spec.tasks", i);
    std::string name = TextOf(t.Find("name"));
    int64_t replicas = IntOr(t.Find("replicas"), 0);
    const Node* min = t.Find("minAvailable");
    if (min && min->is_int() && IntOr(min, 0) > replicas) {
      Error(object, out, kVolcanoTaskMinAvailable, Child(at, "minAvailable"),
            " 'minAvailable' is greater than 'replicas' in task: " + name + ", job: " + job + ";");
    }
    if (!names.insert(name).second) {
      Error(object, out, kVolcanoDuplicateTaskName, Child(at, "name"),
            " duplicated task name " + name + ";");
      break;  // Upstream stops here: later tasks are neither checked nor counted.
    }
    total_replicas += replicas;
    ValidatePolicies(object, t.Find("policies"), Child(at, "policies"), "spec.tasks.policies", out);
    std::string pod = job + "-" + name + "-" + std::to_string(i);
    if (std::vector<std::string> errs = QualifiedNameErrors(pod); !errs.empty()) {
      Error(object, out, kVolcanoPodName, Child(at, "name"),
            "create pod with name " + pod + " validate failed " + GoList(errs) + ";");
    }
    if (!ValidatePodTemplate(object, t, at, i, out)) ValidateTopologyCpu(object, t, at, i, out);
    ValidatePartition(object, t, at, job, out);
  }
  // The job: name, minAvailable, policies, plugins, volumes.
  if (std::vector<std::string> errs = QualifiedNameErrors(job); !errs.empty()) {
    Error(object, out, kVolcanoJobName, "metadata.name",
          "create job with name " + job + " validate failed " + GoList(errs));
  }
  if (total_replicas < IntOr(spec->Find("minAvailable"), 0)) {
    Error(object, out, kVolcanoMinAvailable, "spec.minAvailable",
          " job 'minAvailable' should not be greater than total replicas in tasks;");
  }
  ValidatePolicies(object, spec->Find("policies"), "spec.policies", "spec.policies", out);
  if (plugins && plugins->is_map()) {
    for (const MapEntry& e : plugins->entries) {
      if (!Contains(VolcanoPlugins(), e.key)) {
        Error(object, out, kVolcanoUnknownPlugin, Key("spec.plugins", e.key),
              " unable to find job plugin: " + e.key + ";", PointAt::kKey);
      }
    }
  }
  ValidateVolumes(object, spec->Find("volumes"), out);
  // The queue must exist, be open and be a leaf: that needs the cluster. Not root: checked.
  if (TextOf(spec->Find("queue")) == "root") {
    Error(object, out, kVolcanoRootQueue, "spec.queue", " can not submit job to root queue;");
  }
  // dependsOn forms a DAG.
  bool depends = false;
  for (const Node& t : tasks->items)
    depends = depends || (t.Find("dependsOn") && !t.Find("dependsOn")->is_null());
  if (depends && !IsDag(tasks)) {
    Error(object, out, kVolcanoDependsOnDag, "spec.tasks",
          " job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG);",
          PointAt::kKey);
  }
}

void ValidateVolcanoUpdate(const Node& old_object, const Node& new_object,
                           std::vector<Finding>* out) {
  auto fail = [&](RuleId rule, std::string_view locate, std::string message) {
    Error(new_object, out, rule, locate, std::move(message));
  };
  const Node* spec = new_object.Find("spec");
  const Node* old_spec = old_object.Find("spec");
  const Node* tasks = spec ? spec->Find("tasks") : nullptr;
  int64_t total = 0;
  if (tasks && tasks->is_seq()) {
    for (size_t i = 0; i < tasks->items.size(); ++i) {
      const Node& t = tasks->items[i];
      std::string at = Index("spec.tasks", i);
      std::string name = TextOf(t.Find("name"));
      int64_t replicas = IntOr(t.Find("replicas"), 0);
      const Node* min = t.Find("minAvailable");
      if (replicas < 0) {
        return fail(kVolcanoTaskMinAvailable, Child(at, "replicas"),
                    "'replicas' must be >= 0 in task: " + name);
      }
      if (min && min->is_int() && IntOr(min, 0) < 0) {
        return fail(kVolcanoTaskMinAvailable, Child(at, "minAvailable"),
                    "'minAvailable' must be >= 0 in task: " + name);
      }
      if (min && min->is_int() && IntOr(min, 0) > replicas) {
        return fail(kVolcanoTaskMinAvailable, Child(at, "minAvailable"),
                    "'minAvailable' must be <= 'replicas' in task: " + name);
      }
      size_t before = out->size();
      std::string job = TextOf(FindPath(new_object, "metadata.name"));
      ValidatePartition(new_object, t, at, job, out);
      if (out->size() > before) {
        out->resize(before + 1);  // The first error only, without punctuation (none is added).
        out->back().upstream = out->back().message;
        return;
      }
      total += replicas;
    }
  }
  int64_t min = spec ? IntOr(spec->Find("minAvailable"), 0) : 0;
  if (min > total) {
    return fail(kVolcanoMinAvailable, "spec.minAvailable",
                "job 'minAvailable' must not be greater than total replicas");
  }
  if (min < 0) {
    return fail(kVolcanoMinAvailable, "spec.minAvailable", "job 'minAvailable' must be >= 0");
  }
  if (spec && BothTiers(spec->Find("networkTopology"))) {
    return fail(kVolcanoNetworkTopologyTiers, "spec.networkTopology", kBothTiers);
  }
  const Node* old_tasks = old_spec ? old_spec->Find("tasks") : nullptr;
  size_t n_new = tasks && tasks->is_seq() ? tasks->items.size() : 0;
  size_t n_old = old_tasks && old_tasks->is_seq() ? old_tasks->items.size() : 0;
  if (n_new != n_old) {
    return fail(kVolcanoUpdateTasks, "spec.tasks", "job updates may not add or remove tasks");
  }
  // Immutability: forget what may change, then compare the rest.
  auto strip = [](const Node* s) {
    Node copy = s ? *s : Node::Map();
    if (!copy.is_map()) return copy;
    auto erase = [](Node* m, std::string_view key) {
      if (!m->is_map()) return;
      m->entries.erase(std::remove_if(m->entries.begin(), m->entries.end(),
                                      [&](const MapEntry& e) { return e.key == key; }),
                       m->entries.end());
    };
    erase(&copy, "minAvailable");
    erase(&copy, "priorityClassName");
    if (Node* ts = copy.Find("tasks"); ts && ts->is_seq()) {
      for (Node& t : ts->items) {
        erase(&t, "replicas");
        erase(&t, "minAvailable");
      }
    }
    if (Node* vs = copy.Find("volumes"); vs && vs->is_seq()) {
      for (Node& v : vs->items) {
        const Node* claim = v.Find("volumeClaim");
        if (claim && !claim->is_null()) erase(&v, "volumeClaimName");
      }
    }
    return copy;
  };
  Node a = strip(old_spec), b = strip(spec);
  Normalize(&a, "spec", "", 0);
  Normalize(&b, "spec", "", 0);
  if (!(a == b)) {
    fail(kVolcanoUpdateImmutable, "spec",
         "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under "
         "spec` and `PriorityClassName`");
  }
}

std::string VolcanoCreateMessage(const std::vector<Finding>& errors) {
  std::string msg;
  for (const Finding& f : errors) msg += f.upstream;
  return std::string(Trim(msg, " \t\n"));
}

}  // namespace jobset
