#include "validation/volcano/distributed_plugins.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace jobset {

namespace {

// One flag of a plugin's flag.FlagSet: its name, type and value (the default until an argument
// sets it).
struct GoFlag {
  enum class Type { kString, kInt, kBool };
  std::string_view name;
  Type type;
  std::string text;    // kString
  int64_t number = 0;  // kInt
  bool on = false;     // kBool
};

GoFlag StringFlag(std::string_view name, std::string value) {
  return {name, GoFlag::Type::kString, std::move(value)};
}
GoFlag IntFlag(std::string_view name, int64_t value) {
  return {name, GoFlag::Type::kInt, "", value};
}
GoFlag BoolFlag(std::string_view name, bool value) {
  return {name, GoFlag::Type::kBool, "", 0, value};
}

// strconv.ParseInt(s, 0, 64): a sign, then decimal digits or a base prefix (0x, 0o, 0b, or a
// leading 0 for octal). On a syntax error 0 and false, out of range the nearest bound and false,
// as flag's intValue.Set stores them. (Go also takes underscores between digits: not here.)
bool ParseGoInt(std::string_view s, int64_t* out) {
  *out = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 1 && s[0] == '0') {
    char p = static_cast<char>(s[1] | 0x20);
    if (p == 'x' || p == 'o' || p == 'b') {
      base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  if (s.empty()) return false;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t value = 0;
  for (char c : s) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'z' ? c - 'a' + 10
            : c >= 'A' && c <= 'Z' ? c - 'A' + 10
                                   : 99;
    if (d >= base) return false;
    // Out of range: Go stops at the first digit that overflows.
    if (value > (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(d)) / base ||
        value * base + static_cast<uint64_t>(d) > limit) {
      *out = negative ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
      return false;
    }
    value = value * base + static_cast<uint64_t>(d);
  }
  *out = negative ? static_cast<int64_t>(0 - value) : static_cast<int64_t>(value);
  return true;
}

// strconv.ParseBool, as flag's boolValue.Set stores it (false on an error).
bool ParseGoBool(std::string_view s, bool* out) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (s == t) return *out = true;
  }
  *out = false;
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (s == f) return true;
  }
  return false;
}

// (*flag.FlagSet).Parse with ContinueOnError, as the plugins call it: stops at the first
// argument that is not a flag, after `--`, and at the first error (an unknown flag, -help, a
// missing or bad value), the flags not reached keeping their defaults. `-name value` and
// `-name=value` (one or two dashes) set a string or int flag; a bool flag takes only `=value`.
void ParseGoFlags(const Node& args, std::vector<GoFlag>* flags) {
  if (!args.is_seq()) return;
  const std::vector<Node>& items = args.items;
  for (size_t i = 0; i < items.size();) {
    if (!items[i].is_string()) return;
    std::string_view s = items[i].text;
    if (s.size() < 2 || s[0] != '-') return;
    size_t minuses = 1;
    if (s[1] == '-') {
      if (s.size() == 2) return;  // "--" ends the flags
      minuses = 2;
    }
    std::string_view name = s.substr(minuses);
    if (name.empty() || name[0] == '-' || name[0] == '=') return;
    ++i;
    bool has_value = false;
    std::string_view value;
    if (size_t eq = name.find('=', 1); eq != std::string_view::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto flag =
        std::find_if(flags->begin(), flags->end(), [&](const GoFlag& f) { return f.name == name; });
    if (flag == flags->end()) return;  // unknown, or -help
    if (flag->type == GoFlag::Type::kBool) {
      if (!ParseGoBool(has_value ? value : "true", &flag->on)) return;
      continue;
    }
    if (!has_value) {
      if (i == items.size() || !items[i].is_string()) return;
      value = items[i++].text;
    }
    if (flag->type == GoFlag::Type::kString) {
      flag->text = std::string(value);
    } else if (!ParseGoInt(value, &flag->number)) {
      return;
    }
  }
}

const GoFlag& Flag(const std::vector<GoFlag>& flags, std::string_view name) {
  return *std::find_if(flags.begin(), flags.end(), [&](const GoFlag& f) { return f.name == name; });
}

Node EnvVar(std::string name, std::string value) {
  Node e = Node::Map();
  e.Set("name", Node::String(std::move(name)));
  e.Set("value", Node::String(std::move(value)));
  return e;
}

// The tasks of the job (spec.tasks, mappings only).
std::vector<const Node*> Tasks(const Node& job) {
  std::vector<const Node*> tasks;
  const Node* spec = job.is_map() ? job.Find("spec") : nullptr;
  const Node* seq = spec && spec->is_map() ? spec->Find("tasks") : nullptr;
  if (seq == nullptr || !seq->is_seq()) return tasks;
  for (const Node& t : seq->items) {
    if (t.is_map()) tasks.push_back(&t);
  }
  return tasks;
}

// GetTaskIndexUnderJob: the first task of that name, or -1.
int TaskIndex(const std::vector<const Node*>& tasks, std::string_view name) {
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i]->StringOr("name") == name) return static_cast<int>(i);
  }
  return -1;
}

