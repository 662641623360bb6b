// Inputs of `simulate` that every kind reads the same way: the --scenario file and the Go
// durations of the --monte-carlo flags.
#pragma once

#include <string>

#include "validation/core/node.h"

namespace jobset {

/// Reads the first document of a --scenario file into `root`. Gives false and a message:
/// the loader's own for an unreadable file, "<path>: <why>" for an empty file or a syntax error.
bool LoadScenarioFile(const std::string& path, Node* root, std::string* error);

/// Parses the Go duration given to --`flag` into seconds; an empty text leaves `out` as it is.
/// The message names the flag ("--run-time: ...").
bool ParseDurationFlag(const std::string& flag, const std::string& text, double* out,
                       std::string* error);

}  // namespace jobset
