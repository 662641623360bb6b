// What hostile input costs (issue #19): for each case, time and peak memory at 1x, 2x and 4x
// the input, each in a child process of its own (bench/README.md, "Hostile input").
//   hostile_bench [CASE...]      CASE: alias-bomb, near-limit-documents, wide-mapping,
//                                replicated-jobs-update, wide-labels-update, analysis-rules,
//                                volcano-policies, volume-claim-templates, replay-steps,
//                                policy-targets, restart-job-step, stuck-pending,
//                                analysis-targets, analysis-chains, monte-carlo-targets,
//                                fault-mix-kinds, framework-explain, framework-replay,
//                                framework-monte-carlo, volcano-tasks, stuck-steps,
//                                fault-mix-rules, targeted-reasons, volcano-steps,
//                                volcano-sync-requests, volcano-explain-tasks,
//                                volcano-monte-carlo-pods, fault-mix-patterns (default: all)
//   hostile_bench --one CASE SCALE   runs one case once in this process (what the children do)
// A child builds its input, then times the work alone; its peak resident set (wait4's
// ru_maxrss) includes the input, which is reported beside it. The cases from analysis-rules on
// build their object in memory and call the check directly; their input bytes are the object as
// JSON.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <span>
#include <string>
#include <vector>

#include "validation/core/json_node.h"
#include "validation/core/loader.h"
#include "validation/framework/explain.h"
#include "validation/framework/monte_carlo.h"
#include "validation/framework/replay.h"
#include "validation/jobset/analysis.h"
#include "validation/jobset/monte_carlo.h"
#include "validation/jobset/policy_engine.h"
#include "validation/jobset/replay.h"
#include "validation/jobset/validation.h"
#include "validation/schema/schema.h"
#include "validation/volcano/lifecycle.h"
#include "validation/volcano/lint.h"
#include "validation/volcano/monte_carlo.h"
#include "validation/volcano/replay.h"
#include "webhook/admission_handler.h"

namespace {

using jobset::Node;

// Nine-way alias levels: `levels` anchored lists, each nine aliases of the one before.
std::string AliasBomb(int scale) {
  const int levels = 10 * scale;
  std::string y = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int l = 1; l < levels; ++l) {
    std::string prev = "l" + std::to_string(l - 1), name = "l" + std::to_string(l);
    y += name + ": &" + name + " [";
    for (int i = 0; i < 9; ++i) y += (i ? ", *" : "*") + prev;
    y += "]\n";
  }
  return y;
}

// 16 x scale documents, each 1.3 million values once expanded: under the per-document limit.
std::string NearLimitDocuments(int scale) {
  std::string doc = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'f'; ++c) {
    doc += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 9; ++i) doc += std::string(i ? ", " : "") + "*" + char(c - 1);
    doc += "]\n";
  }
  doc += "z: [*f]\n";
  std::string file;
  for (int i = 0; i < 16 * scale; ++i) file += (i ? "---\n" : "") + doc;
  return file;
}

// 100,000 x scale keys in one mapping (1.5 MB at 1x).
std::string WideMapping(int scale) {
  std::string y;
  for (int i = 0; i < 100000 * scale; ++i) {
    y += "key" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  }
  return y;
}

