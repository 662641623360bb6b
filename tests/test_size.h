// How big the costly test cases are: the hostile-input size cases (the inputs that cost O(n^2)
// time or memory before issue #19: tens of thousands of rules, replicated jobs, patterns, a
// million pods) and the randomized differential tests (thousands of damaged documents compared
// with a reference implementation).
//
// In an optimised build they run at full size: there the old quadratic code took minutes or
// gigabytes, and the units' ctest TIMEOUT of 60 s (CMakeLists.txt) fails them should it come
// back. Under the sanitizers (JOBSET_SANITIZE: a Debug build with ASan and UBSan) every
// allocation and access costs ten to a hundred times more, so full size would test the machine's
// load rather than the code: there a size case runs at 1/kSanitizerShrink of its size, through
// the same functions and branches, and a randomized test draws 1/kSanitizerTrialShrink of its
// trials (the same generator, so the same first trials). A case whose code switches strategy at
// a size (the Monte Carlo's per-message pattern matching over 2^20 rules x kinds, ...) keeps
// above that size with HostileSize's `at_least`, and says so beside it.
#ifndef JOBSET_TESTS_TEST_SIZE_H_
#define JOBSET_TESTS_TEST_SIZE_H_

#include <algorithm>
#include <cstdint>

namespace jobset {

#ifdef JOBSET_SANITIZED_TESTS
/// How many times smaller the size cases are under the sanitizers (1 in an optimised build).
inline constexpr int64_t kSanitizerShrink = 25;
/// How many times fewer trials the randomized tests draw under the sanitizers.
inline constexpr int64_t kSanitizerTrialShrink = 5;
#else
inline constexpr int64_t kSanitizerShrink = 1;
inline constexpr int64_t kSanitizerTrialShrink = 1;
#endif

/// The size of a hostile-input case: `full` in an optimised build; under the sanitizers
/// full / kSanitizerShrink, but never below `at_least` (a size threshold the case must cross to
/// reach the code it is about) nor below 1.
constexpr int HostileSize(int64_t full, int64_t at_least = 1) {
  return static_cast<int>(std::max({full / kSanitizerShrink, at_least, int64_t{1}}));
}

/// The number of trials of a randomized test: `full` in an optimised build, full /
/// kSanitizerTrialShrink (at least 1) under the sanitizers.
constexpr int RandomTrials(int64_t full) {
  return static_cast<int>(std::max(full / kSanitizerTrialShrink, int64_t{1}));
}

}  // namespace jobset

#endif  // JOBSET_TESTS_TEST_SIZE_H_
