// The lint benchmark: a generator of realistic JobSet manifests and a harness that measures, in
// one process and one run, yaml-cpp's own event parser (the baseline), our loader (the document
// model) and the full lint, then LintFiles on one and two threads. See bench/README.md.
//
//   lint_bench generate DIR N [--seed S]   writes N JobSet files (2-6 KB) into DIR
//   lint_bench run DIR [--repeat R] [--only a,b,c,p,d]
//                                          measures and prints a table and a JSON line

#include <sys/resource.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <istream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "validation/core/loader.h"
#include "validation/core/node.h"
#include "validation/core/strings.h"
#include "validation/jobset/analysis.h"
#include "validation/jobset/defaults.h"
#include "validation/jobset/types.h"
#include "validation/jobset/validation.h"
#include "validation/lint/lint.h"
#include "validation/schema/schema.h"

namespace jobset::bench {
namespace {

namespace fs = std::filesystem;

// ============================================================================================
// Generator
// ============================================================================================

/// A small deterministic random source (SplitMix64). The standard distributions differ between
/// library implementations, so the generator draws only through these helpers and writes the
/// same files everywhere for the same seed.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  /// The next 64 random bits.
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// A uniform integer in [lo, hi].
  int Int(int lo, int hi) { return lo + static_cast<int>(Next() % (hi - lo + 1)); }
  /// True with probability `percent`/100.
  bool Chance(int percent) { return Int(0, 99) < percent; }
  /// One element of a non-empty list.
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Next() % v.size()];
  }
  /// `n` distinct elements of `v` (n <= v.size()), in the order they were drawn.
  template <typename T>
  std::vector<T> Sample(const std::vector<T>& v, size_t n) {
    std::vector<T> pool = v, out;
    for (size_t i = 0; i < n && !pool.empty(); ++i) {
      size_t k = Next() % pool.size();
      out.push_back(pool[k]);
      pool.erase(pool.begin() + static_cast<long>(k));
    }
    return out;
  }

 private:
  uint64_t state_;
};

const std::vector<std::string> kModels = {
    "llama",  "mixtral", "bert",      "resnet", "gpt",  "t5",    "vit", "whisper", "clip",
    "ranker", "embed",   "diffusion", "mnist",  "dlrm", "gemma", "moe", "wav2vec", "yolo"};
const std::vector<std::string> kTasks = {"pretrain", "finetune", "eval",     "sweep", "train",
                                         "infer",    "distill",  "ablation", "rlhf",  "dpo"};
const std::vector<std::string> kNamespaces = {"ml-research",  "team-vision", "team-speech",
                                              "llm-platform", "default",     "batch",
                                              "recsys-prod",  "training"};
const std::vector<std::string> kQueues = {"gpu-a100",  "gpu-h100", "tpu-v5e",
                                          "cpu-batch", "spot-gpu", "research"};
const std::vector<std::string> kRegistries = {"us-docker.pkg.dev/ml-prod/images",
                                              "ghcr.io/example-org", "registry.example.com/ml",
                                              "nvcr.io/nvidia", "docker.io/pytorch"};
const std::vector<std::string> kPatterns = {".*OOMKilled.*",
                                            "^NCCL (timeout|error).*",
                                            "Job has reached the specified backoff limit",
                                            "(?i)preempt(ed|ion)",
                                            ".*exit code 137.*",
                                            "^Pod was evicted: .*",
                                            "DeadlineExceeded: [0-9]+s",
                                            "ECC error on GPU [0-9]+",
                                            "checkpoint (save|load) failed",
                                            "node .* became NotReady"};
const std::vector<std::string> kEnvNames = {"WORLD_SIZE",
                                            "MASTER_PORT",
                                            "NCCL_DEBUG",
                                            "NCCL_IB_DISABLE",
                                            "NCCL_SOCKET_IFNAME",
                                            "OMP_NUM_THREADS",
                                            "PYTHONUNBUFFERED",
                                            "HF_HOME",
                                            "HF_DATASETS_CACHE",
                                            "TRANSFORMERS_CACHE",
                                            "WANDB_PROJECT",
                                            "WANDB_MODE",
                                            "LOG_LEVEL",
                                            "CHECKPOINT_DIR",
                                            "DATA_DIR",
                                            "OUTPUT_DIR",
                                            "BATCH_SIZE",
                                            "LEARNING_RATE",
                                            "NUM_EPOCHS",
                                            "SEED",
                                            "GRAD_ACCUM_STEPS",
                                            "MAX_SEQ_LEN",
                                            "WARMUP_STEPS",
                                            "EVAL_INTERVAL",
                                            "SAVE_INTERVAL",
                                            "MIXED_PRECISION",
                                            "TORCH_CUDNN_V8_API",
                                            "CUDA_DEVICE_MAX_CONNECTIONS",
                                            "XLA_FLAGS",
                                            "JAX_PLATFORMS",
                                            "TPU_STDERR_LOG_LEVEL",
                                            "GCS_BUCKET",
                                            "S3_ENDPOINT",
                                            "AWS_REGION",
                                            "DATASET_NAME",
                                            "TOKENIZER_PATH",
                                            "ENABLE_PROFILING",
                                            "PROFILE_STEPS",
                                            "METRICS_PORT",
                                            "HEALTH_PORT",
                                            "GLOO_SOCKET_IFNAME",
                                            "TORCH_DISTRIBUTED_DEBUG",
                                            "TORCHELASTIC_MAX_RESTARTS",
                                            "RDZV_BACKEND",
                                            "RDZV_TIMEOUT"};
const std::vector<std::string> kEnvValues = {"\"1\"",
                                             "\"8\"",
                                             "\"29500\"",
                                             "INFO",
                                             "WARN",
                                             "\"true\"",
                                             "\"false\"",
                                             "/data",
                                             "/checkpoints",
                                             "/cache/huggingface",
                                             "gs://ml-datasets/c4/en",
                                             "s3://training-bucket/run",
                                             "bf16",
                                             "\"0.0003\"",
                                             "\"2048\"",
                                             "\"4096\"",
                                             "eth0",
                                             "c10d",
                                             "offline",
                                             "us-central1",
                                             "--xla_gpu_enable_latency_hiding_scheduler=true",
                                             "\"600\"",
                                             "\"42\"",
                                             "DETAIL"};
const std::vector<std::string> kCpus = {"\"2\"",  "\"4\"", "\"8\"", "\"16\"",
                                        "\"32\"", "500m",  "1500m"};