// An AdmissionReview UPDATE of a JobSet with 28,000 x scale replicated jobs (5.7 MB at 1x, under
// the webhook's body limit), the new list in reverse order: each item is paired by name.
std::string ReplicatedJobsUpdate(int scale) {
  auto object = [&](bool reversed) {
    const int n = 28000 * scale;
    std::string o =
        R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",)"
        R"("metadata":{"name":"wide","namespace":"default"},"spec":{"replicatedJobs":[)";
    for (int k = 0; k < n; ++k) {
      int i = reversed ? n - 1 - k : k;
      o += (k ? "," : "") + std::string(R"({"name":"rj-)") + std::to_string(i) +
           R"(","replicas":1,"template":{"spec":{"template":{"spec":{"containers":[)"
           R"({"name":"c","image":"busybox"}]}}}}})";
    }
    return o + "]}}";
  };
  return R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
         R"("kind":{"group":"jobset.x-k8s.io","version":"v1alpha2","kind":"JobSet"},)"
         R"("operation":"UPDATE","name":"wide","namespace":"default","object":)" +
         object(true) + R"(,"oldObject":)" + object(false) + "}}";
}

// An AdmissionReview UPDATE whose pod template holds 100,000 x scale labels, in another order
// in the new object.
std::string WideLabelsUpdate(int scale) {
  auto object = [&](bool reversed) {
    const int n = 100000 * scale;
    std::string labels;
    for (int k = 0; k < n; ++k) {
      int i = reversed ? n - 1 - k : k;
      labels += (k ? "," : "") + std::string("\"k") + std::to_string(i) + "\":\"v\"";
    }
    return R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",)"
           R"("metadata":{"name":"wide","namespace":"default"},"spec":{"replicatedJobs":[)"
           R"({"name":"w","replicas":1,"template":{"spec":{"template":{"metadata":{"labels":{)" +
           labels + R"(}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}}]}})";
  };
  return R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
         R"("kind":{"group":"jobset.x-k8s.io","version":"v1alpha2","kind":"JobSet"},)"
         R"("operation":"UPDATE","name":"wide","namespace":"default","object":)" +
         object(true) + R"(,"oldObject":)" + object(false) + "}}";
}

Node Str(const std::string& s) { return Node::String(s); }

Node Named(const std::string& name) {
  Node n = Node::Map();
  n.Set("name", Str(name));
  return n;
}

Node Object(const char* api_version, const char* kind) {
  Node o = Node::Map();
  o.Set("apiVersion", Str(api_version));
  o.Set("kind", Str(kind));
  o.Set("metadata", Node::Map()).Set("name", Str("wide"));
  return o;
}

// A JobSet with 50,000 x scale replicated jobs (each depending on the one before) and as many
// failure policy rules, rule k targeting replicated job k (restartStrategy InPlaceRestart: the
// policy simulation is not part of this case).
Node AnalysisRules(int scale) {
  const int n = 50000 * scale;
  Node js = Object("jobset.x-k8s.io/v1alpha2", "JobSet");
  // Lists are filled before they are set: Set may move the entries of a mapping.
  Node rules = Node::Seq(), rjs = Node::Seq();
  for (int i = 0; i < n; ++i) {
    const std::string name = "rj-" + std::to_string(i);
    Node rj = Named(name);
    rj.Set("replicas", Node::Int(1));
    Node d = Named(i ? "rj-" + std::to_string(i - 1) : name);
    d.Set("status", Str("Ready"));
    rj.Set("dependsOn", Node::Seq()).items.push_back(std::move(d));
    rjs.items.push_back(std::move(rj));
    Node r = Named("r-" + std::to_string(i));
    r.Set("action", Str("FailJobSet"));
    r.Set("onJobFailureReasons", Node::Seq()).items.push_back(Str("PodFailurePolicy"));
    r.Set("targetReplicatedJobs", Node::Seq()).items.push_back(Str(name));
    rules.items.push_back(std::move(r));
  }
  Node fp = Node::Map();
  fp.Set("maxRestarts", Node::Int(3));
  fp.Set("restartStrategy", Str("InPlaceRestart"));
  fp.Set("rules", std::move(rules));
  Node& spec = js.Set("spec", Node::Map());
  spec.Set("failurePolicy", std::move(fp));
  spec.Set("replicatedJobs", std::move(rjs));
  return js;
}

Node Policy(const char* key, Node value, const char* action) {
  Node p = Node::Map();
  p.Set(key, std::move(value));
  p.Set("action", Str(action));
  return p;
}

// A Volcano Job with 50,000 x scale exit-code policies (each code twice) and as many tasks.
Node VolcanoPolicies(int scale) {
  const int n = 50000 * scale;
  Node job = Object("batch.volcano.sh/v1alpha1", "Job");
  Node policies = Node::Seq(), tasks = Node::Seq();
  for (int j = 0; j < n; ++j) {
    policies.items.push_back(Policy("exitCode", Node::Int(j % (n / 2)), "AbortJob"));
    Node task = Named("t" + std::to_string(j));
    task.Set("replicas", Node::Int(1));
    task.Set("policies", Node::Seq())
        .items.push_back(j < n - 1 ? Policy("event", Str("PodFailed"), "RestartTask")
                                   : Policy("exitCode", Node::Int(0), "RestartTask"));
    tasks.items.push_back(std::move(task));
  }
  Node& spec = job.Set("spec", Node::Map());
  spec.Set("policies", std::move(policies));
  spec.Set("tasks", std::move(tasks));
  return job;
}

// A JobSet with 2,500 volume claim templates (the CRD's most) and one pod with 125,000 x scale
// volumes and as many volumeMounts.
Node VolumeClaimTemplates(int scale) {
  const int templates = 2500, filler = 125000 * scale;
  Node js = Object("jobset.x-k8s.io/v1alpha2", "JobSet");
  Node& spec = js.Set("spec", Node::Map());
  Node& policies = spec.Set("volumeClaimPolicies", Node::Seq());
  for (int p = 0; p < templates / 50; ++p) {
    Node policy = Node::Map();
    Node& list = policy.Set("templates", Node::Seq());
    for (int t = 0; t < 50; ++t) {
      Node tmpl = Node::Map();
      tmpl.Set("metadata", Named("v-" + std::to_string(p * 50 + t)));
      list.items.push_back(std::move(tmpl));
    }
    policies.items.push_back(std::move(policy));
  }
  Node volumes = Node::Seq(), mounts = Node::Seq();
  for (int i = 0; i < filler; ++i) {
    volumes.items.push_back(Named("f-" + std::to_string(i)));
    mounts.items.push_back(Named("f-" + std::to_string(i)));
  }
  for (int t = 0; t < templates; ++t) mounts.items.push_back(Named("v-" + std::to_string(t)));
  Node container = Named("c");
  container.Set("image", Str("img"));
  container.Set("volumeMounts", std::move(mounts));
  Node pod = Node::Map();
  pod.Set("volumes", std::move(volumes));
  pod.Set("containers", Node::Seq()).items.push_back(std::move(container));
  Node rj = Named("rj");
  rj.Set("template", Node::Map())
      .Set("spec", Node::Map())
      .Set("template", Node::Map())
      .Set("spec", std::move(pod));
  spec.Set("replicatedJobs", Node::Seq()).items.push_back(std::move(rj));
  return js;
}

// A JobSet of 125,000 x scale replicated jobs and a replay of as many steps, one failure each,
// from the last replicated job to the first.
Node ReplaySteps(int scale, std::vector<jobset::StepSpec>* steps) {
  const int n = 125000 * scale;
  Node js = Object("jobset.x-k8s.io/v1alpha2", "JobSet");
  Node& rjs = js.Set("spec", Node::Map()).Set("replicatedJobs", Node::Seq());
  for (int i = 0; i < n; ++i) {
    Node rj = Named("rj-" + std::to_string(i));
    rj.Set("replicas", Node::Int(1));
    rjs.items.push_back(std::move(rj));
  }
  for (int i = n - 1; i >= 0; --i) {
    steps->push_back(
        {jobset::FailureSpec{"rj-" + std::to_string(i), 0, "BackoffLimitExceeded", ""}});
  }
  return js;
}

// A JobSet of `n` replicated jobs rj-0.. of `replicas` each (no template) and the failure
// policy rules rule(k) for k in [0, rules).
template <typename MakeRule>
Node PolicyJobSet(int n, int64_t replicas, int rules, int64_t max_restarts, MakeRule rule) {
  Node js = Object("jobset.x-k8s.io/v1alpha2", "JobSet");
  Node list = Node::Seq(), rjs = Node::Seq();
  for (int i = 0; i < n; ++i) {
    Node rj = Named("rj-" + std::to_string(i));
    rj.Set("replicas", Node::Int(replicas));
    rjs.items.push_back(std::move(rj));
  }
  for (int k = 0; k < rules; ++k) list.items.push_back(rule(k));
  Node fp = Node::Map();
  fp.Set("maxRestarts", Node::Int(max_restarts));
  fp.Set("rules", std::move(list));
  Node& spec = js.Set("spec", Node::Map());
  spec.Set("failurePolicy", std::move(fp));
  spec.Set("replicatedJobs", std::move(rjs));
  return js;
}

// Rule `name`: `action` on `reason` (when not empty) for replicated job `target` (when not
// empty), with message pattern `pattern` (when not empty).
Node PolicyRule(const std::string& name, const char* action, const char* reason,
                const std::string& target, const char* pattern = "") {
  Node r = Named(name);
  r.Set("action", Str(action));
  if (*reason) r.Set("onJobFailureReasons", Node::Seq()).items.push_back(Str(reason));
  if (!target.empty()) r.Set("targetReplicatedJobs", Node::Seq()).items.push_back(Str(target));
  if (*pattern) r.Set("onJobFailureMessagePatterns", Node::Seq()).items.push_back(Str(pattern));
  return r;
}

// 50,000 x scale replicated jobs and as many rules, rule k (FailJobSet or RestartJobSet on
// PodFailurePolicy) targeting job k.
Node PolicyTargets(int scale) {
  const int n = 50000 * scale;
  return PolicyJobSet(n, 2, n, 3, [](int k) {
    return PolicyRule("r-" + std::to_string(k), k % 2 ? "RestartJobSet" : "FailJobSet",
                      "PodFailurePolicy", "rj-" + std::to_string(k));
  });
}

// One replicated job of `replicas` Jobs and one RestartJob rule on BackoffLimitExceeded.
Node RestartJobRule(int64_t replicas) {
  return PolicyJobSet(1, replicas, 1, 1'000'000'000, [](int) {
    return PolicyRule("each", "RestartJob", "BackoffLimitExceeded", "");
  });
}

// As AnalysisRules, restartStrategy Recreate (the policy simulation runs): rule k restarts job
// k without counting on BackoffLimitExceeded.
Node AnalysisTargets(int scale) {
  const int n = 50000 * scale;
  return PolicyJobSet(n, 1, n, 3, [](int k) {
    return PolicyRule("r-" + std::to_string(k), "RestartJobSetAndIgnoreMaxRestarts",
                      "BackoffLimitExceeded", "rj-" + std::to_string(k));
  });
}

// 50,000 x scale replicated jobs, as many conditional rules for all of them, then an
// unconditional FailJobSet.
Node AnalysisChains(int scale) {
  const int n = 50000 * scale;
  return PolicyJobSet(n, 1, n + 1, 3, [n](int k) {
    return k == n ? PolicyRule("last", "FailJobSet", "", "")
                  : PolicyRule("r-" + std::to_string(k), "RestartJobSetAndIgnoreMaxRestarts", "",
                               "", "oom");
  });
}

// A Framework of `roles` task roles r0.. of `tasks` tasks each, task retry policy `retry`.
Node FrameworkRoles(int roles, int64_t tasks, int64_t retry) {
  Node fw = Object("frameworkcontroller.microsoft.com/v1", "Framework");
  Node list = Node::Seq();
  for (int k = 0; k < roles; ++k) {
    Node role = Named("r" + std::to_string(k));
    role.Set("taskNumber", Node::Int(tasks));
    role.Set("task", Node::Map())
        .Set("retryPolicy", Node::Map())
        .Set("maxRetryCount", Node::Int(retry));
    list.items.push_back(std::move(role));
  }
  Node& spec = fw.Set("spec", Node::Map());
  spec.Set("retryPolicy", Node::Map()).Set("maxRetryCount", Node::Int(0));
  spec.Set("taskRoles", std::move(list));
  return fw;
}

// A Volcano Job of `n` tasks of one replica each.
Node VolcanoTasks(int n) {
  Node job = Object("batch.volcano.sh/v1alpha1", "Job");
  Node& tasks = job.Set("spec", Node::Map()).Set("tasks", Node::Seq());
  for (int t = 0; t < n; ++t) {
    Node task = Named("t" + std::to_string(t));
    task.Set("replicas", Node::Int(1));
    tasks.items.push_back(std::move(task));
  }
  return job;
}

// A Volcano Job of `tasks` tasks t0, t1, ... of `replicas` pods each, spec.maxRetry
// `max_retry` (0: none written) and the job policies {event, action} of `policies`.
Node VolcanoPodJob(int tasks, int64_t replicas, int64_t max_retry,
                   const std::vector<std::pair<const char*, const char*>>& policies) {
  Node job = Object("batch.volcano.sh/v1alpha1", "Job");
  Node list = Node::Seq(), task_list = Node::Seq();
  for (const auto& [event, action] : policies)
    list.items.push_back(Policy("event", Str(event), action));
  for (int t = 0; t < tasks; ++t) {
    Node task = Named("t" + std::to_string(t));
    task.Set("replicas", Node::Int(replicas));
    task_list.items.push_back(std::move(task));
  }
  Node& spec = job.Set("spec", Node::Map());
  if (max_retry > 0) spec.Set("maxRetry", Node::Int(max_retry));
  if (!policies.empty()) spec.Set("policies", std::move(list));
  spec.Set("tasks", std::move(task_list));
  return job;
}

// The sizes of the Volcano pod-model cases at 1x.
constexpr int kVolcanoSteps = 10000;
constexpr int kVolcanoSyncRequests = 30000;
constexpr int kVolcanoExplainTasks = 400;
constexpr int64_t kVolcanoExplainReplicas = 20;
constexpr int kVolcanoMonteCarloFailures = 2000;

// CPU time of this process: the host is shared, so wall time measures the neighbours too.
double CpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// clang-format off
const char* const kCases[] = {
    "alias-bomb",         "near-limit-documents", "wide-mapping",          "replicated-jobs-update",
    "wide-labels-update", "analysis-rules",       "volcano-policies",      "volume-claim-templates",
    "replay-steps",       "policy-targets",       "restart-job-step",      "stuck-pending",
    "analysis-targets",   "analysis-chains",      "monte-carlo-targets",   "fault-mix-kinds",
    "framework-explain",  "framework-replay",     "framework-monte-carlo", "volcano-tasks",
    "stuck-steps",        "fault-mix-rules",      "targeted-reasons",      "volcano-steps",
    "volcano-sync-requests", "volcano-explain-tasks", "volcano-monte-carlo-pods",
    "fault-mix-patterns"};
// clang-format on

// The cases on the failure-policy engine, Monte Carlo, Framework and Volcano simulations
// (issue #19, second part); prints "bytes seconds verdict".
bool RunSimulationCase(const std::string& name, int scale) {
  using namespace jobset;
  Node object;
  std::vector<JobFailure> first, second;
  std::vector<FrameworkStepSpec> fw_steps;
  FailureModel model;
  FrameworkFailureModel fw_model;
  if (name == "policy-targets") {
    object = PolicyTargets(scale);
  } else if (name == "restart-job-step") {
    // 100,000 x scale Jobs, each failing twice in one step: one pass per Job.
    const int jobs = 100000 * scale;
    object = RestartJobRule(jobs);
    for (int i = jobs - 1; i >= 0; --i) {
      first.push_back({0, i, "BackoffLimitExceeded", "", 2 * static_cast<int64_t>(i) + 1});
      first.push_back({0, i, "BackoffLimitExceeded", "", 2 * static_cast<int64_t>(i)});
    }
  } else if (name == "stuck-pending") {
    // RestartJob with its gate off: 200,000 x scale failures leave the controller stuck, then
    // the same Jobs fail again.
    const int jobs = 200000 * scale;
    object = RestartJobRule(jobs);
    for (int i = 0; i < jobs; ++i) {
      first.push_back({0, i, "BackoffLimitExceeded", "", i});
      second.push_back({0, jobs - 1 - i, "BackoffLimitExceeded", "", jobs + i});
    }
  } else if (name == "stuck-steps") {
    // RestartJob with its gate off: 50,000 x scale failures leave the controller stuck, then as
    // many steps of one new failure each.
    const int jobs = 50000 * scale;
    object = RestartJobRule(2 * jobs);
    for (int i = 0; i < jobs; ++i) {
      first.push_back({0, i, "BackoffLimitExceeded", "", i});
      second.push_back({0, jobs + i, "BackoffLimitExceeded", "", jobs + i});
    }
  } else if (name == "targeted-reasons") {
    // 50,000 x scale rules all targeting rj-0, rule k on reasons R-k and R-(k+1).
    const int n = 50000 * scale;
    object = PolicyJobSet(2, 1, n, 3, [](int k) {
      Node r = PolicyRule("r-" + std::to_string(k), k % 2 ? "FailJobSet" : "RestartJobSet",
                          ("R-" + std::to_string(k)).c_str(), "rj-0");
      r.Find("onJobFailureReasons")->items.push_back(Str("R-" + std::to_string(k + 1)));
      return r;
    });
  } else if (name == "analysis-targets") {
    object = AnalysisTargets(scale);
  } else if (name == "analysis-chains") {
    object = AnalysisChains(scale);
  } else if (name == "monte-carlo-targets") {
    // 50,000 x scale replicated jobs and rules (rule k restarts job k without counting on
    // PodFailurePolicy), 50,000 x scale failures per run, 2 runs.
    const int n = 50000 * scale;
    object = PolicyJobSet(n, 1, n, 1'000'000'000, [](int k) {
      return PolicyRule("r-" + std::to_string(k), "RestartJobSetAndIgnoreMaxRestarts",
                        "PodFailurePolicy", "rj-" + std::to_string(k));
    });
    model.run_time_s = 3600;
    model.node_mttf_s = model.run_time_s;  // n failures per run.
    model.faults = DefaultFaultMix();
    model.runs = 2;
  } else if (name == "fault-mix-kinds") {
    // 150,000 x scale replicated jobs, a fault kind bound to each (by name), 10 runs.
    const int n = 150000 * scale;
    object = Object("jobset.x-k8s.io/v1alpha2", "JobSet");  // No failure policy.
    Node& rjs = object.Set("spec", Node::Map()).Set("replicatedJobs", Node::Seq());
    for (int i = 0; i < n; ++i) {
      Node rj = Named("rj-" + std::to_string(i));
      rj.Set("replicas", Node::Int(1));
      rjs.items.push_back(std::move(rj));
    }
    model.run_time_s = 3600;
    model.node_mttf_s = n * model.run_time_s / 5;
    model.runs = 10;
    for (int i = 0; i < n; ++i) {
      FaultKind kind;
      kind.reason = "BackoffLimitExceeded";
      kind.rjob_name = "rj-" + std::to_string(n - 1 - i);
      model.faults.push_back(kind);
    }
  } else if (name == "fault-mix-rules") {
    // 50,000 x scale rules, rule k restarting (without counting) on reason R-k, two in 500 with a
    // message pattern too, and as many fault kinds, kind k of reason R-k; 2 runs.
    const int n = 50000 * scale;
    object = PolicyJobSet(1, 100, n, 1'000'000'000, [](int k) {
      const std::string reason = "R-" + std::to_string(k);
      return PolicyRule("r-" + std::to_string(k), "RestartJobSetAndIgnoreMaxRestarts",
                        reason.c_str(), "",
                        k % 500 == 13 || k % 500 == 0 ? "exit code 1[0-9]$" : "");
    });
    model.run_time_s = 3600;
    model.node_mttf_s = 100 * model.run_time_s / 20;  // 20 failures per run.
    model.runs = 2;
    for (int k = 0; k < n; ++k) {
      FaultKind kind;
      kind.reason = "R-" + std::to_string(k);
      kind.message = "exit code " + std::to_string(k % 20);
      model.faults.push_back(kind);
    }
  } else if (name == "fault-mix-patterns") {
    // 20,000 x scale rules, rule k restarting (without counting) on the message pattern
    // `err-<k>( |$)`, and as many fault kinds, kind k with message "err-<k> on node": each message
    // matches one rule; 2 runs.
    const int n = 20000 * scale;
    object = PolicyJobSet(1, 100, n, 1'000'000'000, [](int k) {
      const std::string pattern = "err-" + std::to_string(k) + "( |$)";
      return PolicyRule("r-" + std::to_string(k), "RestartJobSetAndIgnoreMaxRestarts", "", "",
                        pattern.c_str());
    });
    model.run_time_s = 3600;
    model.node_mttf_s = 100 * model.run_time_s / 20;  // 20 failures per run.
    model.runs = 2;
    for (int k = 0; k < n; ++k) {
      FaultKind kind;
      kind.reason = "BackoffLimitExceeded";
      kind.message = "err-" + std::to_string(k) + " on node";
      model.faults.push_back(kind);
    }
  } else if (name == "framework-explain") {
    object = FrameworkRoles(20000 * scale, 10000, 0);  // The CRD's most tasks per role.
  } else if (name == "framework-replay") {
    // 200,000 x scale roles of one task, every task succeeding, the last role's first.
    const int n = 200000 * scale;
    object = FrameworkRoles(n, 1, 0);
    fw_steps.resize(1);
    for (int k = n - 1; k >= 0; --k) {
      fw_steps[0].push_back({"r" + std::to_string(k),
                             0,
                             {0, "Succeeded", CompletionType{true, false, false, false}}});
    }
  } else if (name == "framework-monte-carlo") {
    // 50,000 x scale roles of one task (failures retried), 20,000 x scale failures per run.
    object = FrameworkRoles(50000 * scale, 1, -1);
    fw_model.run_time_s = 3600;
    fw_model.node_mttf_s = 2.5 * fw_model.run_time_s;
    fw_model.task_restart_time_s = 0;
    fw_model.faults = DefaultFrameworkFaultMix();
    fw_model.runs = 2;
  } else if (name == "volcano-tasks") {
    object = VolcanoTasks(200000 * scale);
  } else {
    return false;
  }
  // The input: the object, and what the case feeds it as a user would write it (scenario
  // entries, fault mix items).
  size_t bytes = NodeToJsonText(object).size();
  for (const auto* step : {&first, &second}) {
    for (const JobFailure& f : *step) {
      bytes +=
          std::string(R"({"job":"rj-0/)" + std::to_string(f.index) + R"(","reason":")").size() +
          f.reason.size() + 3;
    }
  }
  for (const FrameworkStepSpec& step : fw_steps) {
    for (const TaskCompletionSpec& c : step) {
      bytes += std::string(R"({"task":")" + c.role + R"(/0","code":"Succeeded"},)").size();
    }
  }
  for (const FaultKind& k : model.faults) {
    if (name == "fault-mix-kinds" || name == "fault-mix-rules" || name == "fault-mix-patterns") {
      bytes += k.reason.size() + k.message.size() + k.rjob_name.size() + 4;
    }
  }
  std::string verdict;
  const double start = CpuSeconds();
  if (name == "policy-targets") {
    const PreparedPolicy p = PreparePolicy(DecodeJobSet(object), FeatureGates{});
    const int n = static_cast<int>(p.rjob_names.size());
    size_t ruled = 0;
    for (int k = 0; k < n; ++k) {
      for (const std::string& reason : JobFailureReasons()) {
        ruled += ExplainCell(p, k, reason).decision.rule >= 0;
      }
    }
    for (int k = n - 1; k >= 0; --k) first.push_back({k, 1, "PodFailurePolicy", "", n - k});
    ControllerState state;
    const StepOutcome out = ApplyFailures(p, &state, first);
    verdict = std::to_string(ruled) + " cells ruled, rule " + std::to_string(out.passes[0].rule) +
              " " + std::string(ActionName(out.passes[0].action));
  } else if (name == "targeted-reasons") {
    const PreparedPolicy p = PreparePolicy(DecodeJobSet(object), FeatureGates{});
    const int n = static_cast<int>(p.rules.size());
    size_t first = 0;
    for (int k = 0; k < n; ++k) {
      const std::string reason = "R-" + std::to_string(k + 1);
      first += Decide(p, 0, reason, "").rule == k;
      first += ExplainCell(p, 0, reason).decision.rule == k;
    }
    verdict = std::to_string(first) + " decisions and cells on their first rule";
  } else if (name == "stuck-steps") {
    const PreparedPolicy p = PreparePolicy(DecodeJobSet(object), FeatureGates{});
    ControllerState state;
    StepOutcome out;
    ApplyFailures(p, &state, first, &out);
    size_t stuck = 0;
    for (const JobFailure& f : second) {
      ApplyFailures(p, &state, std::span<const JobFailure>(&f, 1), &out);
      stuck += out.stuck;
    }
    verdict = std::to_string(state.pending.size()) + " pending, " + std::to_string(stuck) +
              " stuck steps";
  } else if (name == "restart-job-step" || name == "stuck-pending") {
    FeatureGates gates;
    gates.restart_job = name == "restart-job-step";
    const PreparedPolicy p = PreparePolicy(DecodeJobSet(object), gates);
    ControllerState state;
    StepOutcome out = ApplyFailures(p, &state, first);
    if (!second.empty()) out = ApplyFailures(p, &state, second);
    size_t ignored = 0;
    for (FailureFate f : out.fates) ignored += f == FailureFate::kIgnored;
    verdict = gates.restart_job ? std::to_string(out.passes.size()) + " passes"
                                : std::to_string(state.pending.size()) + " pending, " +
                                      std::to_string(ignored) + " ignored";
  } else if (name == "analysis-targets" || name == "analysis-chains") {
    std::vector<Finding> findings;
    FindingSink sink(object, &findings);
    AnalyzeJobSet(object, FeatureGates{}, &sink);
    verdict = std::to_string(findings.size()) + " findings";
  } else if (name == "monte-carlo-targets" || name == "fault-mix-kinds" ||
             name == "fault-mix-rules" || name == "fault-mix-patterns") {
    const JobSet js = DecodeJobSet(object);
    const PreparedPolicy p = PreparePolicy(js, FeatureGates{});
    const MonteCarloResult r = RunMonteCarlo(p, js, model, 1);
    verdict = r.error.empty() ? std::to_string(r.failures_simulated) + " failures, " +
                                    std::to_string(r.completed) + " completed"
                              : r.error;
  } else if (name == "framework-explain") {
    const FrameworkExplanation e = ExplainFrameworkSpec(DecodeFramework(object));
    verdict = e.all_succeed.verdict.message.substr(0, e.all_succeed.verdict.message.find(" and"));
  } else if (name == "framework-replay") {
    FrameworkReplayResult r;
    std::string error;
    ReplayFramework(DecodeFramework(object), fw_steps, &r, &error);
    verdict = error.empty() ? std::string(r.completed ? "completed" : "running") : error;
  } else if (name == "framework-monte-carlo") {
    const FrameworkMonteCarloResult r =
        RunFrameworkMonteCarlo(DecodeFramework(object), fw_model, 1);
    verdict = r.error.empty()
                  ? std::to_string(static_cast<int64_t>(r.mean_failures)) + " failures per run, " +
                        std::to_string(r.completed) + " completed"
                  : r.error;
  } else {
    const VolcanoJob job = DecodeVolcanoJob(object);
    VolcanoFailureModel m;
    m.node_mttf_s = 1e30;
    m.run_time_s = 3600;
    m.faults = DefaultVolcanoFaultMix();
    m.runs = 2;
    const VolcanoMonteCarloResult r = RunVolcanoMonteCarlo(job, m, 1);
    verdict = r.error.empty() ? std::to_string(r.completed) + " runs completed" : r.error;
  }
  const double seconds = CpuSeconds() - start;
  std::printf("%zu %.6f %s\n", bytes, seconds, verdict.c_str());
  return true;
}

