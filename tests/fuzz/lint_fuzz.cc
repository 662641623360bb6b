// libFuzzer target: bytes as a manifest file, through the loader and the lint of every kind
// (JobSet, Volcano Job, Framework), then through the certain fixes. docs/fuzzing.md says how to
// run it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "validation/core/loader.h"
#include "validation/jobset/fix.h"
#include "validation/lint/lint.h"
#include "validation/schema/schema.h"

namespace {

// Smaller than the defaults, so that an input the fuzzer grows does not spend its time on the
// limits themselves; the limits are the same code at any size (the tests drive them to scale).
jobset::LintOptions Options() {
  jobset::LintOptions options;
  options.schema = jobset::BuiltinJobSetSchema();
  options.limits.max_nodes = 200'000;
  options.limits.max_alias_values = 50'000;
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const jobset::LintOptions options = Options();
  std::string text(reinterpret_cast<const char*>(data), size);
  jobset::SourceFile file = jobset::ParseSource("fuzz.yaml", std::move(text), options.limits);
  jobset::FileResult result = jobset::LintSource(file, options);
  // Bad input never passes silently: a document that did not parse says why.
  for (const jobset::Document& d : file.documents) {
    if (!d.parsed && d.problems.empty()) __builtin_trap();
  }
  jobset::FixOutcome fixed = jobset::FixSource(file, options);
  (void)result;
  (void)fixed;
  return 0;
}