const std::vector<std::string> kMems = {"4Gi", "8Gi", "16Gi", "32Gi", "64Gi", "128Gi", "512Mi"};
const std::vector<std::string> kComments = {
    "# Generated by the lint benchmark; do not edit by hand.",
    "# Owner: ml-platform on-call (see the runbook before changing failure policy).",
    "# Restart on infrastructure failures; fail fast on user errors.",
    "# Keep replicas in sync with the quota of the queue.",
    "# TODO: move the data volume to a read-only snapshot.",
    "# The leader coordinates rendezvous for the workers."};

/// The shape of one replicated job, chosen before it is written.
struct RJobShape {
  std::string name;
  std::string container;
  int replicas = 1;
  int parallelism = 1;
  int env = 10;
  bool gpu = false;
  bool pod_failure_policy = false;
  bool sidecar = false;
  bool pfp_infra = false;   ///< Its pod failure policy fails the Job on disruptions only.
  bool deadline = false;    ///< The Job sets activeDeadlineSeconds.
  bool per_index = false;   ///< The Job sets backoffLimitPerIndex (and completionMode Indexed).
  bool max_failed = false;  ///< With per_index: the Job sets maxFailedIndexes too.
  bool flow_env = false;    ///< env items in flow style: `- {name: X, value: Y}`.
  bool lean = false;        ///< An auxiliary job: no failure handling, placement, volumes or ports.
};

/// The Job failure reasons a replicated job's Job template can produce (what the linter's
/// failure-policy analysis checks rules against).
std::vector<std::string> ReachableReasons(const RJobShape& rj) {
  std::vector<std::string> r = {"BackoffLimitExceeded"};
  if (rj.lean) return r;
  if (rj.deadline) r.push_back("DeadlineExceeded");
  if (rj.per_index) r.push_back("FailedIndexes");
  if (rj.per_index && rj.max_failed) r.push_back("MaxFailedIndexesExceeded");
  if (rj.pod_failure_policy) r.push_back("PodFailurePolicy");  // its first rule is FailJob
  return r;
}

/// Writes the indented lines of one document into a string.
class Writer {
 public:
  /// Appends `line` at indentation `indent` (in spaces) and a newline.
  void Line(int indent, std::string_view line) {
    out_.append(static_cast<size_t>(indent), ' ');
    out_.append(line);
    out_.push_back('\n');
  }
  std::string& str() { return out_; }

 private:
  std::string out_;
};

std::string Str(int64_t v) { return std::to_string(v); }

void WriteEnv(Rng& rng, Writer& w, int indent, int count, const RJobShape& rj) {
  w.Line(indent, "env:");
  std::vector<std::string> names = rng.Sample(kEnvNames, static_cast<size_t>(count));
  for (size_t i = 0; i < names.size(); ++i) {
    if (i == 0 && !rj.lean) {
      w.Line(indent, "- name: POD_NAME");
      w.Line(indent + 2, "valueFrom:");
      w.Line(indent + 4, "fieldRef:");
      w.Line(indent + 6, "fieldPath: metadata.name");
      continue;
    }
    if (i == 1 && rj.replicas * rj.parallelism > 1) {
      w.Line(indent, "- name: JOB_INDEX");
      w.Line(indent + 2, "valueFrom:");
      w.Line(indent + 4, "fieldRef:");
      w.Line(indent + 6, "fieldPath: metadata.annotations['jobset.sigs.k8s.io/job-index']");
      continue;
    }
    if (rj.flow_env) {
      w.Line(indent, "- {name: " + names[i] + ", value: " + rng.Pick(kEnvValues) + "}");
    } else {
      w.Line(indent, "- name: " + names[i]);
      w.Line(indent + 2, "value: " + rng.Pick(kEnvValues));
    }
  }
}

void WriteResources(Rng& rng, Writer& w, int indent, bool gpu, bool flow) {
  std::string cpu = rng.Pick(kCpus), mem = rng.Pick(kMems);
  if (flow) {
    w.Line(indent, "resources:");
    w.Line(indent + 2, "requests: {cpu: " + cpu + ", memory: " + mem + "}");
    w.Line(indent + 2, "limits: {memory: " + mem + "}");
    return;
  }
  w.Line(indent, "resources:");
  w.Line(indent + 2, "requests:");
  w.Line(indent + 4, "cpu: " + cpu);
  w.Line(indent + 4, "memory: " + mem);
  if (gpu) w.Line(indent + 4, "nvidia.com/gpu: " + Str(rng.Pick(std::vector<int>{1, 2, 4, 8})));
  w.Line(indent + 2, "limits:");
  w.Line(indent + 4, "memory: " + mem);
  if (gpu) w.Line(indent + 4, "nvidia.com/gpu: " + Str(rng.Int(1, 8)));
}

