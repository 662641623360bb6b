#include "validation/volcano/pod_model.h"

#include <algorithm>
#include <limits>

namespace jobset {

std::string_view VolcanoPodPhaseName(VolcanoPodPhase phase) {
  static constexpr std::string_view names[] = {"Pending", "Running", "Succeeded", "Failed",
                                               "Deleted"};
  return names[static_cast<int>(phase)];
}

namespace {

using Phase = VolcanoPodPhase;

constexpr int64_t kEnd = std::numeric_limits<int64_t>::max();

bool Finished(Phase p) { return p == Phase::kSucceeded || p == Phase::kFailed; }

uint64_t Key(int task, int64_t index) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(task)) << 32) | static_cast<uint64_t>(index);
}

// `n` pods, all in phase `p`.
VolcanoPodCounts All(Phase p, int64_t n) {
  VolcanoPodCounts c;
  c[p] = n;
  return c;
}

}  // namespace

// The log is searched with these two: entries are ascending, and 0 means "none".
namespace {

// The last entry of `l` in (lo, hi), or 0.
int64_t LastIn(const std::vector<int64_t>* l, int64_t lo, int64_t hi) {
  if (!l) return 0;
  auto it = std::lower_bound(l->begin(), l->end(), hi);
  if (it == l->begin()) return 0;
  --it;
  return *it > lo ? *it : 0;
}

// The first entry of `l` in (lo, hi), or 0; its position in *pos.
int64_t FirstIn(const std::vector<int64_t>* l, int64_t lo, int64_t hi, size_t* pos = nullptr) {
  if (!l) return 0;
  auto it = std::upper_bound(l->begin(), l->end(), lo);
  if (it == l->end() || *it >= hi) return 0;
  if (pos) *pos = static_cast<size_t>(it - l->begin());
  return *it;
}

}  // namespace

VolcanoPods::VolcanoPods() : shape_(std::make_shared<Shape>()) {}

VolcanoPods::VolcanoPods(const VolcanoJob& job, int64_t version) {
  auto s = std::make_shared<Shape>();
  for (const VolcanoTask& t : job.tasks) {
    const int64_t n = std::max<int64_t>(t.replicas, 0);
    s->replicas.push_back(n);
    s->min_available.push_back(t.min_available);
    s->partition_size.push_back(
        t.has_partition && t.partition.partition_size > 0 ? t.partition.partition_size : 0);
    s->short_tasks_at_zero += t.min_available > 0;
    s->min_available_sum += t.min_available;
    job_[Phase::kRunning] += n;
  }
  s->initial = VolcanoPod{Phase::kRunning, version};
  short_tasks_ = s->short_tasks_at_zero;
  shape_ = std::move(s);
}

int64_t VolcanoPods::Replicas(int task) const {
  return task >= 0 && task < static_cast<int>(shape_->replicas.size()) ? shape_->replicas[task] : 0;
}

int64_t VolcanoPods::MinAvailableSum() const { return shape_->min_available_sum; }

int64_t VolcanoPods::PartitionOf(int task, int64_t index) const {
  const int64_t size = shape_->partition_size[task];
  return size > 0 ? index / size : -1;
}

VolcanoPods::Lists VolcanoPods::ListsFor(int task, int64_t partition) const {
  Lists l;
  l.kills[0] = &kill_all_;
  if (auto t = tasks_.find(task); t != tasks_.end()) {
    l.kills[1] = &t->second.kills;
    l.completions = &t->second.completions;
  }
  if (partition >= 0) {
    if (auto p = partitions_.find(Key(task, partition)); p != partitions_.end()) {
      l.kills[2] = &p->second.kills;
    }
  }
  return l;
}

int64_t VolcanoPods::LastKill(const Lists& l, int64_t lo, int64_t hi) const {
  int64_t last = LastIn(&kill_alive_.at, lo, hi);
  for (const OpList* k : l.kills) {
    if (k) last = std::max(last, LastIn(&k->at, lo, hi));
  }
  return last;
}