// The cases that call a check on an object built in memory; prints "bytes seconds verdict".
bool RunObjectCase(const std::string& name, int scale) {
  Node object;
  std::vector<jobset::StepSpec> steps;
  if (name == "analysis-rules") {
    object = AnalysisRules(scale);
  } else if (name == "volcano-policies") {
    object = VolcanoPolicies(scale);
  } else if (name == "volume-claim-templates") {
    object = VolumeClaimTemplates(scale);
  } else if (name == "replay-steps") {
    object = ReplaySteps(scale, &steps);
  } else {
    return false;
  }
  const size_t bytes = jobset::NodeToJsonText(object).size();
  std::vector<jobset::Finding> findings;
  std::string verdict;
  const double start = CpuSeconds();
  if (name == "analysis-rules") {
    jobset::FindingSink sink(object, &findings);
    jobset::AnalyzeJobSet(object, jobset::FeatureGates{}, &sink);
  } else if (name == "volcano-policies") {
    jobset::AnalyzeVolcanoJob(object, object, &findings);
  } else if (name == "volume-claim-templates") {
    jobset::FindingSink sink(object, &findings);
    jobset::ValidateWebhookCreate(object, jobset::FeatureGates{}, &sink);
  } else {
    const jobset::PreparedPolicy policy =
        jobset::PreparePolicy(jobset::DecodeJobSet(object), jobset::FeatureGates{});
    jobset::ReplayResult result;
    std::string error;
    bool ok = jobset::Replay(policy, steps, &result, &error);
    verdict = std::to_string(result.steps.size()) + " steps" + (ok ? "" : ", " + error);
  }
  const double seconds = CpuSeconds() - start;
  if (verdict.empty()) verdict = std::to_string(findings.size()) + " findings";
  std::printf("%zu %.6f %s\n", bytes, seconds, verdict.c_str());
  return true;
}