void WriteReplicatedJob(Rng& rng, Writer& w, const RJobShape& rj, const std::string& image) {
  w.Line(2, "- name: " + rj.name);
  w.Line(4, "replicas: " + Str(rj.replicas));
  if (rng.Chance(20)) w.Line(4, "groupName: " + std::string(rng.Chance(50) ? "default" : "main"));
  w.Line(4, "template:");
  w.Line(6, "spec:");
  w.Line(8, "parallelism: " + Str(rj.parallelism));
  w.Line(8, "completions: " + Str(rj.parallelism));
  if (!rj.lean && rj.per_index) {
    w.Line(8, "completionMode: Indexed");
    w.Line(8, "backoffLimitPerIndex: " + Str(rng.Int(1, 3)));
    if (rj.max_failed) w.Line(8, "maxFailedIndexes: " + Str(rng.Int(1, rj.parallelism)));
  } else {
    w.Line(8, "backoffLimit: " + Str(rj.pod_failure_policy ? rng.Int(0, 6) : rng.Int(0, 3)));
    if (!rj.lean && rng.Chance(40)) w.Line(8, "completionMode: Indexed");
  }
  if (!rj.lean && rj.deadline) w.Line(8, "activeDeadlineSeconds: " + Str(rng.Int(1, 48) * 3600));
  if (rj.pod_failure_policy && !rj.lean) {
    w.Line(8, "podFailurePolicy:");
    w.Line(10, "rules:");
    auto exit_codes = [&](const char* action, const char* op, const std::string& values) {
      w.Line(10, std::string("- action: ") + action);
      w.Line(12, "onExitCodes:");
      w.Line(14, "containerName: " + rj.container);
      w.Line(14, std::string("operator: ") + op);
      w.Line(14, "values: [" + values + "]");
    };
    auto disruption = [&](const char* action) {
      w.Line(10, std::string("- action: ") + action);
      w.Line(12, "onPodConditions:");
      w.Line(12, "- type: DisruptionTarget");
      if (rng.Chance(50)) w.Line(14, "status: \"True\"");
    };
    if (rj.pfp_infra) {
      // Evictions and preemptions fail the Job at once; the JobSet restarts it.
      disruption("FailJob");
      if (rng.Chance(50)) exit_codes("Ignore", "In", "143");
    } else {
      // Known fatal exit codes fail the Job at once.
      std::string values;
      int n = rng.Int(1, 4);
      for (int k = 0; k < n; ++k) values += (k ? ", " : "") + Str(1 + k * 7);
      exit_codes("FailJob", "In", values);
      if (rng.Chance(50)) disruption("Ignore");
      if (rng.Chance(30)) exit_codes("Count", "NotIn", "0");
    }
  }
  w.Line(8, "template:");
  if (rj.lean) {
    w.Line(10, "metadata: {labels: {app.kubernetes.io/component: " + rj.name + "}}");
  } else {
    w.Line(10, "metadata:");
    w.Line(12, "labels:");
    w.Line(14, "app.kubernetes.io/component: " + rj.name);
    if (rng.Chance(50)) w.Line(14, "sidecar.istio.io/inject: \"false\"");
  }
  if (!rj.lean && rng.Chance(30)) {
    w.Line(12, "annotations:");
    w.Line(14, "cluster-autoscaler.kubernetes.io/safe-to-evict: \"false\"");
  }
  w.Line(10, "spec:");
  w.Line(12, "restartPolicy: Never");
  if (rng.Chance(60)) w.Line(12, "serviceAccountName: " + rj.container + "-sa");
  if (rng.Chance(30)) w.Line(12, "terminationGracePeriodSeconds: " + Str(rng.Int(3, 12) * 10));
  if (rj.lean) {
    w.Line(12, "nodeSelector: {kubernetes.io/arch: amd64}");
    w.Line(12, "containers:");
    w.Line(12, "- name: " + rj.container);
    w.Line(14, "image: " + image);
    w.Line(14, "command: [\"python\", \"-m\", \"" + rj.name + "\"]");
    WriteEnv(rng, w, 14, rj.env, rj);
    WriteResources(rng, w, 14, false, true);
    return;
  }
  w.Line(12, "nodeSelector:");
  if (rj.gpu) {
    w.Line(14, "cloud.google.com/gke-accelerator: " +
                   rng.Pick(std::vector<std::string>{"nvidia-a100-80gb", "nvidia-h100-80gb",
                                                     "nvidia-l4"}));
  }
  w.Line(14, "kubernetes.io/arch: amd64");
  if (rng.Chance(40)) w.Line(14, "node.kubernetes.io/instance-type: n2-highmem-32");
  w.Line(12, "tolerations:");
  if (rj.gpu) {
    w.Line(12, "- key: nvidia.com/gpu");
    w.Line(14, "operator: Exists");
    w.Line(14, "effect: NoSchedule");
  }
  w.Line(12, "- key: cloud.google.com/gke-spot");
  w.Line(14, "operator: Equal");
  w.Line(14, "value: \"true\"");
  w.Line(14, "effect: NoSchedule");
  w.Line(12, "containers:");
  w.Line(12, "- name: " + rj.container);
  w.Line(14, "image: " + image);
  if (rng.Chance(50)) w.Line(14, "imagePullPolicy: IfNotPresent");
  w.Line(14, "command: [\"python\", \"-m\", \"" + rj.container + "\"]");
  w.Line(14, "args:");
  w.Line(14, "- --config=/etc/config/" + rj.name + ".yaml");
  w.Line(14, "- --steps=" + Str(rng.Int(1, 100) * 1000));
  if (rj.name == "leader" || rj.name == "driver" || rj.name == "coordinator") {
    w.Line(14, "ports:");
    w.Line(14, "- containerPort: 29500");
    w.Line(16, "name: rendezvous");
  }
  WriteEnv(rng, w, 14, rj.env, rj);
  WriteResources(rng, w, 14, rj.gpu, rj.flow_env && rng.Chance(50));
  w.Line(14, "volumeMounts:");
  w.Line(14, "- name: data");
  w.Line(16, "mountPath: /data");
  w.Line(16, "readOnly: true");
  w.Line(14, "- name: dshm");
  w.Line(16, "mountPath: /dev/shm");
  if (rj.sidecar) {
    w.Line(12, "- name: metrics-exporter");
    w.Line(14, "image: " + kRegistries[0] + "/metrics-exporter:v0.9.1");
    w.Line(14, "env:");
    for (const char* n : {"METRICS_PORT", "SCRAPE_INTERVAL", "LOG_LEVEL"}) {
      w.Line(14, std::string("- name: ") + n);
      w.Line(16, "value: " + rng.Pick(kEnvValues));
    }
    w.Line(14, "resources:");
    w.Line(16, "requests: {cpu: 100m, memory: 128Mi}");
    w.Line(16, "limits: {memory: 256Mi}");
  }
  w.Line(12, "volumes:");
  w.Line(12, "- name: data");
  w.Line(14, "persistentVolumeClaim:");
  w.Line(16, "claimName: " + rng.Pick(kModels) + "-dataset");
  w.Line(12, "- name: dshm");
  w.Line(14, "emptyDir:");
  w.Line(16, "medium: Memory");
}

/// The choices that make up one JobSet; the generator shrinks them until the text fits.
struct JobSetShape {
  std::string name, ns, queue, image;
  std::vector<RJobShape> rjobs;
  int rules = 1;
  bool network = false, success_policy = false;
};

