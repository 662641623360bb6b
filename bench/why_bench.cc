// The `why` benchmark: a generated dump of one large JobSet (3,000 Jobs, 12,000 Pods, their
// events, a history of restarts) in the shape `kubectl get ... -o json` prints, then the time to
// parse it (ParseWorkloadDump) and to diagnose it (DiagnoseJobSet). See bench/README.md.
//
//   why_bench [--jobs N] [--pods-per-job P] [--repeat R] [--write FILE]
//
// --write also saves the dump, to time the binary end to end:
//   kubectl-jobset why big -f FILE

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "validation/core/workload_dump.h"
#include "validation/jobset/why.h"

namespace {

using json = nlohmann::ordered_json;

std::string Time(int minutes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "2026-11-20T%02d:%02d:00Z", 8 + minutes / 60, minutes % 60);
  return buf;
}

json Labels(const std::string& job, int index, int attempt) {
  return {{"jobset.sigs.k8s.io/jobset-name", "big"},
          {"jobset.sigs.k8s.io/replicatedjob-name", "workers"},
          {"jobset.sigs.k8s.io/job-index", std::to_string(index)},
          {"jobset.sigs.k8s.io/restart-attempt", std::to_string(attempt)},
          {"batch.kubernetes.io/job-name", job}};
}

// A Pod spec of the usual size (a few KB): env, mounts, resources, tolerations.
json PodSpec(const std::string& node) {
  json env = json::array();
  for (int i = 0; i < 20; ++i)
    env.push_back({{"name", "TRAINING_SETTING_" + std::to_string(i)},
                   {"value", "value-of-setting-" + std::to_string(i)}});
  json mounts = json::array();
  for (int i = 0; i < 4; ++i)
    mounts.push_back(
        {{"name", "vol-" + std::to_string(i)}, {"mountPath", "/mnt/data/" + std::to_string(i)}});
  return {{"nodeName", node},
          {"restartPolicy", "Never"},
          {"containers",
           {{{"name", "trainer"},
             {"image", "registry.example.com/ml/trainer:1.4.2"},
             {"env", env},
             {"volumeMounts", mounts},
             {"resources",
              {{"limits", {{"nvidia.com/gpu", "8"}, {"memory", "900Gi"}}},
               {"requests", {{"cpu", "96"}, {"memory", "900Gi"}}}}}}}},
          {"tolerations",
           {{{"key", "nvidia.com/gpu"}, {"operator", "Exists"}, {"effect", "NoSchedule"}}}}};
}