// The pods of `state` in `phase`, over all tasks.
int64_t PodsIn(const jobset::VolcanoState& state, jobset::VolcanoPodPhase phase) {
  return state.pods.JobCounts()[phase];
}

// The Volcano simulations of many pods (issue #19, Volcano pod model): each request, restart,
// explain cell or run costs the job's pods; prints "bytes seconds verdict".
bool RunVolcanoCase(const std::string& name, int scale) {
  using namespace jobset;
  constexpr int64_t kPods = 1'000'000;  // The most pods explain and simulate model.
  constexpr int64_t kMaxRetry = 2'147'483'647;
  Node object;
  std::vector<VolcanoStep> steps;
  VolcanoFailureModel model;
  if (name == "volcano-steps") {
    // One task of the most pods; each step evicts one pod, and PodEvicted restarts the job.
    object = VolcanoPodJob(1, kPods, kMaxRetry, {{"PodEvicted", "RestartJob"}});
    const int n = kVolcanoSteps * scale;
    for (int i = 0; i < n; ++i) {
      steps.push_back({{"t0", i * int64_t{7919} % kPods, "PodEvicted", false, 0, ""}});
    }
  } else if (name == "volcano-sync-requests") {
    // One step of PodFailed events on distinct pods, no policy: each request is a SyncJob.
    object = VolcanoPodJob(1, kPods, 0, {});
    const int n = kVolcanoSyncRequests * scale;
    steps.resize(1);
    for (int i = 0; i < n; ++i)
      steps[0].push_back({"t0", i * (kPods / n), "PodFailed", true, 1, ""});
  } else if (name == "volcano-explain-tasks") {
    object = VolcanoPodJob(kVolcanoExplainTasks * scale, kVolcanoExplainReplicas, 0, {});
  } else if (name == "volcano-monte-carlo-pods") {
    // Every failure restarts its pod (the retries do not run out).
    object = VolcanoPodJob(1, kPods, kMaxRetry,
                           {{"PodEvicted", "RestartPod"}, {"PodFailed", "RestartPod"}});
    model.run_time_s = 3600;
    model.node_mttf_s =
        static_cast<double>(kPods) * model.run_time_s / (kVolcanoMonteCarloFailures * scale);
    model.restart_time_s = 60;
    model.job_restart_time_s = 30;
    model.faults = DefaultVolcanoFaultMix();
    model.runs = 4;
  } else {
    return false;
  }
  // The input: the object, and the steps as a scenario file would hold them.
  size_t bytes = NodeToJsonText(object).size();
  for (const VolcanoStep& step : steps) {
    bytes += std::string(R"({"events":[]},)").size();
    for (const VolcanoEventSpec& e : step) {
      bytes += (R"({"task":")" + e.task + R"(","index":)" + std::to_string(e.index) +
                R"(,"event":")" + e.event + R"(")" +
                (e.has_exit_code ? R"(,"exitCode":)" + std::to_string(e.exit_code) : "") + "},")
                   .size();
    }
  }
  std::string verdict, error;
  VolcanoReplayResult replay;
  bool replayed = false;
  const double start = CpuSeconds();
  const VolcanoJob job = DecodeVolcanoJob(object);
  if (name == "volcano-steps" || name == "volcano-sync-requests") {
    replayed = ReplayVolcano(job, steps, &replay, &error);
  } else if (name == "volcano-explain-tasks") {
    const std::vector<VolcanoExplainCell> cells = ExplainVolcanoJob(job);
    const std::vector<VolcanoDeadPolicy> dead = DeadVolcanoPolicies(job, cells);
    // The summary's lines, as `explain` writes them: the first 100 tasks whose failed pod no
    // policy handles.
    int64_t failed = 0, lines = 0;
    for (const VolcanoExplainCell& c : cells) {
      if (c.event != "PodFailed" || c.has_exit_code || c.task < 0) continue;
      if (c.outcome.events[0].match.kind != VolcanoMatchKind::kNone || ++lines > 100) continue;
      VolcanoPhase end = VolcanoPhase::kRunning;
      failed +=
          PhaseWhenOthersSucceed(job, c.task, c.exit_code, &end) && end == VolcanoPhase::kFailed;
    }
    verdict = std::to_string(cells.size()) + " cells, " + std::to_string(dead.size()) +
              " dead policies, " + std::to_string(failed) + " tasks end Failed";
  } else {
    const VolcanoMonteCarloResult r = RunVolcanoMonteCarlo(job, model, 1);
    verdict = r.error.empty()
                  ? std::to_string(static_cast<int64_t>(r.mean_failures)) + " failures per run, " +
                        std::to_string(r.completed) + " completed"
                  : r.error;
  }
  const double seconds = CpuSeconds() - start;
  if (name == "volcano-steps" || name == "volcano-sync-requests") {
    verdict = replayed ? std::string(VolcanoPhaseName(replay.state.phase)) + ", retry " +
                             std::to_string(replay.state.retry_count) + ", " +
                             std::to_string(PodsIn(replay.state, VolcanoPodPhase::kFailed)) +
                             " pods Failed"
                       : error;
  }
  std::printf("%zu %.6f %s\n", bytes, seconds, verdict.c_str());
  return true;
}