JobSetShape ChooseShape(Rng& rng, int max_rjobs, int serial) {
  JobSetShape s;
  s.name = rng.Pick(kModels) + "-" + rng.Pick(kTasks) + "-" + Str(serial % 100000);
  s.ns = rng.Pick(kNamespaces);
  s.queue = rng.Pick(kQueues);
  s.image = rng.Pick(kRegistries) + "/" + rng.Pick(kModels) + ":v" + Str(rng.Int(0, 3)) + "." +
            Str(rng.Int(0, 20)) + "." + Str(rng.Int(0, 9));
  // 1-4 replicated jobs, 2 the most common (leader + workers).
  int roll = rng.Int(0, 99);
  int n = roll < 25 ? 1 : roll < 70 ? 2 : roll < 90 ? 3 : 4;
  n = std::min(n, max_rjobs);
  static const std::vector<std::vector<std::string>> kLayouts = {
      {"workers"},
      {"leader", "workers"},
      {"driver", "workers", "evaluator"},
      {"coordinator", "ps", "workers", "evaluator"}};
  static const std::vector<std::string> kContainers = {"trainer", "worker", "main", "jax"};
  bool gpu = rng.Chance(70);
  for (int i = 0; i < n; ++i) {
    RJobShape rj;
    rj.name = kLayouts[n - 1][i];
    rj.container = rng.Pick(kContainers);
    bool single = rj.name == "leader" || rj.name == "driver" || rj.name == "coordinator" ||
                  rj.name == "evaluator";
    rj.replicas = single ? 1 : rng.Pick(std::vector<int>{1, 2, 4, 8, 16, 32, 64});
    rj.parallelism = single ? 1 : rng.Pick(std::vector<int>{1, 2, 4, 8});
    rj.env = rng.Int(10, 30);
    rj.gpu = gpu && rj.name != "evaluator" && rj.name != "ps";
    rj.pod_failure_policy = rng.Chance(60);
    rj.pfp_infra = rng.Chance(50);
    rj.deadline = rng.Chance(25);
    rj.per_index = !single && rng.Chance(15);
    rj.max_failed = rng.Chance(50);
    rj.sidecar = rng.Chance(25);
    rj.flow_env = rng.Chance(30);
    s.rjobs.push_back(rj);
  }
  s.rules = rng.Int(1, 4);
  s.network = rng.Chance(50);
  s.success_policy = n > 1 && rng.Chance(40);
  return s;
}

/// One rule of spec.failurePolicy.
struct FailureRule {
  std::string name, action;
  std::vector<std::string> reasons, patterns, targets;
};

/// Whether rule `a`, placed earlier, matches every failure `b` matches (so `b` never fires).
bool Covers(const FailureRule& a, const FailureRule& b) {
  auto covers = [](const std::vector<std::string>& x, const std::vector<std::string>& y) {
    if (x.empty()) return true;
    if (y.empty()) return false;
    for (const std::string& e : y)
      if (!Contains(x, e)) return false;
    return true;
  };
  return covers(a.reasons, b.reasons) && covers(a.targets, b.targets) &&
         (a.patterns.empty() || (!b.patterns.empty() && covers(a.patterns, b.patterns)));
}

/// Failure policy rules as a careful author writes them: every reason can happen in a targeted
/// job, no rule is hidden behind an earlier one, and actions that ignore maxRestarts are kept
/// for failures that are not the application's fault (pod failure policy, deadline).
std::vector<FailureRule> ChooseRules(Rng& rng, const JobSetShape& s) {
  static const std::vector<std::string> kRuleNames = {
      "failOnUserError",   "restartOnPreemption",     "restartOnHardwareFailure", "failOnOOM",
      "ignoreMaintenance", "restart_on_nccl_timeout", "failFastOnDeadline",       "retryEviction"};
  std::vector<std::string> names = rng.Sample(kRuleNames, static_cast<size_t>(s.rules));
  std::vector<std::string> all_jobs;
  for (const RJobShape& rj : s.rjobs) all_jobs.push_back(rj.name);
  std::vector<FailureRule> rules;
  for (int r = 0; r < s.rules; ++r) {
    for (int attempt = 0; attempt < 8; ++attempt) {
      FailureRule rule;
      rule.name = names[static_cast<size_t>(r)];
      if (rng.Chance(60)) rule.targets = rng.Sample(all_jobs, static_cast<size_t>(rng.Int(1, 2)));
      std::vector<std::string> reachable;
      for (const RJobShape& rj : s.rjobs) {
        if (!rule.targets.empty() && !Contains(rule.targets, rj.name)) continue;
        for (const std::string& reason : ReachableReasons(rj))
          if (!Contains(reachable, reason)) reachable.push_back(reason);
      }
      bool last = r == s.rules - 1;
      if (!last || rng.Chance(70)) {
        rule.reasons = rng.Sample(reachable, static_cast<size_t>(rng.Int(1, 2)));
      }
      // Specific rules (with message patterns) first, broader ones last.
      if (rng.Chance(last ? 20 : 60)) {
        rule.patterns = rng.Sample(kPatterns, static_cast<size_t>(rng.Int(1, 2)));
      }
      // Deadlines and disruptions are not the application's fault; exit codes are.
      bool not_app_error = !rule.reasons.empty();
      for (const std::string& reason : rule.reasons) {
        if (reason == "DeadlineExceeded") continue;
        if (reason != "PodFailurePolicy") {
          not_app_error = false;
          continue;
        }
        for (const RJobShape& rj : s.rjobs) {
          bool targeted = rule.targets.empty() || Contains(rule.targets, rj.name);
          bool can_fail = Contains(ReachableReasons(rj), reason);
          if (targeted && can_fail && !rj.pfp_infra) not_app_error = false;
        }
      }
      rule.action = not_app_error
                        ? rng.Pick(std::vector<std::string>{"FailJobSet", "RestartJobSet",
                                                            "RestartJobSetAndIgnoreMaxRestarts"})
                        : rng.Pick(std::vector<std::string>{"FailJobSet", "RestartJobSet"});
      bool hidden = false;
      for (const FailureRule& earlier : rules) hidden |= Covers(earlier, rule);
      if (!hidden) {
        rules.push_back(std::move(rule));
        break;
      }
    }
  }
  return rules;
}

/// Whether some failure can end in an action that counts against maxRestarts: the first
/// matching rule, the rules after a rule whose message patterns may not match, or the default
/// action RestartJobSet when no rule matches.
bool MaxRestartsUsed(const JobSetShape& s, const std::vector<FailureRule>& rules) {
  for (const RJobShape& rj : s.rjobs) {
    for (const std::string& reason : ReachableReasons(rj)) {
      bool settled = false;
      for (const FailureRule& r : rules) {
        if (!r.reasons.empty() && !Contains(r.reasons, reason)) continue;
        if (!r.targets.empty() && !Contains(r.targets, rj.name)) continue;
        if (r.action == "RestartJobSet") return true;
        if (r.patterns.empty()) {
          settled = true;
          break;
        }
      }
      if (!settled) return true;  // the default action, RestartJobSet
    }
  }
  return false;
}

