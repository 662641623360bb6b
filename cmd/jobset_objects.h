// Loading the JobSets a command works on (explain, simulate): defaulted as the API server
// stores them, with their typed view and lint verdict.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "validation/core/node.h"
#include "validation/jobset/feature_gates.h"
#include "validation/jobset/types.h"

namespace jobset {
struct OtherObject;
}

namespace jobset {

/// One JobSet from a file, defaulted (CRD and webhook defaults).
struct LoadedJobSet {
  std::string file;
  std::unique_ptr<Node> object;  ///< Owns the tree `jobset` points into.
  JobSet jobset;
  int errors = 0;  ///< Lint errors: the API server would reject it.
};

/// Loads every JobSet of `path` (a file, or - for standard input). Gives false and a message
/// when the file cannot be read or holds a syntax error. Lint errors are counted, not fatal:
/// explaining a rejected JobSet is still useful, and the caller says it was rejected.
/// With `others`, objects of the other kinds explain and simulate understand
/// (KindCommandBindings) are collected there too, and the file must hold at least one object of
/// any of these kinds; without it, at least one JobSet.
bool LoadJobSets(const std::string& path, const FeatureGates& gates, std::vector<LoadedJobSet>* out,
                 std::string* error, std::vector<OtherObject>* others = nullptr);

}  // namespace jobset