// Runs one case; prints "bytes seconds verdict".
int RunOne(const std::string& name, int scale) {
  if (RunObjectCase(name, scale) || RunSimulationCase(name, scale) || RunVolcanoCase(name, scale))
    return 0;
  std::string input;
  bool lint = true;
  if (name == "alias-bomb") {
    input = AliasBomb(scale);
  } else if (name == "near-limit-documents") {
    input = NearLimitDocuments(scale);
  } else if (name == "wide-mapping") {
    input = WideMapping(scale);
  } else if (name == "replicated-jobs-update") {
    input = ReplicatedJobsUpdate(scale), lint = false;
  } else if (name == "wide-labels-update") {
    input = WideLabelsUpdate(scale), lint = false;
  } else {
    std::fprintf(stderr, "hostile_bench: unknown case %s\n", name.c_str());
    return 2;
  }
  jobset::webhook::AdmissionOptions options;
  options.lint.schema = jobset::BuiltinJobSetSchema();
  const size_t bytes = input.size();
  const double start = CpuSeconds();
  std::string verdict;
  if (lint) {
    jobset::SourceFile f = jobset::ParseSource("hostile.yaml", std::move(input));
    size_t refused = 0, parsed = 0;
    for (const jobset::Document& d : f.documents) (d.parsed ? parsed : refused) += 1;
    verdict = std::to_string(parsed) + " parsed, " + std::to_string(refused) + " refused";
  } else {
    jobset::webhook::HttpReply reply = jobset::webhook::HandleAdmission(
        jobset::webhook::Endpoint::kValidateJobSet, "application/json", input, options);
    verdict = "HTTP " + std::to_string(reply.status) + " " + reply.verdict;
  }
  const double seconds = CpuSeconds() - start;
  std::printf("%zu %.6f %s\n", bytes, seconds, verdict.c_str());
  return 0;
}