std::string RenderJobSet(uint64_t seed, const JobSetShape& s) {
  Rng rng(seed);  // the same decorations each time the shape is rendered again
  Writer w;
  if (rng.Chance(70)) w.Line(0, rng.Pick(kComments));
  w.Line(0, "apiVersion: jobset.x-k8s.io/v1alpha2");
  w.Line(0, "kind: JobSet");
  w.Line(0, "metadata:");
  w.Line(2, "name: " + s.name);
  w.Line(2, "namespace: " + s.ns);
  w.Line(2, "labels:");
  w.Line(4, "kueue.x-k8s.io/queue-name: " + s.queue);
  w.Line(4, "app.kubernetes.io/name: " + s.name);
  w.Line(4, "app.kubernetes.io/managed-by: kustomize");
  if (rng.Chance(50)) w.Line(4, "team: " + s.ns);
  if (rng.Chance(40)) {
    w.Line(2, "annotations:");
    w.Line(4, "alpha.jobset.sigs.k8s.io/exclusive-topology: cloud.google.com/gke-nodepool");
  }
  w.Line(0, "spec:");
  if (s.network) {
    w.Line(2, "network:");
    w.Line(4, "enableDNSHostnames: true");
    if (rng.Chance(50)) w.Line(4, "subdomain: " + s.name + "-svc");
  }
  if (rng.Chance(30)) w.Line(2, "suspend: " + std::string(rng.Chance(50) ? "true" : "false"));
  if (rng.Chance(30)) w.Line(2, "ttlSecondsAfterFinished: " + Str(rng.Int(1, 7) * 3600));
  if (s.success_policy) {
    w.Line(2, "successPolicy:");
    w.Line(4, std::string("operator: ") + (rng.Chance(50) ? "All" : "Any"));
    w.Line(4, "targetReplicatedJobs:");
    w.Line(4, "- " + s.rjobs.back().name);
  }
  w.Line(2, rng.Pick(kComments));
  std::vector<FailureRule> rules = ChooseRules(rng, s);
  w.Line(2, "failurePolicy:");
  int max_restarts = rng.Int(1, 10);
  if (MaxRestartsUsed(s, rules)) w.Line(4, "maxRestarts: " + Str(max_restarts));
  if (rng.Chance(50)) {
    w.Line(4,
           std::string("restartStrategy: ") + (rng.Chance(50) ? "Recreate" : "BlockingRecreate"));
  }
  w.Line(4, "rules:");
  for (const FailureRule& r : rules) {
    w.Line(4, "- name: " + r.name);
    w.Line(6, "action: " + r.action);
    if (!r.reasons.empty()) {
      w.Line(6, "onJobFailureReasons:");
      for (const std::string& reason : r.reasons) w.Line(6, "- " + reason);
    }
    if (!r.patterns.empty()) {
      w.Line(6, "onJobFailureMessagePatterns:");
      for (const std::string& p : r.patterns) w.Line(6, "- '" + p + "'");
    }
    if (!r.targets.empty()) {
      w.Line(6, "targetReplicatedJobs:");
      for (const std::string& t : r.targets) w.Line(6, "- " + t);
    }
  }
  w.Line(2, "replicatedJobs:");
  for (const RJobShape& rj : s.rjobs) WriteReplicatedJob(rng, w, rj, s.image);
  return std::move(w.str());
}

/// Renders a JobSet of the given shape, shrinking it until it is at most `max_bytes` (no
/// sidecars, pod failure policies only on the first replicated job, flow-style env, lean
/// auxiliary jobs with fewer env vars, fewer failure policy rules, fewer env vars in the first
/// job, no pod failure policy, a lean first job, then fewer replicated jobs), and growing the
/// env lists while it is under `min_bytes`.
std::string RenderFitting(uint64_t seed, JobSetShape s, size_t min_bytes, size_t max_bytes) {
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::string text = RenderJobSet(seed, s);
    bool main_env_above_min = false, aux_env_above_min = false, env_below_max = false,
         sidecars = false, later_pfp = false, later_full = false, block_env = false;
    for (size_t i = 0; i < s.rjobs.size(); ++i) {
      (i == 0 ? main_env_above_min : aux_env_above_min) |= s.rjobs[i].env > 10;
      env_below_max |= s.rjobs[i].env < 30;
      sidecars |= s.rjobs[i].sidecar;
      later_pfp |= i > 0 && s.rjobs[i].pod_failure_policy;
      later_full |= i > 0 && !s.rjobs[i].lean;
      block_env |= !s.rjobs[i].flow_env;
    }
    if (text.size() > max_bytes) {
      if (sidecars) {
        for (RJobShape& rj : s.rjobs) rj.sidecar = false;
      } else if (later_pfp) {
        for (size_t i = 1; i < s.rjobs.size(); ++i) s.rjobs[i].pod_failure_policy = false;
      } else if (block_env) {
        for (RJobShape& rj : s.rjobs) rj.flow_env = true;
      } else if (later_full) {
        // The auxiliary jobs become lean, the last one first.
        for (size_t i = s.rjobs.size() - 1; i > 0; --i) {
          if (!s.rjobs[i].lean) {
            s.rjobs[i].lean = true;
            break;
          }
        }
      } else if (aux_env_above_min) {
        for (size_t i = 1; i < s.rjobs.size(); ++i) {
          s.rjobs[i].env = std::max(10, s.rjobs[i].env - 2);
        }
      } else if (s.rules > 1) {
        --s.rules;
      } else if (main_env_above_min) {
        s.rjobs[0].env = std::max(10, s.rjobs[0].env - 2);
      } else if (s.rjobs[0].pod_failure_policy) {
        s.rjobs[0].pod_failure_policy = false;
      } else if (!s.rjobs[0].lean) {
        s.rjobs[0].lean = true;
      } else if (s.rjobs.size() > 1) {
        s.rjobs.pop_back();
      } else {
        return text;
      }
      continue;
    }
    if (text.size() < min_bytes && env_below_max) {
      for (RJobShape& rj : s.rjobs) rj.env = std::min(30, rj.env + 3);
      continue;
    }
    return text;
  }
  return RenderJobSet(seed, s);
}