int64_t Replicas(const Node& task) {
  const Node* r = task.Find("replicas");
  return r && r->is_int() && r->integer > 0 ? r->integer : 0;
}

// A string of the task's template spec (hostname, subdomain), or "".
std::string TemplateSpecString(const Node& task, std::string_view key) {
  const Node* t = task.Find("template");
  const Node* spec = t && t->is_map() ? t->Find("spec") : nullptr;
  return spec && spec->is_map() ? std::string(spec->StringOr(key)) : "";
}

// MakeDomainName: the template's hostname or the pod name, dot, its subdomain or the job name.
std::string DomainName(const Node& task, std::string_view job, int64_t index) {
  std::string host = TemplateSpecString(task, "hostname");
  std::string subdomain = TemplateSpecString(task, "subdomain");
  if (host.empty())
    host =
        std::string(job) + "-" + std::string(task.StringOr("name")) + "-" + std::to_string(index);
  if (subdomain.empty()) subdomain = std::string(job);
  return host + "." + subdomain;
}

// The mappings of the pod spec's `containers` (or `initContainers`).
std::vector<Node*> Containers(Node* spec, std::string_view list) {
  std::vector<Node*> out;
  Node* seq = spec->Find(list);
  if (seq == nullptr || !seq->is_seq()) return out;
  for (Node& c : seq->items) {
    if (c.is_map()) out.push_back(&c);
  }
  return out;
}

Node* EnsureSeq(Node* parent, std::string_view key) {
  Node* v = parent->Find(key);
  if (v == nullptr || !v->is_seq()) v = &parent->Set(key, Node::Seq());
  return v;
}

// Go's int32(port): what a ContainerPort holds.
int32_t Int32(int64_t v) { return static_cast<int32_t>(v); }

// Whether a port of container `c` has containerPort `port`.
bool HasPort(const Node& c, int64_t port) {
  const Node* ports = c.Find("ports");
  if (ports == nullptr || !ports->is_seq()) return false;
  for (const Node& p : ports->items) {
    const Node* n = p.is_map() ? p.Find("containerPort") : nullptr;
    if (n && n->is_int() && n->integer == Int32(port)) return true;
  }
  return false;
}

// Appends port {name, containerPort} to container `c`.
void AddPort(Node* c, std::string_view name, int64_t port) {
  Node p = Node::Map();
  p.Set("name", Node::String(std::string(name)));
  p.Set("containerPort", Node::Int(Int32(port)));
  EnsureSeq(c, "ports")->items.push_back(std::move(p));
}

// Opens `port` in container `c` unless one of its ports has that number.
void OpenPort(Node* c, std::string_view name, int64_t port) {
  if (!HasPort(*c, port)) AddPort(c, name, port);
}

void AppendEnv(Node* c, Node var) { EnsureSeq(c, "env")->items.push_back(std::move(var)); }

