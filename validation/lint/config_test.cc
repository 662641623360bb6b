#include "validation/lint/config.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "validation/lint/lint.h"

namespace jobset {
namespace {

namespace fs = std::filesystem;

// A JobSet whose only finding is the unbounded-restarts warning on line 11, plus whatever the
// caller puts in `extra` (metadata annotations, comments).
std::string Looping(const std::string& annotations = "", const std::string& action_comment = "") {
  return "apiVersion: jobset.x-k8s.io/v1alpha2\n"
         "kind: JobSet\n"
         "metadata:\n"
         "  name: loop\n" +
         annotations +
         "spec:\n"
         "  failurePolicy:\n"
         "    maxRestarts: 1\n"
         "    rules:\n"
         "    - name: always\n"
         "      action: RestartJobSetAndIgnoreMaxRestarts" +
         action_comment +
         "\n"
         "  replicatedJobs:\n"
         "  - name: w\n"
         "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n";
}

FileResult LintText(const std::string& text, const LintConfig& config = {}) {
  LintOptions o;
  o.schema = BuiltinJobSetSchema();
  o.config = config;
  return LintSource(ParseSource("t.yaml", text), o);
}

std::vector<const Finding*> Rule(const FileResult& r, const std::string& id) {
  std::vector<const Finding*> out;
  for (const Finding& f : r.findings)
    if (f.rule == id) out.push_back(&f);
  return out;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / "kubectl-jobset-config-test";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

}  // namespace

TEST_CASE("config: an annotation suppresses a warning and keeps the reason") {
  FileResult plain = LintText(Looping());
  auto f = Rule(plain, "failure-policy/unbounded-restarts");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->suppressed_by.empty());
  CHECK(f[0]->mark.line == 10);

  FileResult r = LintText(Looping(
      "  annotations:\n"
      "    kubectl-jobset.io/ignore: \"failure-policy/unbounded-restarts # a demo that loops\"\n"));
  auto g = Rule(r, "failure-policy/unbounded-restarts");
  REQUIRE(g.size() == 1);
  CHECK(g[0]->suppressed_by == "annotation");
  CHECK(g[0]->suppression_reason == "a demo that loops");
  // Another rule id in the annotation does not cover it.
  FileResult other =
      LintText(Looping("  annotations:\n"
                       "    kubectl-jobset.io/ignore: failure-policy/shadowed-rule\n"));
  CHECK(Rule(other, "failure-policy/unbounded-restarts")[0]->suppressed_by.empty());
}

TEST_CASE("config: comments suppress on their line, or on the next when alone") {
  FileResult same =
      LintText(Looping("", "  # kubectl-jobset:ignore failure-policy/unbounded-restarts intended"));
  auto f = Rule(same, "failure-policy/unbounded-restarts");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->suppressed_by == "comment");
  CHECK(f[0]->suppression_reason == "intended");

  std::string text = Looping();
  text.insert(text.find("      action:"), "      # kubectl-jobset:ignore failure-policy/*\n");
  FileResult before = LintText(text);
  auto g = Rule(before, "failure-policy/unbounded-restarts");
  REQUIRE(g.size() == 1);
  CHECK(g[0]->suppressed_by == "comment");
}

TEST_CASE("config: errors the API server would reject cannot be suppressed") {
  std::string text =
      "apiVersion: jobset.x-k8s.io/v1alpha2\n"
      "kind: JobSet\n"
      "metadata:\n"
      "  name: bad\n"
      "  annotations: {kubectl-jobset.io/ignore: \"*\"}\n"
      "spec:\n"
      "  failurePolicy:\n"
      "    rules:\n"
      "    - action: FailJobSet\n"
      "      onJobFailureReasons: [Evicted]  # kubectl-jobset:ignore "
      "failure-policy/unknown-reason\n"
      "  replicatedJobs:\n"
      "  - name: w\n"
      "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n";
  FileResult r = LintText(text);
  auto f = Rule(r, "failure-policy/unknown-reason");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->suppressed_by.empty());
  CHECK(f[0]->note.find("has no effect") != std::string::npos);
}

TEST_CASE("config: rules switched off or re-graded, API-server rules refused") {
  std::string path = WriteTemp("c1.yaml",
                               "featureGates: RestartJob=true\n"
                               "rules:\n"
                               "  failure-policy/unbounded-restarts: off\n"
                               "  failure-policy/max-restarts-unused: error\n");
  LintConfig config;
  std::string error;
  REQUIRE(LoadLintConfig(path, &config, &error));
  REQUIRE(config.gates);
  CHECK(config.gates->restart_job);
  FileResult r = LintText(Looping(), config);
  CHECK(Rule(r, "failure-policy/unbounded-restarts").empty());
  auto m = Rule(r, "failure-policy/max-restarts-unused");
  REQUIRE(m.size() == 1);
  CHECK(m[0]->severity == Severity::kError);

  LintConfig bad;
  CHECK_FALSE(LoadLintConfig(WriteTemp("c2.yaml", "rules:\n  failure-policy/unknown-reason: off\n"),
                             &bad, &error));
  CHECK(error.find("cannot be disabled") != std::string::npos);
  CHECK(error.find(":2:") != std::string::npos);
  CHECK_FALSE(LoadLintConfig(WriteTemp("c3.yaml", "rules:\n  no/such-rule: off\n"), &bad, &error));
  CHECK(error.find("no such rule") != std::string::npos);
  CHECK_FALSE(LoadLintConfig(WriteTemp("c4.yaml", "rulez: {}\n"), &bad, &error));
  CHECK_FALSE(
      LoadLintConfig(WriteTemp("c5.yaml", "rules:\n  depends-on/self: loud\n"), &bad, &error));
  // A glob over a family skips the API-server rules in it.
  LintConfig glob;
  CHECK(LoadLintConfig(WriteTemp("c6.yaml", "rules:\n  failure-policy/*: off\n"), &glob, &error));
}

