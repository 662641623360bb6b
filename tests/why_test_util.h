// What the unit tests of `why` (validation/*/why_test.cc) share: a dump of tests/why read from
// its file, and the check every kind's diagnosis must pass on a dump with any one part left
// out (a watch that missed an object, a listing refused for one resource).
#ifndef JOBSET_TESTS_WHY_TEST_UTIL_H_
#define JOBSET_TESTS_WHY_TEST_UTIL_H_

#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "validation/core/diagnosis.h"
#include "validation/core/workload_dump.h"

namespace jobset {

/// The dump of tests/why/`file`; the test case fails unless it parses.
inline WorkloadDump LoadWhyDump(const std::string& file) {
  std::ifstream in(std::string(JOBSET_SOURCE_DIR) + "/tests/why/" + file, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), file);
  std::stringstream text;
  text << in.rdbuf();
  WorkloadDump dump;
  std::string error;
  REQUIRE_MESSAGE(ParseWorkloadDump(text.str(), {}, &dump, &error), error);
  return dump;
}

/// One kind's diagnosis of its workload in a dump (DiagnoseJobSet, ... bound to a name).
using DiagnoseDump = std::function<bool(const WorkloadDump&, Diagnosis*, std::string*)>;

/// Diagnoses `whole` with each object left out in turn: every answer is an error with a message
/// or a diagnosis with a state, never both, never a crash.
inline void CheckEveryPartLeftOut(const WorkloadDump& whole, const DiagnoseDump& diagnose) {
  for (size_t left_out = 0; left_out < whole.objects.size(); ++left_out) {
    CAPTURE(left_out);
    Diagnosis d;
    std::string error;
    const bool ok = diagnose(DumpWithout(whole, left_out), &d, &error);
    CHECK(ok == error.empty());
    if (ok) CHECK(!d.state.empty());
  }
}

}  // namespace jobset

#endif  // JOBSET_TESTS_WHY_TEST_UTIL_H_
