#include "cmd/lint_command.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "validation/jobset/feature_gates.h"

namespace jobset {
namespace {

namespace fs = std::filesystem;

const char kJobSet[] =
    "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: j}\nspec:\n"
    "  replicatedJobs:\n  - name: w\n"
    "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n";

// A fresh folder under the temporary directory, removed at the end of the test. Its name holds
// the process id, so that two test runs on one machine do not remove each other's files.
struct TempDir {
  fs::path path;
  explicit TempDir(const char* name)
      : path(fs::temp_directory_path() / (std::string(name) + "-" + std::to_string(getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void Write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
  }
};

}  // namespace

TEST_CASE("lint command: a bad config file writes no report at all, only the error") {
  TempDir dir("kubectl-jobset-lint-bad-config");
  dir.Write(".kubectl-jobset.yaml", "rules:\n  failure-policy/unknown-reason: off\n");
  dir.Write("a.yaml", kJobSet);
  dir.Write("b.yaml", kJobSet);
  LintFlags flags;
  flags.paths = {dir.path.string()};
  fs::path sarif = dir.path / "lint.sarif", junit = dir.path / "lint.xml";
  flags.outputs = {"json", "sarif=" + sarif.string(), "junit=" + junit.string()};
  std::ostringstream out, err;
  CHECK(RunLint(flags, out, err) == 2);
  CHECK(out.str().empty());  // no {"errors": 0} on standard output
  CHECK_FALSE(fs::exists(sarif));
  CHECK_FALSE(fs::exists(junit));
  // Named once, not for each file under it.
  std::string e = err.str();
  CHECK(e.find("cannot be disabled or re-graded") != std::string::npos);
  CHECK(e.find("cannot be disabled", e.find("cannot be disabled") + 1) == std::string::npos);
  CHECK(e.find("no report written") != std::string::npos);
}

TEST_CASE("lint command: --exclude, --fail-if-no-objects-found and the note about subfolders") {
  TempDir dir("kubectl-jobset-lint-exclude");
  dir.Write("top.yaml", kJobSet);
  dir.Write("charts/x/values.yaml", "image: a\nimage: b\n");
  dir.Write("jobs/bad.yaml", "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n");
  LintFlags flags;
  flags.paths = {dir.path.string()};
  flags.outputs = {"json"};
  std::ostringstream out, err;
  CHECK(RunLint(flags, out, err) == 0);
  CHECK(err.str() ==
        "note: " + dir.path.string() +
            ": 2 subfolders with YAML or JSON files not searched (use -R to descend)\n");
  // -R reads jobs/bad.yaml (an error); --exclude jobs leaves it out again.
  flags.recursive = true;
  out.str("");
  err.str("");
  CHECK(RunLint(flags, out, err) == 1);
  CHECK(err.str().empty());
  flags.exclude = {"jobs", "top.yaml"};
  out.str("");
  CHECK(RunLint(flags, out, err) == 0);
  CHECK(out.str().find("\"files\": 1,") != std::string::npos);  // charts/x/values.yaml
  // Nothing checked: exit status 1 with the flag, and the report still says 0 objects.
  flags.fail_if_no_objects_found = true;
  out.str("");
  CHECK(RunLint(flags, out, err) == 1);
  CHECK(out.str().find("\"objects\": 0,") != std::string::npos);
  CHECK(err.str().find("no JobSet, Volcano Job or Framework found in 1 file "
                       "(--fail-if-no-objects-found)") != std::string::npos);
  flags.exclude = {"jobs"};
  out.str("");
  CHECK(RunLint(flags, out, err) == 0);  // top.yaml is one
}

TEST_CASE("lint command: --help lists every feature gate the parser accepts") {
  std::string help = FeatureGatesHelp();
  for (const FeatureGateInfo& g : KnownFeatureGates()) {
    CHECK_MESSAGE(help.find("  " + std::string(g.name) + " ") != std::string::npos, g.name);
    CHECK_MESSAGE(help.find(std::string(g.description)) != std::string::npos, g.name);
  }
}

}  // namespace jobset