/// A ConfigMap holding a training config, as often shipped in the same file as the JobSet.
std::string RenderConfigMap(Rng& rng, int serial) {
  Writer w;
  w.Line(0, "apiVersion: v1");
  w.Line(0, "kind: ConfigMap");
  w.Line(0, "metadata:");
  w.Line(2, "name: train-config-" + Str(serial));
  w.Line(2, "namespace: " + rng.Pick(kNamespaces));
  w.Line(0, "data:");
  w.Line(2, "config.yaml: |");
  w.Line(4, "model: " + rng.Pick(kModels));
  w.Line(4, "optimizer: {name: adamw, lr: 3.0e-4, weight_decay: 0.1}");
  w.Line(4, "batch_size: " + Str(rng.Int(1, 64) * 8));
  w.Line(4, "checkpoint_every: " + Str(rng.Int(1, 20) * 500));
  w.Line(4, "dataset: gs://ml-datasets/" + rng.Pick(kModels) + "/train");
  return std::move(w.str());
}

/// The text of generated file number `index`: usually one JobSet; some files hold a ConfigMap
/// and a JobSet, or two small JobSets.
std::string GenerateFile(uint64_t seed, int index) {
  uint64_t file_seed = seed * 0x100000001B3ull + static_cast<uint64_t>(index) * 0x9E3779B9ull;
  Rng rng(file_seed);
  int kind = rng.Int(0, 99);
  std::string head = rng.Chance(20) ? "---\n" : "";
  JobSetShape shape = ChooseShape(rng, 4, index);
  // Each file gets a size cap between 4 and 6 KB (higher for more replicated jobs), so sizes
  // spread over the range; small shapes stay smaller than their cap.
  int low = 4096 + 512 * (static_cast<int>(shape.rjobs.size()) - 1);
  size_t cap = static_cast<size_t>(rng.Int(low, 6144)) - head.size();
  if (kind < 85) {  // one JobSet
    return head + RenderFitting(rng.Next(), shape, 2048, cap);
  }
  if (kind < 95) {  // its config, then the JobSet
    std::string config = RenderConfigMap(rng, index);
    return head + config + "---\n" +
           RenderFitting(rng.Next(), shape, 2048, cap - config.size() - 4);
  }
  // Two JobSets (an experiment and its evaluation), one replicated job each.
  size_t half = (6144 - head.size() - 4) / 2;
  std::string a = RenderFitting(rng.Next(), ChooseShape(rng, 1, index), 1024, half);
  std::string b = RenderFitting(rng.Next(), ChooseShape(rng, 1, index + 1), 1024, half);
  return head + a + "---\n" + b;
}

int Generate(const std::string& dir, int count, uint64_t seed) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::cerr << "lint_bench: " << dir << ": " << ec.message() << "\n";
    return 2;
  }
  size_t bytes = 0, smallest = SIZE_MAX, largest = 0;
  for (int i = 0; i < count; ++i) {
    std::string text = GenerateFile(seed, i);
    char name[32];
    std::snprintf(name, sizeof name, "jobset-%05d.yaml", i);
    std::ofstream out(fs::path(dir) / name, std::ios::binary);
    out << text;
    if (!out) {
      std::cerr << "lint_bench: cannot write " << (fs::path(dir) / name).string() << "\n";
      return 2;
    }
    bytes += text.size();
    smallest = std::min(smallest, text.size());
    largest = std::max(largest, text.size());
  }
  std::printf("generated %d files in %s: %.1f MB, %zu-%zu bytes, mean %.0f bytes (seed %" PRIu64
              ")\n",
              count, dir.c_str(), static_cast<double>(bytes) / 1e6, smallest, largest,
              static_cast<double>(bytes) / std::max(count, 1), seed);
  return 0;
}

// ============================================================================================
// Measurement
// ============================================================================================

/// An istream buffer over memory we already hold (as the loader reads), so no copy is made.
class MemoryBuf : public std::streambuf {
 public:
  MemoryBuf(const char* begin, const char* end) {
    char* b = const_cast<char*>(begin);
    setg(b, b, const_cast<char*>(end));
  }
};

/// yaml-cpp's event handler interface, doing nothing: the cost of the parser alone.
class NullHandler : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { ++events; }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { ++events; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string& value) override {
    ++events;
    bytes += value.size();
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    ++events;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    ++events;
  }
  void OnMapEnd() override {}

  size_t events = 0;  ///< Values seen, so the work cannot be optimised away.
  size_t bytes = 0;
};

/// The files under test, read into memory before any timed loop.
struct Corpus {
  std::vector<std::string> paths;
  std::vector<std::string> texts;
  size_t bytes = 0;
  size_t documents = 0;  ///< Documents the loader finds.
  size_t objects = 0;    ///< JobSets the linter checks.
};

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// CPU time (user + system) of the whole process, all threads, in seconds.
double ProcessCpu() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// CPU time of the calling thread, in seconds.
double ThreadCpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double MedianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// Times of the repetitions of one measurement, in seconds: wall clock and the CPU time of the
/// whole process (all threads).
struct Samples {
  std::vector<double> wall, cpu;
  double Best() const { return *std::min_element(wall.begin(), wall.end()); }
  double Median() const { return MedianOf(wall); }
  double BestCpu() const { return *std::min_element(cpu.begin(), cpu.end()); }
  double MedianCpu() const { return MedianOf(cpu); }
  /// CPU seconds of the repetition with the best wall time.
  double CpuOfBest() const {
    return cpu[static_cast<size_t>(std::min_element(wall.begin(), wall.end()) - wall.begin())];
  }
};

/// Runs `body` once and records its wall and CPU time.
void Measure(Samples* s, const std::function<void()>& body) {
  double c0 = ProcessCpu(), t0 = Now();
  body();
  double t1 = Now(), c1 = ProcessCpu();
  s->wall.push_back(t1 - t0);
  s->cpu.push_back(c1 - c0);
}

size_t volatile g_sink = 0;  // results of timed loops go here so they are not optimised away

/// (a) yaml-cpp's event parser over every file: the baseline.
void RunBaseline(const Corpus& c) {
  size_t docs = 0, events = 0;
  for (const std::string& text : c.texts) {
    MemoryBuf buf(text.data(), text.data() + text.size());
    std::istream in(&buf);
    NullHandler handler;
    try {
      YAML::Parser parser(in);
      while (parser.HandleNextDocument(handler)) ++docs;
    } catch (const YAML::Exception&) {
    }
    events += handler.events;
  }
  g_sink = g_sink + docs + events;
}

/// (b) our loader only: text to document model.
void RunParse(const Corpus& c, const LoadLimits& limits) {
  size_t docs = 0;
  for (size_t i = 0; i < c.texts.size(); ++i) {
    SourceFile f = ParseSource(c.paths[i], c.texts[i], limits);
    docs += f.documents.size();
  }
  g_sink = g_sink + docs;
}