std::string Generate(int jobs, int pods_per_job) {
  const int restarts = 5;
  json items = json::array();
  items.push_back(
      {{"apiVersion", "jobset.x-k8s.io/v1alpha2"},
       {"kind", "JobSet"},
       {"metadata", {{"name", "big"}, {"namespace", "train"}, {"creationTimestamp", Time(0)}}},
       {"spec",
        {{"failurePolicy", {{"maxRestarts", 10}}},
         {"replicatedJobs",
          {{{"name", "workers"},
            {"replicas", jobs},
            {"template",
             {{"spec",
               {{"parallelism", pods_per_job},
                {"completions", pods_per_job},
                {"backoffLimit", 0}}}}}}}}}},
       {"status",
        {{"restarts", restarts},
         {"restartsCountTowardsMax", restarts},
         {"replicatedJobsStatus", {{{"name", "workers"}, {"ready", jobs}, {"active", jobs}}}},
         {"conditions",
          {{{"type", "RestartingJobSet"},
            {"status", "False"},
            {"reason", "JobsReady"},
            {"message", "all jobs are ready"},
            {"lastTransitionTime", Time(60)}}}}}}});
  for (int j = 0; j < jobs; ++j) {
    std::string name = "big-workers-" + std::to_string(j);
    items.push_back({{"apiVersion", "batch/v1"},
                     {"kind", "Job"},
                     {"metadata",
                      {{"name", name},
                       {"namespace", "train"},
                       {"uid", "job-uid-" + std::to_string(j)},
                       {"labels", Labels(name, j, restarts)}}},
                     {"spec", {{"parallelism", pods_per_job}, {"completions", pods_per_job}}},
                     {"status", {{"active", pods_per_job}, {"ready", pods_per_job}}}});
  }
  for (int j = 0; j < jobs; ++j) {
    std::string job = "big-workers-" + std::to_string(j);
    for (int p = 0; p < pods_per_job; ++p) {
      std::string name = job + "-" + std::to_string(p) + "-x7k2p";
      items.push_back(
          {{"apiVersion", "v1"},
           {"kind", "Pod"},
           {"metadata",
            {{"name", name}, {"namespace", "train"}, {"labels", Labels(job, j, restarts)}}},
           {"spec", PodSpec("gpu-node-" + std::to_string(j * pods_per_job + p))},
           {"status",
            {{"phase", "Running"},
             {"containerStatuses",
              {{{"name", "trainer"}, {"restartCount", 0}, {"ready", true}}}}}}});
    }
  }
  // The history: five restarts, each after one worker failed.
  for (int r = 0; r < restarts; ++r) {
    std::string job = "big-workers-" + std::to_string(r * 7);
    items.push_back({{"apiVersion", "v1"},
                     {"kind", "Event"},
                     {"involvedObject", {{"kind", "Job"}, {"name", job}}},
                     {"type", "Warning"},
                     {"reason", "BackoffLimitExceeded"},
                     {"message", "Job has reached the specified backoff limit"},
                     {"lastTimestamp", Time(10 * r + 5)}});
    items.push_back({{"apiVersion", "v1"},
                     {"kind", "Event"},
                     {"involvedObject", {{"kind", "JobSet"}, {"name", "big"}}},
                     {"type", "Warning"},
                     {"reason", "RestartJobSetFailurePolicyAction"},
                     {"message",
                      "applying RestartJobSet failure policy action (first failed "
                      "job: " +
                          job + ")"},
                     {"lastTimestamp", Time(10 * r + 6)}});
  }
  // Scheduling and pulling noise, one event per Pod.
  for (int j = 0; j < jobs * pods_per_job; ++j) {
    items.push_back({{"apiVersion", "v1"},
                     {"kind", "Event"},
                     {"involvedObject", {{"kind", "Pod"}, {"name", "p-" + std::to_string(j)}}},
                     {"type", "Normal"},
                     {"reason", "Pulled"},
                     {"message", "Container image already present on machine"},
                     {"lastTimestamp", Time(59)}});
  }
  return json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump(4);
}

}  // namespace

int main(int argc, char** argv) {
  int jobs = 3000, pods_per_job = 4, repeat = 5;
  std::string write;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--jobs")) jobs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--pods-per-job")) pods_per_job = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--write")) write = argv[i + 1];
  }
  std::string text = Generate(jobs, pods_per_job);
  if (!write.empty()) std::ofstream(write, std::ios::binary) << text;
  std::vector<double> parse_ms, diagnose_ms, cpu_ms;
  for (int r = 0; r < repeat; ++r) {
    std::clock_t c0 = std::clock();
    auto t0 = std::chrono::steady_clock::now();
    jobset::WorkloadDump dump;
    std::string error;
    if (!jobset::ParseWorkloadDump(text, jobset::WorkloadDumpLimits{}, &dump, &error)) {
      std::fprintf(stderr, "parse: %s\n", error.c_str());
      return 1;
    }
    auto t1 = std::chrono::steady_clock::now();
    jobset::Diagnosis d;
    if (!jobset::DiagnoseJobSet(dump, "big", jobset::FeatureGates{}, &d, &error)) {
      std::fprintf(stderr, "diagnose: %s\n", error.c_str());
      return 1;
    }
    auto t2 = std::chrono::steady_clock::now();
    cpu_ms.push_back(1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    parse_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    diagnose_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    if (r == 0 && d.timeline.size() != 6) {
      std::fprintf(stderr, "unexpected timeline of %zu attempts\n", d.timeline.size());
      return 1;
    }
  }
  std::sort(parse_ms.begin(), parse_ms.end());
  std::sort(diagnose_ms.begin(), diagnose_ms.end());
  std::sort(cpu_ms.begin(), cpu_ms.end());
  std::printf("dump: %d Jobs, %d Pods, %.1f MB\n", jobs, jobs * pods_per_job,
              static_cast<double>(text.size()) / 1e6);
  std::printf("parse    median %.0f ms (min %.0f)\n", parse_ms[parse_ms.size() / 2], parse_ms[0]);
  std::printf("diagnose median %.0f ms (min %.0f)\n", diagnose_ms[diagnose_ms.size() / 2],
              diagnose_ms[0]);
  std::printf("parse + diagnose, CPU time: median %.0f ms (min %.0f)\n", cpu_ms[cpu_ms.size() / 2],
              cpu_ms[0]);
  return 0;
}
