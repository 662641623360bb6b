#include "validation/core/path_glob.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("glob: *, ?, [...] stay within a name; ** crosses folders") {
  CHECK(GlobMatch("*.yaml", "values.yaml"));
  CHECK_FALSE(GlobMatch("*.yaml", "chart/values.yaml"));
  CHECK(GlobMatch("chart/*.yaml", "chart/values.yaml"));
  CHECK(GlobMatch("**/values.yaml", "a/b/values.yaml"));
  CHECK(GlobMatch("**/values.yaml", "values.yaml"));
  CHECK(GlobMatch("a/**/b", "a/b"));
  CHECK(GlobMatch("a/**/b", "a/x/y/b"));
  CHECK(GlobMatch("a/**", "a/x/y"));
  CHECK(GlobMatch("job-?.yaml", "job-1.yaml"));
  CHECK_FALSE(GlobMatch("job-?.yaml", "job-10.yaml"));
  CHECK(GlobMatch("job-[0-9].yaml", "job-7.yaml"));
  CHECK_FALSE(GlobMatch("job-[!0-9].yaml", "job-7.yaml"));
  CHECK_FALSE(GlobMatch("job-[0-9.yaml", "job-7.yaml"));
  CHECK_FALSE(GlobMatch("a?b", "a/b"));
}

TEST_CASE("glob: exclusions match a name anywhere, or the path and its folders from the start") {
  std::vector<std::string> names = {"values.yaml", "charts"};
  CHECK(PathExcluded(names, "deploy/chart/values.yaml"));
  CHECK(PathExcluded(names, "values.yaml"));
  CHECK(PathExcluded(names, "deploy/charts/x/job.yaml"));
  CHECK_FALSE(PathExcluded(names, "deploy/my-values.yaml"));
  std::vector<std::string> rooted = {"deploy/charts/", "./**/templates/*.yaml"};
  CHECK(PathExcluded(rooted, "deploy/charts/x/job.yaml"));
  CHECK(PathExcluded(rooted, "./deploy/charts/job.yaml"));
  CHECK_FALSE(PathExcluded(rooted, "other/deploy/charts/job.yaml"));
  CHECK(PathExcluded(rooted, "a/templates/job.yaml"));
  CHECK_FALSE(PathExcluded(rooted, "a/templates/sub/job.yaml"));
  CHECK_FALSE(PathExcluded({}, "job.yaml"));
  CHECK_FALSE(PathExcluded({""}, "job.yaml"));
}

}  // namespace jobset