// plugins/distributed-framework/pytorch/pytorch.go: OnPodCreate, generateMasterAddr,
// generateWaitForMasterScript, addWaitForMasterInitContainer.
void Pytorch(const Node& args, const Node& job, VolcanoPluginPod* pod) {
  std::vector<GoFlag> flags = {StringFlag("master", "master"),
                               StringFlag("worker", "worker"),
                               IntFlag("port", 23456),
                               BoolFlag("wait-master-enabled", false),
                               IntFlag("wait-master-timeout", 300),
                               StringFlag("wait-master-image", "busybox:1.36.1")};
  ParseGoFlags(args, &flags);
  const std::string& master = Flag(flags, "master").text;
  const std::string& worker = Flag(flags, "worker").text;
  const int64_t port = Flag(flags, "port").number;
  std::vector<const Node*> tasks = Tasks(job);
  int master_index = TaskIndex(tasks, master);
  if (master_index == -1) return;
  const std::string& job_name = pod->job;
  const std::string addr = DomainName(*tasks[master_index], job_name, 0);
  const std::string p = std::to_string(port);
  if (pod->task_key == worker && Flag(flags, "wait-master-enabled").on) {
    std::vector<Node*> init = Containers(pod->spec, "initContainers");
    bool present = std::any_of(init.begin(), init.end(), [](const Node* c) {
      return c->StringOr("name") == "wait-for-master";
    });
    if (!present) {
      const std::string timeout = std::to_string(Flag(flags, "wait-master-timeout").number);
      std::string script = "echo \"Waiting for master node " + addr + ":" + p +
                           " to be ready...\"\nTIMEOUT=" + timeout + "\nELAPSED=0\nuntil { nc -z " +
                           addr + " " + p + " || echo > /dev/tcp/" + addr + "/" + p +
                           "; } 2>/dev/null; do\n"
                           "  if [ $ELAPSED -ge $TIMEOUT ]; then\n"
                           "    echo \"Timeout waiting for master after ${TIMEOUT} seconds\"\n"
                           "    exit 1\n"
                           "  fi\n"
                           "  echo \"Master not ready yet, retrying in 2 seconds... (elapsed: "
                           "${ELAPSED}s)\"\n"
                           "  sleep 2\n"
                           "  ELAPSED=$((ELAPSED + 2))\n"
                           "done\n"
                           "echo \"Master node is ready!\"";
      Node command = Node::Seq();
      for (std::string s : {std::string("sh"), std::string("-c"), std::move(script)})
        command.items.push_back(Node::String(std::move(s)));
      Node c = Node::Map();
      c.Set("name", Node::String("wait-for-master"));
      c.Set("image", Node::String(Flag(flags, "wait-master-image").text));
      c.Set("command", std::move(command));
      EnsureSeq(pod->spec, "initContainers")->items.push_back(std::move(c));
    }
  }
  int64_t world = 0;
  for (const Node* t : tasks) {
    std::string_view name = t->StringOr("name");
    if (name == master || name == worker) world += Replicas(*t);
  }
  for (Node* c : Containers(pod->spec, "containers")) {
    OpenPort(c, "pytorchjob-port", port);
    AppendEnv(c, EnvVar("MASTER_ADDR", addr));
    AppendEnv(c, EnvVar("MASTER_PORT", p));
    AppendEnv(c, EnvVar("WORLD_SIZE", std::to_string(Int32(world))));
    if (pod->task_key == worker) {
      AppendEnv(c, EnvVar("RANK", std::to_string(pod->index + 1)));
    } else if (pod->task_key == master) {
      AppendEnv(c, EnvVar("RANK", "0"));
    }
  }
}

