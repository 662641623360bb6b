#include "validation/jobset/replay.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "validation/core/field_path.h"
#include "validation/core/suggest.h"
#include "validation/jobset/validation.h"
#include "validation/sim/scenario.h"

namespace jobset {
namespace {

// Parses "RJOB/INDEX" at the start of `text`; returns the length consumed, or 0.
size_t ParseJobRef(std::string_view text, std::string* rjob, int64_t* index) {
  size_t slash = text.find('/');
  if (slash == 0 || slash == std::string_view::npos) return 0;
  size_t end = slash + 1;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  if (end == slash + 1) return 0;
  auto [p, ec] = std::from_chars(text.data() + slash + 1, text.data() + end, *index);
  if (ec != std::errc() || p != text.data() + end) return 0;
  for (char c : text.substr(0, slash)) {
    if (c == ',' || c == ':' || c == ' ') return 0;
  }
  *rjob = std::string(text.substr(0, slash));
  return end;
}

// An empty reason (a failure whose reason no rule lists) or one the Job controller gives; the
// JobSet controller matches onJobFailureReasons against the Job's Failed condition reason, and
// admission accepts only these (see JobFailureReasons), so any other text is a typo.
bool CheckReason(const std::string& reason, std::string* error) {
  const std::vector<std::string>& known = JobFailureReasons();
  if (reason.empty() || std::find(known.begin(), known.end(), reason) != known.end()) return true;
  *error = "'" + reason + "' is not a Job failure reason (" + JoinNames(known) + ")" +
           DidYouMean(reason, known);
  return false;
}

bool ParseOne(std::string_view text, FailureSpec* f, std::string* error) {
  size_t used = ParseJobRef(text, &f->rjob, &f->index);
  if (!used || used >= text.size() || text[used] != ':') {
    *error = "'" + std::string(text) + "': want RJOB/INDEX:REASON[:MESSAGE]";
    return false;
  }
  std::string_view rest = text.substr(used + 1);
  size_t colon = rest.find(':');
  f->reason = std::string(rest.substr(0, colon));
  if (colon != std::string_view::npos) f->message = std::string(rest.substr(colon + 1));
  if (!CheckReason(f->reason, error)) {
    *error = "'" + std::string(text) + "': " + *error;
    return false;
  }
  return true;
}

}  // namespace

bool ParseFailFlag(std::string_view text, StepSpec* out, std::string* error) {
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size()) {
      if (text[i] != ',') continue;
      std::string rjob;
      int64_t index;
      size_t used = ParseJobRef(text.substr(i + 1), &rjob, &index);
      if (!used || i + 1 + used >= text.size() || text[i + 1 + used] != ':') continue;
    }
    FailureSpec f;
    if (!ParseOne(text.substr(start, i - start), &f, error)) return false;
    out->push_back(std::move(f));
    start = i + 1;
  }
  return true;
}

bool ParseScenarioSteps(const Node& scenario, std::vector<StepSpec>* steps, std::string* error) {
  const Node* list = ScenarioSteps(scenario, "{fail: [...]}", error);
  if (!list) return false;
  for (size_t s = 0; s < list->items.size(); ++s) {
    std::string base = Index("steps", s);
    const Node* fails = list->items[s].Find("fail");
    if (!fails || !fails->is_seq()) {
      *error = base + ".fail: want a list of failures";
      return false;
    }
    StepSpec step;
    for (size_t k = 0; k < fails->items.size(); ++k) {
      const Node& item = fails->items[k];
      std::string at = Index(Child(base, "fail"), k);
      FailureSpec f;
      std::string_view job = item.StringOr("job");
      if (ParseJobRef(job, &f.rjob, &f.index) != job.size() || job.empty()) {
        *error = at + ".job: want RJOB/INDEX, e.g. workers/0";
        return false;
      }
      const Node* reason = item.Find("reason");
      if (reason && !reason->is_string()) {
        *error = at + ".reason: want a string";
        return false;
      }
      f.reason = std::string(item.StringOr("reason"));
      if (!CheckReason(f.reason, error)) {
        *error = at + ".reason: " + *error;
        return false;
      }
      f.message = std::string(item.StringOr("message"));
      step.push_back(std::move(f));
    }
    steps->push_back(std::move(step));
  }
  return true;
}

bool Replay(const PreparedPolicy& policy, const std::vector<StepSpec>& steps, ReplayResult* out,
            std::string* error) {
  std::vector<JobFailure> failures;
  // Replicated jobs by name, the first of a name winning as FindReplicatedJob's scan would: a
  // long scenario over many replicated jobs costs one lookup per failure.
  std::unordered_map<std::string_view, int> rjob_of;
  for (size_t i = 0; i < policy.rjob_names.size(); ++i) {
    rjob_of.emplace(policy.rjob_names[i], static_cast<int>(i));
  }
  for (size_t s = 0; s < steps.size(); ++s) {
    ReplayStep step;
    failures.clear();
    for (size_t k = 0; k < steps[s].size(); ++k) {
      const FailureSpec& f = steps[s][k];
      auto found = rjob_of.find(f.rjob);
      int rjob = found == rjob_of.end() ? -1 : found->second;
      if (rjob < 0) {
        *error = "step " + std::to_string(s + 1) + ": no replicated job '" + f.rjob + "'";
        return false;
      }
      if (f.index < 0 || f.index >= policy.rjob_replicas[rjob]) {
        *error = "step " + std::to_string(s + 1) + ": " + f.rjob + "/" + std::to_string(f.index) +
                 " is outside its " + std::to_string(policy.rjob_replicas[rjob]) + " replicas";
        return false;
      }
      failures.push_back(
          JobFailure{rjob, f.index, f.reason, f.message, static_cast<int64_t>(s * 1000 + k)});
      step.failed.push_back(JobName(policy, rjob, f.index));
    }
    ApplyFailures(policy, &out->state, failures, &step.outcome);
    if (!step.outcome.error.empty()) {
      *error = "step " + std::to_string(s + 1) + ": " + step.outcome.error;
      return false;
    }
    step.restarts = out->state.restarts;
    step.restarts_count_towards_max = out->state.restarts_count_towards_max;
    step.terminal_state = out->state.terminal_state;
    out->steps.push_back(std::move(step));
  }
  return true;
}

}  // namespace jobset