// Counts: each segment between two SucceedAlive entries ends as its last "every pod" entry
// (a kill or a completion) left it, then as the kills of live pods and the recreations after
// that entry leave it; only the last of each matters.
VolcanoPodCounts VolcanoPods::Forward(VolcanoPodCounts c, int64_t at, const Lists& l) const {
  for (;;) {
    int64_t w = FirstIn(&succeed_alive_.at, at, kEnd);
    if (!w) w = kEnd;
    int64_t every = 0;
    Phase every_phase = Phase::kDeleted;
    for (const OpList* k : l.kills) {
      if (k) every = std::max(every, LastIn(&k->at, at, w));
    }
    if (l.completions) {
      if (int64_t done = LastIn(&l.completions->at, at, w); done > every) {
        every = done;
        every_phase = Phase::kSucceeded;
      }
    }
    const int64_t from = every ? every : at;
    if (every) c = All(every_phase, c.Total());
    const int64_t killed = LastIn(&kill_alive_.at, from, w);
    const int64_t recreated = LastIn(&recreate_.at, from, w);
    if (killed > recreated) {
      c[Phase::kDeleted] += c.Alive();
      c[Phase::kPending] = c[Phase::kRunning] = 0;
    } else if (recreated) {
      c[Phase::kRunning] += c[Phase::kDeleted] + (killed ? c[Phase::kPending] : 0);
      if (killed) c[Phase::kPending] = 0;
      c[Phase::kDeleted] = 0;
    }
    if (w == kEnd) return c;
    c[Phase::kSucceeded] += c.Alive();
    c[Phase::kPending] = c[Phase::kRunning] = 0;
    at = w;
  }
}

// A pod: a finished pod changes only when every pod of its job, task or partition is killed;
// then, in each segment between two SucceedAlive entries, a live or deleted pod was last
// recreated by the first recreation after the last kill before the segment's last recreation,
// and is deleted if a kill comes after that one.
VolcanoPod VolcanoPods::Forward(VolcanoPod pod, int64_t at, const Lists& l) const {
  for (;;) {
    int64_t w = FirstIn(&succeed_alive_.at, at, kEnd);
    if (!w) w = kEnd;
    if (Finished(pod.phase)) {
      int64_t killed = 0;
      for (const OpList* k : l.kills) {
        if (!k) continue;
        if (int64_t f = FirstIn(&k->at, at, w); f && (!killed || f < killed)) killed = f;
      }
      if (!killed) {
        if (w == kEnd) return pod;
        at = w;
        continue;
      }
      pod.phase = Phase::kDeleted;
      at = killed;
    }
    const bool alive = pod.phase != Phase::kDeleted;
    const int64_t last_kill = LastKill(l, at, w);
    if (int64_t last_recreate = LastIn(&recreate_.at, at, w)) {
      const int64_t kill = LastKill(l, at, last_recreate);
      if (kill || !alive) {
        size_t i = 0;
        FirstIn(&recreate_.at, kill ? kill : at, w, &i);
        pod = VolcanoPod{Phase::kRunning, recreate_.version[i]};
      }
      if (last_kill > last_recreate) pod.phase = Phase::kDeleted;
    } else if (last_kill && alive) {
      pod.phase = Phase::kDeleted;
    }
    if (w == kEnd) return pod;
    if (pod.phase != Phase::kDeleted) pod.phase = Phase::kSucceeded;
    at = w;
  }
}

VolcanoPod VolcanoPods::Pod(int task, int64_t index) const {
  VolcanoPod pod = shape_->initial;
  int64_t at = 0;
  if (auto it = pods_.find(Key(task, index)); it != pods_.end()) {
    pod = it->second.pod;
    at = it->second.at;
  }
  Lists l = ListsFor(task, PartitionOf(task, index));
  if (l.completions && !l.completions->at.empty() && l.completions->at.back() > at) {
    at = l.completions->at.back();
    pod = VolcanoPod{Phase::kSucceeded, l.completions->version.back()};
  }
  l.completions = nullptr;  // The last one is where the pod starts.
  return Forward(pod, at, l);
}

VolcanoPodCounts VolcanoPods::TaskCounts(int task) const {
  if (task < 0 || task >= static_cast<int>(shape_->replicas.size())) return {};
  Lists l;
  l.kills[0] = &kill_all_;
  if (auto t = tasks_.find(task); t != tasks_.end()) {
    return Forward(t->second.counts, t->second.at, l);
  }
  return Forward(All(shape_->initial.phase, shape_->replicas[task]), 0, l);
}

VolcanoPods::Group& VolcanoPods::TouchTask(int task) {
  VolcanoPodCounts now = TaskCounts(task);
  Group& g = tasks_[task];
  g.counts = now;
  g.at = ops_;
  return g;
}