// plugins/distributed-framework/tensorflow/tensorflow.go: OnPodCreate, generateTFClusterSpec,
// getTaskType, and the JSON of tfClusterSpec.
void Tensorflow(const Node& args, const Node& job, VolcanoPluginPod* pod) {
  std::vector<GoFlag> flags = {StringFlag("ps", "ps"), StringFlag("worker", "worker"),
                               StringFlag("chief", "chief"), StringFlag("evaluator", "evaluator"),
                               IntFlag("port", 2222)};
  ParseGoFlags(args, &flags);
  std::vector<const Node*> tasks = Tasks(job);
  const Node* raw_replicas = tasks.size() == 1 ? tasks[0]->Find("replicas") : nullptr;
  if (raw_replicas && raw_replicas->is_int() && raw_replicas->integer == 1) return;
  // The roles in the order of clusterInfo's fields; a task takes the first role it names.
  const std::vector<std::string_view> roles = {"ps", "worker", "chief", "evaluator"};
  std::vector<std::string> hosts(roles.size());
  std::vector<bool> set(roles.size(), false);
  const std::string& job_name = pod->job;
  const std::string port = std::to_string(Flag(flags, "port").number);
  for (const Node* t : tasks) {
    std::string_view name = t->StringOr("name");
    for (size_t r = 0; r < roles.size(); ++r) {
      if (name != Flag(flags, roles[r]).text) continue;
      std::string list;
      for (int64_t i = 0; i < Replicas(*t); ++i)
        list += (i ? "," : "") + GoJsonString(DomainName(*t, job_name, i) + ":" + port);
      hosts[r] = list;
      set[r] = !list.empty();  // omitempty
      break;
    }
  }
  std::string type = pod->task_key;
  for (std::string_view role : {"chief", "worker", "ps", "evaluator"}) {
    if (pod->task_key == Flag(flags, role).text) {
      type = std::string(role);
      break;
    }
  }
  std::string cluster;
  for (size_t r = 0; r < roles.size(); ++r) {
    if (!set[r]) continue;
    cluster += (cluster.empty() ? "" : ",") + GoJsonString(roles[r]) + ":[" + hosts[r] + "]";
  }
  std::string value = "{\"cluster\":{" + cluster + "},\"task\":{\"type\":" + GoJsonString(type) +
                      ",\"index\":" + std::to_string(pod->index) + "}}";
  for (Node* c : Containers(pod->spec, "containers")) AppendEnv(c, EnvVar("TF_CONFIG", value));
}

// plugins/distributed-framework/mpi/mpi.go: OnPodCreate, generateTaskHosts, openContainerPort.
void Mpi(const Node& args, const Node& job, VolcanoPluginPod* pod) {
  std::vector<GoFlag> flags = {StringFlag("master", "master"), StringFlag("worker", "worker"),
                               IntFlag("port", 22)};
  ParseGoFlags(args, &flags);
  std::vector<const Node*> tasks = Tasks(job);
  bool is_master = false;
  std::string hosts;
  if (pod->task_key == Flag(flags, "master").text) {
    int w = TaskIndex(tasks, Flag(flags, "worker").text);
    if (w == -1) return;
    const Node& worker = *tasks[w];
    const std::string& job_name = pod->job;
    const bool fixed_host = !TemplateSpecString(worker, "hostname").empty();
    for (int64_t i = 0; i < Replicas(worker); ++i) {
      if (i > 0) hosts += ",";
      hosts += DomainName(worker, job_name, i);
      if (fixed_host) break;  // one named host stands for them all
    }
    is_master = true;
  }
  for (const char* list : {"initContainers", "containers"}) {
    for (Node* c : Containers(pod->spec, list)) {
      OpenPort(c, "mpijob-port", Flag(flags, "port").number);
      if (is_master) AppendEnv(c, EnvVar("MPI_HOST", hosts));
    }
  }
}

// plugins/distributed-framework/ray/ray.go: OnPodCreate, generateHeadAddr,
// openHeadContainerPort.
std::string Ray(const Node& args, const Node& job, VolcanoPluginPod* pod) {
  std::vector<GoFlag> flags = {
      StringFlag("head", "head"),     StringFlag("headContainer", "head"),
      StringFlag("worker", "worker"), StringFlag("workerContainer", "worker"),
      IntFlag("port", 6379),          IntFlag("dashboardPort", 8265),
      IntFlag("clientPort", 10001)};
  ParseGoFlags(args, &flags);
  std::vector<const Node*> tasks = Tasks(job);
  const std::string& job_name = pod->job;
  const std::string& head = Flag(flags, "head").text;
  int h = TaskIndex(tasks, head);
  if (h == -1) return "job " + job_name + " doesn't have head task " + head;
  const int64_t port = Flag(flags, "port").number;
  const int64_t dashboard = Flag(flags, "dashboardPort").number;
  const int64_t client = Flag(flags, "clientPort").number;
  auto command = [](std::string line) {
    Node c = Node::Seq();
    for (std::string s : {std::string("sh"), std::string("-c"), std::move(line)})
      c.items.push_back(Node::String(std::move(s)));
    return c;
  };
  for (Node* c : Containers(pod->spec, "containers")) {
    std::string_view name = c->StringOr("name");
    if (pod->task_key == head && name == Flag(flags, "headContainer").text) {
      // Each port unless the container had its number before the plugin.
      const bool has[] = {HasPort(*c, port), HasPort(*c, dashboard), HasPort(*c, client)};
      if (!has[0]) AddPort(c, "gcs", port);
      if (!has[1]) AddPort(c, "dashboard", dashboard);
      if (!has[2]) AddPort(c, "client-server", client);
      c->Set("command",
             command("ray start --head --block --dashboard-host=0.0.0.0 --port=" +
                     std::to_string(port) + " --dashboard-port=" + std::to_string(dashboard) +
                     " --ray-client-server-port=" + std::to_string(client)));
    }
    if (pod->task_key == Flag(flags, "worker").text &&
        name == Flag(flags, "workerContainer").text) {
      c->Set("command", command("ray start --block --address=" +
                                DomainName(*tasks[h], job_name, 0) + ":" + std::to_string(port)));
    }
  }
  return "";
}