// Runs a case in a child; fills in its output and peak resident set.
bool RunChild(const char* self, const std::string& name, int scale, std::string* out,
              long* maxrss_kb) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    std::string s = std::to_string(scale);
    execl(self, self, "--one", name.c_str(), s.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out->append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) return false;
  *maxrss_kb = usage.ru_maxrss;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--one") == 0) return RunOne(argv[2], std::atoi(argv[3]));
  std::vector<std::string> cases;
  for (int i = 1; i < argc; ++i) cases.push_back(argv[i]);
  if (cases.empty()) cases.assign(std::begin(kCases), std::end(kCases));
  std::printf("%-24s %5s %12s %10s %8s %11s  %s\n", "case", "scale", "input bytes", "CPU ms",
              "x of 1x", "peak RSS MB", "verdict");
  for (const std::string& name : cases) {
    double base = 0;
    for (int scale : {1, 2, 4}) {
      std::string out;
      long rss = 0;
      if (!RunChild(argv[0], name, scale, &out, &rss)) {
        std::printf("%-24s %5d failed: %s\n", name.c_str(), scale, out.c_str());
        return 1;
      }
      size_t bytes = 0;
      double seconds = 0;
      char verdict[256] = "";
      std::sscanf(out.c_str(), "%zu %lf %255[^\n]", &bytes, &seconds, verdict);
      if (scale == 1) base = seconds;
      std::printf("%-24s %4dx %12zu %10.1f %8.2f %11.1f  %s\n", name.c_str(), scale, bytes,
                  seconds * 1000, base > 0 ? seconds / base : 0.0, rss / 1024.0, verdict);
      std::fflush(stdout);
    }
  }
  return 0;
}