VolcanoPods::Group& VolcanoPods::TouchPartition(int task, int64_t partition) {
  const uint64_t key = Key(task, partition);
  Lists l = ListsFor(task, -1);  // The job's and the task's lists: the partition's are its own.
  VolcanoPodCounts now;
  if (auto p = partitions_.find(key); p != partitions_.end()) {
    now = Forward(p->second.counts, p->second.at, l);
  } else {
    // No pod of an untouched partition was set alone: they are all as its first pod.
    const int64_t size = shape_->partition_size[task];
    const int64_t first = partition * size;
    const int64_t n = std::min(shape_->replicas[task], first + size) - first;
    now = All(Pod(task, first).phase, n);
  }
  Group& g = partitions_[key];
  g.counts = now;
  g.at = ops_;
  return g;
}

void VolcanoPods::Apply(int task, Group* t, Group* part, const VolcanoPodCounts& before,
                        const VolcanoPodCounts& after) {
  const int64_t min = shape_->min_available[task];
  const bool was_short = t->counts[Phase::kSucceeded] < min;
  for (size_t i = 0; i < before.n.size(); ++i) {
    const int64_t delta = after.n[i] - before.n[i];
    job_.n[i] += delta;
    t->counts.n[i] += delta;
    if (part) part->counts.n[i] += delta;
  }
  short_tasks_ += static_cast<int64_t>(t->counts[Phase::kSucceeded] < min) - was_short;
}

void VolcanoPods::SetPod(int task, int64_t index, VolcanoPod pod) {
  const VolcanoPod old = Pod(task, index);
  Group* t = &TouchTask(task);
  const int64_t partition = PartitionOf(task, index);
  Group* part = partition >= 0 ? &TouchPartition(task, partition) : nullptr;
  Apply(task, t, part, All(old.phase, 1), All(pod.phase, 1));
  pods_[Key(task, index)] = PodRecord{pod, Next()};
}

void VolcanoPods::KillAlive() {
  if (job_.Alive() == 0) return;
  kill_alive_.at.push_back(Next());
  job_[Phase::kDeleted] += job_.Alive();
  job_[Phase::kPending] = job_[Phase::kRunning] = 0;
}

void VolcanoPods::KillAll() {
  if (job_[Phase::kDeleted] == job_.Total()) return;
  kill_all_.at.push_back(Next());
  job_ = All(Phase::kDeleted, job_.Total());
  short_tasks_ = shape_->short_tasks_at_zero;
}

void VolcanoPods::KillTask(int task) {
  Group* t = &TouchTask(task);
  const VolcanoPodCounts before = t->counts;
  if (before[Phase::kDeleted] == before.Total()) return;
  t->kills.at.push_back(Next());
  t->at = ops_;
  Apply(task, t, nullptr, before, All(Phase::kDeleted, before.Total()));
}

void VolcanoPods::KillPartition(int task, int64_t partition) {
  Group* t = &TouchTask(task);
  Group* part = &TouchPartition(task, partition);
  const VolcanoPodCounts before = part->counts;
  if (before[Phase::kDeleted] == before.Total()) return;
  part->kills.at.push_back(Next());
  part->at = t->at = ops_;
  Apply(task, t, part, before, All(Phase::kDeleted, before.Total()));
}

void VolcanoPods::Recreate(int64_t version) {
  if (job_[Phase::kDeleted] == 0) return;
  recreate_.at.push_back(Next());
  recreate_.version.push_back(version);
  job_[Phase::kRunning] += job_[Phase::kDeleted];
  job_[Phase::kDeleted] = 0;
}

void VolcanoPods::CompleteTask(int task, int64_t version) {
  Group* t = &TouchTask(task);
  const VolcanoPodCounts before = t->counts;
  t->completions.at.push_back(Next());
  t->completions.version.push_back(version);
  t->at = ops_;
  Apply(task, t, nullptr, before, All(Phase::kSucceeded, before.Total()));
}

void VolcanoPods::SucceedAlive() {
  if (job_.Alive() == 0) return;
  succeed_alive_.at.push_back(Next());
  job_[Phase::kSucceeded] += job_.Alive();
  job_[Phase::kPending] = job_[Phase::kRunning] = 0;
  short_tasks_ = 0;
  for (size_t t = 0; t < shape_->replicas.size(); ++t) {
    short_tasks_ += TaskCounts(static_cast<int>(t))[Phase::kSucceeded] < shape_->min_available[t];
  }
}

}  // namespace jobset