TEST_CASE("config: found upwards from the linted file, its gates under the flag's") {
  fs::path root = fs::temp_directory_path() / "kubectl-jobset-config-tree";
  fs::remove_all(root);
  fs::create_directories(root / "team" / "jobs");
  std::ofstream(root / ".kubectl-jobset.yaml")
      << "featureGates: RestartJob=true\nrules:\n  failure-policy/max-restarts-unused: off\n";
  std::ofstream(root / "team" / "jobs" / "j.yaml")
      << "apiVersion: jobset.x-k8s.io/v1alpha2\n"
         "kind: JobSet\n"
         "metadata: {name: j}\n"
         "spec:\n"
         "  failurePolicy:\n"
         "    maxRestarts: 2\n"
         "    rules: [{action: RestartJob}]\n"
         "  replicatedJobs:\n"
         "  - name: w\n"
         "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n";
  CHECK(FindLintConfig((root / "team" / "jobs").string()) ==
        (root / ".kubectl-jobset.yaml").string());
  LintOptions o;
  o.schema = BuiltinJobSetSchema();
  o.find_config = true;
  std::vector<FileResult> r = LintFiles({(root / "team" / "jobs" / "j.yaml").string()}, o, 1);
  REQUIRE(r.size() == 1);
  CHECK(r[0].findings.empty());  // the gate from the config admits RestartJob
  o.gates_from_flag = true;      // --feature-gates given (all off): the flag wins
  r = LintFiles({(root / "team" / "jobs" / "j.yaml").string()}, o, 1);
  REQUIRE_FALSE(r[0].findings.empty());
  CHECK(r[0].findings[0].rule == "failure-policy/restart-job-gate");
  fs::remove_all(root);
}

TEST_CASE("config: ignorePaths leave files out, relative to the config file's folder") {
  fs::path root = fs::temp_directory_path() / "kubectl-jobset-ignore-paths";
  fs::remove_all(root);
  fs::create_directories(root / "chart" / "templates");
  fs::create_directories(root / "jobs");
  std::ofstream(root / ".kubectl-jobset.yaml") << "ignorePaths:\n- chart/**\n- '*.draft.yaml'\n";
  for (const char* f : {"chart/templates/a.yaml", "jobs/b.draft.yaml", "jobs/c.yaml"})
    std::ofstream(root / f) << "apiVersion: v1\nkind: ConfigMap\n";
  LintConfig c;
  std::string error;
  REQUIRE_MESSAGE(LoadLintConfig((root / ".kubectl-jobset.yaml").string(), &c, &error), error);
  CHECK(c.ignore_paths == std::vector<std::string>{"chart/**", "*.draft.yaml"});
  CHECK(IgnoredByConfig(c, (root / "chart/templates/a.yaml").string()));
  CHECK(IgnoredByConfig(c, (root / "jobs/b.draft.yaml").string()));
  CHECK_FALSE(IgnoredByConfig(c, (root / "jobs/c.yaml").string()));
  CHECK_FALSE(IgnoredByConfig(c, "-"));
  LintOptions o;
  o.find_config = true;
  std::vector<FileResult> r =
      LintFiles({(root / "chart/templates/a.yaml").string(), (root / "jobs/b.draft.yaml").string(),
                 (root / "jobs/c.yaml").string()},
                o, 2);
  REQUIRE(r.size() == 1);
  CHECK(r[0].path == (root / "jobs/c.yaml").string());
  // A value that is no list of globs is refused, naming the file and line.
  std::ofstream(root / "bad.yaml") << "ignorePaths:\n- 3\n";
  CHECK_FALSE(LoadLintConfig((root / "bad.yaml").string(), &c, &error));
  CHECK(error ==
        (root / "bad.yaml").string() + ":2: ignorePaths: want a path glob (a non-empty string)");
  std::ofstream(root / "bad2.yaml") << "ignorePaths: {a: b}\n";
  CHECK_FALSE(LoadLintConfig((root / "bad2.yaml").string(), &c, &error));
  CHECK(error.find(":1: ignorePaths: want a list of path globs") != std::string::npos);
  fs::remove_all(root);
}

}  // namespace jobset
