// Checks of flag values the commands share (CLI11 validators).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>

namespace jobset {

/// A value at least `min`, with its own message (CLI11's Range prints its bounds as doubles); a
/// value beyond int64 passes (a --seed).
CLI::Validator AtLeast(int64_t min);

}  // namespace jobset
