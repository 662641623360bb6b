// Inputs of `simulate` that every kind reads the same way: the --fail flags and the --scenario
// file of a replay, and the Go durations of the --monte-carlo flags.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// The most pods `explain` and `simulate` model for one object. Their Volcano and Framework
/// models keep a state per pod, so a count the API server admits (replicas up to 2^31 - 1 per
/// task, taskNumber per role) would otherwise exhaust memory; the largest real jobs run some
/// tens of thousands.
inline constexpr int64_t kMaxModelledPods = 1'000'000;

/// Whether `pods` (of `what` in `file`, e.g. "Volcano Job train") is within kMaxModelledPods; if
/// not, writes "error: FILE: WHAT has N pods; explain and simulate model at most M" on `err`.
bool WithinModelledPods(int64_t pods, const std::string& what, const std::string& file,
                        std::ostream& err);

/// Reads the first document of a --scenario file into `root`. Gives false and a message:
/// the loader's own for an unreadable file, "<path>: <why>" for an empty file or a syntax error.
bool LoadScenarioFile(const std::string& path, Node* root, std::string* error);

/// Parses the Go duration given to --`flag` into seconds; an empty text leaves `out` as it is.
/// The message names the flag ("--run-time: ...").
bool ParseDurationFlag(const std::string& flag, const std::string& text, double* out,
                       std::string* error);

/// Reads the steps of a replay, whatever the kind: one step per --fail flag in `fail` (each
/// parsed by `parse_fail`), then the steps of the --scenario file `scenario` when it is not ""
/// (its first document parsed by `parse_scenario`), appended to `*steps`. On a bad flag or file
/// writes "error: --fail <why>" or "error: --scenario <why>" (the parser's words after the
/// file's path) on `err` and gives false.
template <typename Step>
bool ReadReplaySteps(const std::vector<std::string>& fail, const std::string& scenario,
                     bool (*parse_fail)(std::string_view, Step*, std::string*),
                     bool (*parse_scenario)(const Node&, std::vector<Step>*, std::string*),
                     std::vector<Step>* steps, std::ostream& err) {
  std::string error;
  for (const std::string& f : fail) {
    Step step;
    if (!parse_fail(f, &step, &error)) {
      err << "error: --fail " << error << "\n";
      return false;
    }
    steps->push_back(std::move(step));
  }
  if (scenario.empty()) return true;
  Node root;
  if (!LoadScenarioFile(scenario, &root, &error)) {
    err << "error: --scenario " << error << "\n";
    return false;
  }
  if (!parse_scenario(root, steps, &error)) {
    err << "error: --scenario " << scenario << ": " << error << "\n";
    return false;
  }
  return true;
}

}  // namespace jobset
