// The pods of a Volcano Job as the lifecycle semantics (lifecycle.h) see them: per task and
// index, a phase and the job version the pod was created at.
//
// The controller acts on many pods at once: it kills every pod, recreates the deleted ones,
// completes a task, restarts a partition. Here each such operation costs O(1) and one entry in
// a log, not the number of pods it changes, and a new model costs O(tasks) once (copies are
// O(1) until they change), so a simulation step or an explain cell costs what its events say,
// whatever the replicas. A pod, a task or a partition holds a record only once something
// touched it alone; its state now is that record brought forward through the operations logged
// since (binary searches over the log, O(log operations)). The job's counts per phase are kept
// as the operations happen; a task's or a partition's are brought forward like a pod.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "validation/volcano/types.h"

namespace jobset {

/// A pod's phase; kDeleted = no pod object (evicted, or killed by the controller).
enum class VolcanoPodPhase : uint8_t { kPending, kRunning, kSucceeded, kFailed, kDeleted };

/// "Pending", "Running", "Succeeded", "Failed", "Deleted".
std::string_view VolcanoPodPhaseName(VolcanoPodPhase phase);

/// One pod of a task.
struct VolcanoPod {
  VolcanoPodPhase phase = VolcanoPodPhase::kRunning;
  int64_t version = 0;  ///< Annotation volcano.sh/job-version.
};

/// Pods counted by phase.
struct VolcanoPodCounts {
  std::array<int64_t, 5> n{};  ///< Indexed by VolcanoPodPhase.

  int64_t operator[](VolcanoPodPhase p) const { return n[static_cast<size_t>(p)]; }
  int64_t& operator[](VolcanoPodPhase p) { return n[static_cast<size_t>(p)]; }
  /// Pending and Running.
  int64_t Alive() const { return n[0] + n[1]; }
  /// Every pod counted.
  int64_t Total() const { return n[0] + n[1] + n[2] + n[3] + n[4]; }
};

/// The pod model of one Volcano Job (see the file comment). A model is built for one job and only
/// used with it; task indexes are those of VolcanoJob::tasks.
class VolcanoPods {
 public:
  /// A model of no task.
  VolcanoPods();
  /// Every pod of every task Running at job version `version` (a task of negative replicas has
  /// no pod).
  VolcanoPods(const VolcanoJob& job, int64_t version);

  /// Pods of `task`.
  int64_t Replicas(int task) const;
  /// The pod `index` of `task` (0 <= index < Replicas(task)).
  VolcanoPod Pod(int task, int64_t index) const;
  /// The whole job's pods by phase.
  const VolcanoPodCounts& JobCounts() const { return job_; }
  /// `task`'s pods by phase.
  VolcanoPodCounts TaskCounts(int task) const;
  /// How many tasks have fewer Succeeded pods than their minAvailable.
  int64_t ShortTasks() const { return short_tasks_; }
  /// The sum of the tasks' minAvailable.
  int64_t MinAvailableSum() const;

  /// Replaces one pod.
  void SetPod(int task, int64_t index, VolcanoPod pod);
  /// Every Pending or Running pod of the job is deleted (versions kept).
  void KillAlive();
  /// Every pod of the job is deleted (versions kept).
  void KillAll();
  /// Every pod of `task` is deleted (versions kept).
  void KillTask(int task);
  /// Every pod of partition `partition` of `task` (pods [p*size, (p+1)*size) of its partition
  /// policy's partitionSize) is deleted. Only for a task with a positive partitionSize.
  void KillPartition(int task, int64_t partition);
  /// Every deleted pod of the job is created again, Running at `version`.
  void Recreate(int64_t version);
  /// Every pod of `task` Succeeded at `version`.
  void CompleteTask(int task, int64_t version);
  /// Every Pending or Running pod of the job Succeeded (versions kept). Costs O(tasks) for the
  /// count of short tasks, and adds a segment to every later look-up: for the end of a run.
  void SucceedAlive();

 private:
  /// What the model needs of the job, shared by copies.
  struct Shape {
    std::vector<int64_t> replicas, min_available, partition_size;  ///< Per task.
    int64_t short_tasks_at_zero = 0;                               ///< Tasks of minAvailable > 0.
    int64_t min_available_sum = 0;
    VolcanoPod initial;
  };
  /// Operations on one set of pods, by log index (ascending).
  struct OpList {
    std::vector<int64_t> at;
    std::vector<int64_t> version;  ///< For Recreate and CompleteTask; empty otherwise.
  };
  /// A task or partition touched alone: its counts when the log had `at` entries.
  struct Group {
    VolcanoPodCounts counts;
    int64_t at = 0;
    OpList kills, completions;  ///< Of this task (completions) or partition (kills only).
  };
  /// A pod set alone.
  struct PodRecord {
    VolcanoPod pod;
    int64_t at = 0;
  };
  /// The operations a group's or pod's state is brought forward through.
  struct Lists {
    const OpList* kills[3] = {nullptr, nullptr, nullptr};  ///< Kill every pod (job, task, part).
    const OpList* completions = nullptr;                   ///< Every pod Succeeded (task).
  };

  Lists ListsFor(int task, int64_t partition) const;
  int64_t LastKill(const Lists& l, int64_t lo, int64_t hi) const;
  VolcanoPodCounts Forward(VolcanoPodCounts c, int64_t at, const Lists& l) const;
  VolcanoPod Forward(VolcanoPod pod, int64_t at, const Lists& l) const;
  int64_t PartitionOf(int task, int64_t index) const;
  Group& TouchTask(int task);
  Group& TouchPartition(int task, int64_t partition);
  void Apply(int task, Group* t, Group* part, const VolcanoPodCounts& before,
             const VolcanoPodCounts& after);
  int64_t Next() { return ++ops_; }

  std::shared_ptr<const Shape> shape_;
  int64_t ops_ = 0;  ///< Log entries so far; entry k happened after entry k-1.
  VolcanoPodCounts job_;
  int64_t short_tasks_ = 0;
  OpList kill_alive_, kill_all_, recreate_, succeed_alive_;  ///< Of the whole job.
  std::unordered_map<int, Group> tasks_;
  std::unordered_map<uint64_t, Group> partitions_;  ///< By (task << 32 | partition).
  std::unordered_map<uint64_t, PodRecord> pods_;    ///< By (task << 32 | index).
};

}  // namespace jobset
