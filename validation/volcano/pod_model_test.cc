#include "validation/volcano/pod_model.h"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "tests/test_size.h"

namespace jobset {
namespace {

using Phase = VolcanoPodPhase;

// The obvious model: every pod in a vector, every operation a loop. VolcanoPods must agree with
// it on every pod, every count and the short tasks after any sequence of operations.
struct DenseModel {
  std::vector<std::vector<VolcanoPod>> pods;
  std::vector<int64_t> min_available, partition_size;

  DenseModel(const VolcanoJob& job, int64_t version) {
    for (const VolcanoTask& t : job.tasks) {
      pods.emplace_back(static_cast<size_t>(std::max<int64_t>(t.replicas, 0)),
                        VolcanoPod{Phase::kRunning, version});
      min_available.push_back(t.min_available);
      partition_size.push_back(t.has_partition ? t.partition.partition_size : 0);
    }
  }
  static bool Alive(Phase p) { return p == Phase::kPending || p == Phase::kRunning; }
  void Each(int task, auto f) {
    for (size_t t = 0; t < pods.size(); ++t)
      if (task < 0 || static_cast<int>(t) == task)
        for (VolcanoPod& p : pods[t]) f(p);
  }
  VolcanoPodCounts Counts(int task) const {
    VolcanoPodCounts c;
    for (size_t t = 0; t < pods.size(); ++t)
      if (task < 0 || static_cast<int>(t) == task)
        for (const VolcanoPod& p : pods[t]) ++c[p.phase];
    return c;
  }
  int64_t ShortTasks() const {
    int64_t n = 0;
    for (size_t t = 0; t < pods.size(); ++t)
      n += Counts(static_cast<int>(t))[Phase::kSucceeded] < min_available[t];
    return n;
  }
};

// A task of `replicas` pods, partitions of `partition_size` when positive.
VolcanoTask Task(const std::string& name, int64_t replicas, int64_t min_available,
                 int64_t partition_size) {
  VolcanoTask t;
  t.name = name;
  t.replicas = replicas;
  t.min_available = min_available;
  t.has_partition = partition_size > 0;
  t.partition.partition_size = partition_size;
  return t;
}

VolcanoJob RandomJob(std::mt19937& rng) {
  VolcanoJob job;
  const int tasks = 1 + static_cast<int>(rng() % 4);
  for (int t = 0; t < tasks; ++t) {
    VolcanoTask task;
    task.name = "t" + std::to_string(t);
    task.replicas = static_cast<int64_t>(rng() % 8);
    task.min_available = static_cast<int64_t>(rng() % (task.replicas + 2));
    if (rng() % 2) {
      task.has_partition = true;
      task.partition.partition_size = 1 + static_cast<int64_t>(rng() % 3);
    }
    job.tasks.push_back(task);
  }
  return job;
}

// Applies one random operation to both models; its name for the failure message.
std::string RandomOp(std::mt19937& rng, int64_t* version, VolcanoPods* lazy, DenseModel* dense) {
  const int tasks = static_cast<int>(dense->pods.size());
  const int t = static_cast<int>(rng() % tasks);
  const int64_t n = static_cast<int64_t>(dense->pods[t].size());
  if (rng() % 3 == 0) ++*version;
  switch (rng() % 9) {
    case 0:
    case 1:
    case 2: {
      if (n == 0) return "none";
      const int64_t i = static_cast<int64_t>(rng() % n);
      const VolcanoPod pod{static_cast<Phase>(rng() % 5),
                           *version - static_cast<int64_t>(rng() % 2)};
      lazy->SetPod(t, i, pod);
      dense->pods[t][i] = pod;
      return "SetPod";
    }
    case 3:
      lazy->KillAlive();
      dense->Each(-1, [](VolcanoPod& p) {
        if (DenseModel::Alive(p.phase)) p.phase = Phase::kDeleted;
      });
      return "KillAlive";
    case 4:
      lazy->KillAll();
      dense->Each(-1, [](VolcanoPod& p) { p.phase = Phase::kDeleted; });
      return "KillAll";
    case 5:
      lazy->KillTask(t);
      dense->Each(t, [](VolcanoPod& p) { p.phase = Phase::kDeleted; });
      return "KillTask";
    case 6: {
      const int64_t size = dense->partition_size[t];
      if (size <= 0 || n == 0) return "none";
      const int64_t part = static_cast<int64_t>(rng() % ((n + size - 1) / size));
      lazy->KillPartition(t, part);
      for (int64_t i = part * size; i < std::min(n, (part + 1) * size); ++i)
        dense->pods[t][i].phase = Phase::kDeleted;
      return "KillPartition";
    }
    case 7:
      if (rng() % 4 == 0) {
        lazy->SucceedAlive();
        dense->Each(-1, [](VolcanoPod& p) {
          if (DenseModel::Alive(p.phase)) p.phase = Phase::kSucceeded;
        });
        return "SucceedAlive";
      }
      lazy->CompleteTask(t, *version);
      dense->Each(t, [&](VolcanoPod& p) { p = VolcanoPod{Phase::kSucceeded, *version}; });
      return "CompleteTask";
    default:
      lazy->Recreate(*version);
      dense->Each(-1, [&](VolcanoPod& p) {
        if (p.phase == Phase::kDeleted) p = VolcanoPod{Phase::kRunning, *version};
      });
      return "Recreate";
  }
}

// Every pod, every task's counts, the job's counts and the short tasks agree.
bool Agree(const VolcanoPods& lazy, const DenseModel& dense) {
  for (size_t t = 0; t < dense.pods.size(); ++t) {
    const int task = static_cast<int>(t);
    if (lazy.Replicas(task) != static_cast<int64_t>(dense.pods[t].size())) return false;
    for (size_t i = 0; i < dense.pods[t].size(); ++i) {
      const VolcanoPod a = lazy.Pod(task, static_cast<int64_t>(i));
      if (a.phase != dense.pods[t][i].phase || a.version != dense.pods[t][i].version) return false;
    }
    if (lazy.TaskCounts(task).n != dense.Counts(task).n) return false;
  }
  return lazy.JobCounts().n == dense.Counts(-1).n && lazy.ShortTasks() == dense.ShortTasks();
}

TEST_CASE("volcano pod model: agrees with a pod-by-pod model over random operations") {
  std::mt19937 rng(19);
  for (int round = 0; round < RandomTrials(3000); ++round) {
    const VolcanoJob job = RandomJob(rng);
    int64_t version = static_cast<int64_t>(rng() % 3);
    VolcanoPods lazy(job, version);
    DenseModel dense(job, version);
    REQUIRE(Agree(lazy, dense));
    std::vector<std::string> ops;
    for (int k = 0; k < 40; ++k) {
      ops.push_back(RandomOp(rng, &version, &lazy, &dense));
      if (!Agree(lazy, dense)) {
        std::string trace;
        for (const std::string& op : ops) trace += op + " ";
        FAIL("round " << round << " disagrees after: " << trace);
      }
      if (k == 20) {
        // A copy is a value: changing it leaves the original as it was.
        VolcanoPods copy = lazy;
        DenseModel copy_dense = dense;
        int64_t v = version;
        for (int j = 0; j < 10; ++j) RandomOp(rng, &v, &copy, &copy_dense);
        REQUIRE(Agree(copy, copy_dense));
        REQUIRE(Agree(lazy, dense));
      }
    }
  }
}

TEST_CASE("volcano pod model: a kill keeps each pod's version, a recreation sets it") {
  VolcanoJob job;
  job.tasks.push_back(Task("w", 3, 3, 0));
  VolcanoPods pods(job, 0);
  pods.SetPod(0, 1, {Phase::kSucceeded, 0});
  pods.Recreate(1);  // nothing is deleted: nothing changes
  CHECK(pods.Pod(0, 0).version == 0);
  pods.KillAlive();
  pods.Recreate(1);
  pods.KillAll();
  CHECK(pods.Pod(0, 0).phase == Phase::kDeleted);
  CHECK(pods.Pod(0, 0).version == 1);  // recreated at 1, then killed
  CHECK(pods.Pod(0, 1).version == 0);  // Succeeded at 0 until killed
  CHECK(pods.ShortTasks() == 1);
  pods.Recreate(2);
  CHECK(pods.JobCounts()[Phase::kRunning] == 3);
  pods.CompleteTask(0, 2);
  CHECK(pods.TaskCounts(0)[Phase::kSucceeded] == 3);
  CHECK(pods.ShortTasks() == 0);
}

TEST_CASE("volcano pod model: a million pods restarted 100,000 times cost no pod each") {
  // A pod-by-pod model takes 10^11 pod changes here (minutes); this one a few per operation.
  VolcanoJob job;
  job.tasks.push_back(Task("w", 1'000'000, 1'000'000, 1000));
  VolcanoPods pods(job, 0);
  for (int64_t k = 1; k <= 100'000; ++k) {
    pods.SetPod(0, k % 1'000'000, {Phase::kFailed, k - 1});
    pods.KillPartition(0, k % 1000);
    pods.KillAll();
    pods.Recreate(k);
  }
  CHECK(pods.JobCounts()[Phase::kRunning] == 1'000'000);
  CHECK(pods.Pod(0, 123'456).version == 100'000);
  CHECK(pods.TaskCounts(0)[Phase::kRunning] == 1'000'000);
}

}  // namespace
}  // namespace jobset
