// Inputs of `simulate` that every kind reads the same way: the --fail flags and the --scenario
// file of a replay, and the Go durations of the --monte-carlo flags.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

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