/// (c) the full lint of every file, as LintFiles does it minus the disk: ParseSource then
/// LintSource. Returns the number of error findings.
size_t RunLint(const Corpus& c, const LintOptions& options) {
  size_t errors = 0, findings = 0;
  for (size_t i = 0; i < c.texts.size(); ++i) {
    SourceFile f = ParseSource(c.paths[i], c.texts[i], options.limits);
    FileResult r = LintSource(f, options);
    for (const Finding& finding : r.findings) errors += finding.severity == Severity::kError;
    findings += r.findings.size();
  }
  g_sink = g_sink + findings;
  return errors;
}

/// CPU seconds spent in each phase of LintObject, measured one call at a time (the phases as
/// jobset/lint.cc runs them: copy, defaults, schema, API-server and webhook rules, analysis).
struct Phases {
  double parse = 0, copy = 0, defaults = 0, schema = 0, rules = 0, analysis = 0, lint_source = 0;
};

/// (p) the phases of the lint, timed separately on each object. Mirrors LintObject; the sum is
/// checked against (c) in the report.
void RunPhases(const Corpus& c, const LintOptions& options, Phases* p) {
  size_t n = 0;
  for (size_t i = 0; i < c.texts.size(); ++i) {
    double t0 = ThreadCpu();
    SourceFile f = ParseSource(c.paths[i], c.texts[i], options.limits);
    double t1 = ThreadCpu();
    p->parse += t1 - t0;
    for (const Document& doc : f.documents) {
      if (!doc.parsed || !IsJobSet(doc.root)) continue;
      double a = ThreadCpu();
      Node defaulted = doc.root;
      double b = ThreadCpu();
      std::vector<PatchOp> patch;
      ApplyCrdDefaults(&defaulted, &patch);
      ApplyWebhookDefaults(&defaulted, &patch);
      double d = ThreadCpu();
      std::vector<Finding> findings = ValidateSchema(*options.schema, defaulted);
      double e = ThreadCpu();
      FindingSink sink(defaulted, &findings);
      ValidateApiServerRules(defaulted, &sink);
      ValidateWebhookCreate(defaulted, options.gates, &sink);
      double g = ThreadCpu();
      AnalyzeJobSet(defaulted, options.gates, &sink);
      double h = ThreadCpu();
      p->copy += b - a;
      p->defaults += d - b;
      p->schema += e - d;
      p->rules += g - e;
      p->analysis += h - g;
      n += findings.size();
    }
    double t2 = ThreadCpu();
    FileResult r = LintSource(f, options);  // the whole of it again, for the overhead
    p->lint_source += ThreadCpu() - t2;
    n += r.findings.size();
  }
  g_sink = g_sink + n;
}

bool LoadCorpus(const std::string& dir, Corpus* c) {
  std::string error;
  if (!ExpandPaths({dir}, /*recursive=*/false, &c->paths, &error)) {
    std::cerr << "lint_bench: " << error << "\n";
    return false;
  }
  for (const std::string& p : c->paths) {
    std::ifstream in(p, std::ios::binary);
    c->texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    c->bytes += c->texts.back().size();
  }
  return !c->paths.empty();
}

/// The 1-minute load average, or -1 when unknown.
double LoadAverage() {
  double load[1];
  return getloadavg(load, 1) == 1 ? load[0] : -1;
}

std::string Fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

/// One row of the single-thread table.
struct Row {
  std::string id, what;
  const Samples* s;
};