// plugins/distributed-framework/hcclrank/hcclrank.go: OnPodCreate, getEnv.
void Hcclrank(const Node& args, const Node& job, VolcanoPluginPod* pod) {
  constexpr std::string_view kKey = "hccl/rankIndex";
  std::vector<GoFlag> flags = {StringFlag("master", "master"), StringFlag("worker", "worker")};
  ParseGoFlags(args, &flags);
  if (const Node* v = pod->annotations->Find(kKey); v && !(v->is_string() && v->text.empty()))
    return;
  // getEnv: the value of the first env RANK of the containers.
  std::string rank;
  bool found = false;
  for (Node* c : Containers(pod->spec, "containers")) {
    const Node* env = c->Find("env");
    for (size_t i = 0; !found && env && env->is_seq() && i < env->items.size(); ++i) {
      const Node& e = env->items[i];
      found = e.is_map() && e.StringOr("name") == "RANK";
      if (found) rank = std::string(e.StringOr("value"));
    }
    if (found) break;
  }
  if (!rank.empty()) {
    pod->annotations->Set(kKey, Node::String(rank));
    return;
  }
  const std::string& master = Flag(flags, "master").text;
  if (pod->task_key == master) {
    pod->annotations->Set(kKey, Node::String(std::to_string(pod->index)));
  } else if (pod->task_key == Flag(flags, "worker").text) {
    std::vector<const Node*> tasks = Tasks(job);
    int m = TaskIndex(tasks, master);
    int64_t replicas = m == -1 ? 0 : Replicas(*tasks[m]);
    pod->annotations->Set(kKey, Node::String(std::to_string(replicas + pod->index)));
  }
}

}  // namespace

bool IsDistributedPlugin(std::string_view plugin) {
  return plugin == "pytorch" || plugin == "tensorflow" || plugin == "mpi" || plugin == "ray" ||
         plugin == "hcclrank";
}

std::string ApplyDistributedPlugin(std::string_view plugin, const Node& args, const Node& job,
                                   VolcanoPluginPod* pod) {
  if (plugin == "pytorch") Pytorch(args, job, pod);
  if (plugin == "tensorflow") Tensorflow(args, job, pod);
  if (plugin == "mpi") Mpi(args, job, pod);
  if (plugin == "hcclrank") Hcclrank(args, job, pod);
  if (plugin == "ray") return Ray(args, job, pod);
  return "";
}

std::string GoJsonString(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  auto unicode = [&](unsigned c) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 0xf];
  };
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            unicode(c);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    // A UTF-8 sequence: copied when valid (U+2028 and U+2029 escaped), else U+FFFD.
    size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (c >= 0xf5) len = 0;
    unsigned cp = len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    bool valid = len != 0 && i + len <= s.size();
    for (size_t k = 1; valid && k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      valid = (cc & 0xc0) == 0x80;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (valid) {
      valid = (len == 3 && cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) ||
              (len == 4 && cp >= 0x10000 && cp <= 0x10ffff) || len == 2;
    }
    if (!valid) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (cp == 0x2028 || cp == 0x2029) {
      unicode(cp);
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  return out + "\"";
}

}  // namespace jobset
