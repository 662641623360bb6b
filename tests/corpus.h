// Where the unit tests find the upstream corpus: the JobSet, Volcano and FrameworkController
// examples and CRDs at their pinned commits (tests/fetch_corpus.sh, `make corpus`). The corpus
// is not part of the repository. A test case that reads it is declared
//   TEST_CASE("..." * doctest::test_suite("corpus")) { std::string corpus = CorpusOrSkip(); ...
// and ctest runs the suite as the entry <unit>_corpus (CMakeLists.txt), which it reports as
// skipped when the corpus is absent.
#ifndef JOBSET_TESTS_CORPUS_H_
#define JOBSET_TESTS_CORPUS_H_

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace jobset {

/// The corpus directory: $JOBSET_CORPUS_DIR (ctest sets it from the CMake setting of that name),
/// or "" when it is unset or not a directory with a jobset/ folder.
inline std::string CorpusDir() {
  const char* dir = std::getenv("JOBSET_CORPUS_DIR");
  if (dir == nullptr || *dir == '\0') return "";
  std::error_code ec;
  if (!std::filesystem::is_directory(std::filesystem::path(dir) / "jobset", ec)) return "";
  return dir;
}

/// The corpus directory, or "" after printing the line that makes ctest report the test case as
/// skipped (SKIP_REGULAR_EXPRESSION), with how to get the corpus. Start corpus cases with it.
inline std::string CorpusOrSkip() {
  std::string dir = CorpusDir();
  if (dir.empty()) {
    const char* set = std::getenv("JOBSET_CORPUS_DIR");
    std::printf(
        "SKIPPED: no upstream corpus at JOBSET_CORPUS_DIR='%s': run `make corpus`, or configure "
        "with -DJOBSET_CORPUS_DIR=DIR\n",
        set ? set : "");
    std::fflush(stdout);
  }
  return dir;
}

}  // namespace jobset

#endif  // JOBSET_TESTS_CORPUS_H_