int Run(const std::string& dir, int repeat, const std::string& only) {
  auto want = [&](char k) { return only.empty() || only.find(k) != std::string::npos; };
  double load_before = LoadAverage();
  Corpus c;
  if (!LoadCorpus(dir, &c)) {
    std::cerr << "lint_bench: no .yaml files in " << dir << "\n";
    return 2;
  }
  LintOptions options;
  options.schema = BuiltinJobSetSchema();
  if (!options.schema) {
    std::cerr << "lint_bench: the built-in schema does not compile\n";
    return 2;
  }
  // Untimed pass: counts documents and objects, checks the corpus is clean, warms caches and
  // the allocator.
  size_t errors = 0, warnings = 0;
  for (size_t i = 0; i < c.texts.size(); ++i) {
    SourceFile f = ParseSource(c.paths[i], c.texts[i], options.limits);
    c.documents += f.documents.size();
    FileResult r = LintSource(f, options);
    c.objects += static_cast<size_t>(r.objects);
    for (const Finding& finding : r.findings) {
      if (finding.severity == Severity::kError) {
        if (errors++ < 3) {
          std::cerr << "note: " << finding.file << ":" << finding.mark.line << ": "
                    << finding.message << "\n";
        }
      } else if (finding.severity == Severity::kWarning) {
        ++warnings;
      }
    }
  }
  if (want('a')) RunBaseline(c);  // warms yaml-cpp's own path too
  double mb = static_cast<double>(c.bytes) / 1e6;
  double docs = static_cast<double>(c.documents);
  std::printf(
      "corpus: %zu files, %zu documents (%zu JobSets), %.2f MB, mean %.0f bytes/file; "
      "%zu errors, %zu warnings\n",
      c.paths.size(), c.documents, c.objects, mb,
      static_cast<double>(c.bytes) / static_cast<double>(c.paths.size()), errors, warnings);
  std::printf("repetitions: %d (interleaved a, b, c; best of them reported, median in JSON)\n\n",
              repeat);

  Samples a, b, l, d1, d2;
  for (int r = 0; r < repeat; ++r) {
    if (want('a')) Measure(&a, [&] { RunBaseline(c); });
    if (want('b')) Measure(&b, [&] { RunParse(c, options.limits); });
    if (want('c')) Measure(&l, [&] { RunLint(c, options); });
  }
  Phases ph;
  if (want('p')) RunPhases(c, options, &ph);
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (want('d')) {
    for (int r = 0; r < std::max(3, repeat / 2); ++r) {
      Measure(&d1, [&] { g_sink = g_sink + LintFiles(c.paths, options, 1).size(); });
      Measure(&d2, [&] { g_sink = g_sink + LintFiles(c.paths, options, 2).size(); });
    }
  }

  nlohmann::ordered_json j;
  j["files"] = c.paths.size();
  j["documents"] = c.documents;
  j["jobsets"] = c.objects;
  j["bytes"] = c.bytes;
  j["errors"] = errors;
  j["repeat"] = repeat;
  j["nproc"] = cores;

  // Single-thread figures use CPU time: what one core spends, and robust when other processes
  // share the machine. Wall time is shown next to it.
  std::printf(
      "single thread, files in memory         wall s    CPU s  docs/s/core  MB/s  "
      "CPU vs (a)\n");
  std::vector<Row> rows = {{"a", "yaml-cpp event parser (baseline)", &a},
                           {"b", "ParseSource (document model)", &b},
                           {"c", "ParseSource + LintSource (full lint)", &l}};
  double base = a.cpu.empty() ? 0 : a.BestCpu();
  for (const Row& row : rows) {
    if (row.s->cpu.empty()) continue;
    double t = row.s->BestCpu();
    std::printf("(%s) %-36s %6.3f %8.3f %12.0f %5.2f %11s\n", row.id.c_str(), row.what.c_str(),
                row.s->Best(), t, docs / t, mb / t,
                base > 0 ? Fmt("%.2fx", t / base).c_str() : "-");
    j[row.id] = {{"cpu_best_s", t},
                 {"cpu_median_s", row.s->MedianCpu()},
                 {"wall_best_s", row.s->Best()},
                 {"wall_median_s", row.s->Median()},
                 {"docs_per_s_per_core", docs / t},
                 {"jobsets_per_s_per_core", static_cast<double>(c.objects) / t},
                 {"mb_per_s_per_core", mb / t}};
  }
  if (!a.cpu.empty() && !b.cpu.empty() && !l.cpu.empty()) {
    double ca = l.BestCpu() / a.BestCpu(), ba = b.BestCpu() / a.BestCpu();
    double bc = b.BestCpu() / l.BestCpu();
    std::printf("\nratio (c)/(a) = %.2f   (goal <= 1.25: %s; wall-clock ratio %.2f)\n", ca,
                ca <= 1.25 ? "met" : "NOT met", l.Best() / a.Best());
    std::printf("ratio (b)/(a) = %.2f   (wall-clock ratio %.2f)\n", ba, b.Best() / a.Best());
    std::printf("share of (c) spent in (b), parsing YAML into the model = %.0f%%\n", 100 * bc);
    std::printf("yaml-cpp's event parser alone (a) takes %.2fx the full lint (c)\n",
                a.BestCpu() / l.BestCpu());
    std::printf("JobSets per second per core, full lint: %.0f\n",
                static_cast<double>(c.objects) / l.BestCpu());
    j["ratio_c_a"] = ca;
    j["ratio_b_a"] = ba;
    j["parse_share_of_lint"] = bc;
    j["goal_ratio_met"] = ca <= 1.25;
  }
  if (want('p')) {
    double total = ph.parse + ph.copy + ph.defaults + ph.schema + ph.rules + ph.analysis;
    std::printf("\nphases of (c), CPU time per call (one pass; LintSource's own total %.3f s)\n",
                ph.lint_source);
    std::vector<std::pair<const char*, double>> parts = {
        {"ParseSource (fast path / yaml-cpp + tree)", ph.parse},
        {"copy of the object (Node defaulted = object)", ph.copy},
        {"defaults (CRD + webhook)", ph.defaults},
        {"ValidateSchema (fast check, valijson if invalid)", ph.schema},
        {"API-server + webhook rules", ph.rules},
        {"AnalyzeJobSet (failure-policy analysis)", ph.analysis}};
    nlohmann::ordered_json jp;
    for (const auto& [what, t] : parts) {
      std::printf("    %-46s %7.3f s  %5.1f%%\n", what, t, 100 * t / total);
      jp[what] = t;
    }
    std::printf("    %-46s %7.3f s\n", "sum", total);
    j["phases_s"] = jp;
  }
  if (want('d')) {
    double t1 = d1.Best(), t2 = d2.Best();
    std::printf("\nLintFiles from disk (page cache warm)  wall s    CPU s   docs/s  cores busy\n");
    std::printf("    1 thread                           %6.3f %8.3f %8.0f %11.2f\n", t1,
                d1.CpuOfBest(), docs / t1, d1.CpuOfBest() / t1);
    std::printf("    2 threads                          %6.3f %8.3f %8.0f %11.2f\n", t2,
                d2.CpuOfBest(), docs / t2, d2.CpuOfBest() / t2);
    std::printf("    speed-up 2 threads / 1 thread = %.2fx on %d cores (best wall times)\n",
                t1 / t2, cores);
    j["lintfiles_1"] = {{"wall_best_s", t1},
                        {"wall_median_s", d1.Median()},
                        {"cpu_s", d1.CpuOfBest()},
                        {"docs_per_s", docs / t1},
                        {"cores_busy", d1.CpuOfBest() / t1}};
    j["lintfiles_2"] = {{"wall_best_s", t2},
                        {"wall_median_s", d2.Median()},
                        {"cpu_s", d2.CpuOfBest()},
                        {"docs_per_s", docs / t2},
                        {"cores_busy", d2.CpuOfBest() / t2}};
    j["speedup_2_threads"] = t1 / t2;
  }
  j["load_before"] = load_before;
  j["load_after"] = LoadAverage();
  std::printf("\nload average (1 min) before %.2f, after %.2f\n", load_before, LoadAverage());
  std::printf("\nJSON %s\n", j.dump().c_str());
  return errors == 0 ? 0 : 1;
}

int Usage() {
  std::cerr << "usage: lint_bench generate DIR N [--seed S]\n"
               "       lint_bench run DIR [--repeat R] [--only a,b,c,p,d]\n"
               "  a: yaml-cpp event parser  b: ParseSource  c: full lint  p: phases of the lint\n"
               "  d: LintFiles on 1 and 2 threads\n";
  return 2;
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 2) return Usage();
  auto flag = [&](const std::string& name, std::string fallback) {
    for (size_t i = 2; i + 1 < args.size(); ++i)
      if (args[i] == name) return args[i + 1];
    return fallback;
  };
  if (args[0] == "generate" && args.size() >= 3) {
    int n = std::atoi(args[2].c_str());
    uint64_t seed = std::strtoull(flag("--seed", "20240611").c_str(), nullptr, 10);
    if (n <= 0) return Usage();
    return Generate(args[1], n, seed);
  }
  if (args[0] == "run") {
    int repeat = std::max(1, std::atoi(flag("--repeat", "5").c_str()));
    return Run(args[1], repeat, flag("--only", ""));
  }
  return Usage();
}

}  // namespace
}  // namespace jobset::bench

int main(int argc, char** argv) { return jobset::bench::Main(argc, argv); }
