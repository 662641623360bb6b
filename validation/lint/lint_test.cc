#include "validation/lint/lint.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "tests/corpus.h"

namespace jobset {
namespace {

namespace fs = std::filesystem;

LintOptions Options(FeatureGates gates = {}) {
  LintOptions o;
  o.gates = gates;
  o.schema = BuiltinJobSetSchema();
  return o;
}

std::string Describe(const FileResult& r) {
  std::string s;
  for (const Finding& f : r.findings) {
    s += f.file + ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column) + ": " +
         f.rule + ": " + f.message + "\n";
  }
  return s;
}

// The examples that need a feature gate upstream, as the upstream docs say.
FeatureGates GatesFor(const std::string& path) {
  FeatureGates g;
  if (path.find("restartjob") != std::string::npos) g.restart_job = true;
  if (path.find("in-place-restart") != std::string::npos) g.in_place_restart = true;
  return g;
}

}  // namespace

TEST_CASE("lint: every JobSet of the upstream corpus lints without errors" *
          doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (corpus.empty()) return;
  std::vector<std::string> files;
  std::string error;
  REQUIRE(ExpandPaths({corpus + "/jobset/examples"}, true, &files, &error));
  REQUIRE(files.size() > 20);
  int objects = 0, skipped = 0;
  std::vector<std::string> warnings;
  for (const std::string& path : files) {
    SourceFile source;
    REQUIRE(LoadFile(path, LoadLimits{}, &source, &error));
    FileResult r = LintSource(source, Options(GatesFor(path)));
    objects += r.objects;
    skipped += r.skipped;
    int errors = 0;
    for (const Finding& f : r.findings) {
      errors += f.severity == Severity::kError;
      if (f.severity == Severity::kWarning) {
        warnings.push_back(fs::path(path).filename().string() + " " + f.rule);
      }
    }
    INFO(Describe(r));
    CHECK_MESSAGE(errors == 0, path);
  }
  // The warnings the corpus earns, each argued in its rule's doc: these upstream examples make
  // the leader fail on purpose and restart it with an ignore-max action, which loops forever;
  // host-maintenance-event-model's RestartJobSet rule has a budget of 0, so it fails instead.
  std::vector<std::string> expected = {
      "host-maintenance-event-model.yaml failure-policy/restart-without-budget",
      "onjobfailurereasons-present-podfailurepolicy.yaml failure-policy/unbounded-restarts",
      "onjobfailurereasons-present.yaml failure-policy/unbounded-restarts",
      "restartjobandignoremaxrestarts-action.yaml failure-policy/max-restarts-unused",
      "restartjobandignoremaxrestarts-action.yaml failure-policy/unbounded-restarts",
      "restartjobandignoremaxrestarts-action.yaml failure-policy/unbounded-restarts",
      "restartjobsetandignoremaxrestarts-action.yaml failure-policy/unbounded-restarts",
  };
  std::sort(warnings.begin(), warnings.end());
  CHECK(warnings == expected);
  CHECK(objects >= 30);  // the corpus has dozens of JobSets ...
  CHECK(skipped >= 10);  // ... and Kueue, RBAC, Workload objects that are skipped quietly
}

TEST_CASE("lint: gated examples are rejected without their gate, as upstream" *
          doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (corpus.empty()) return;
  for (const char* rel : {"failure-policy/restartjob-action.yaml",
                          "in-place-restart/jobset-sidecar-container-mode.yaml"}) {
    std::string path = corpus + "/jobset/examples/" + rel;
    SourceFile source;
    std::string error;
    REQUIRE(LoadFile(path, LoadLimits{}, &source, &error));
    FileResult r = LintSource(source, Options());
    REQUIRE_FALSE(r.findings.empty());
    CHECK(r.findings[0].severity == Severity::kError);
    CHECK((r.findings[0].rule == "failure-policy/restart-job-gate" ||
           r.findings[0].rule == "failure-policy/in-place-restart-gate"));
  }
}

TEST_CASE("lint: kind List items, other kinds and findings carry their document") {
  SourceFile source =
      ParseSource("list.yaml",
                  "apiVersion: v1\n"
                  "kind: ConfigMap\n"
                  "metadata: {name: x}\n"
                  "---\n"
                  "apiVersion: v1\n"
                  "kind: List\n"
                  "items:\n"
                  "- apiVersion: jobset.x-k8s.io/v1alpha2\n"
                  "  kind: JobSet\n"
                  "  metadata: {name: ok}\n"
                  "  spec:\n"
                  "    replicatedJobs:\n"
                  "    - name: w\n"
                  "      template:\n"
                  "        spec:\n"
                  "          template:\n"
                  "            spec:\n"
                  "              containers: [{name: c, image: busybox}]\n"
                  "- apiVersion: jobset.x-k8s.io/v1alpha2\n"
                  "  kind: JobSet\n"
                  "  metadata: {name: bad}\n"
                  "  spec:\n"
                  "    successPolicy: {operator: All, targetReplicatedJobs: [nope]}\n"
                  "    replicatedJobs:\n"
                  "    - name: w\n"
                  "      template:\n"
                  "        spec:\n"
                  "          template:\n"
                  "            spec:\n"
                  "              containers: [{name: c, image: busybox}]\n");
  FileResult r = LintSource(source, Options());
  CHECK(r.objects == 2);
  CHECK(r.skipped == 1);
  INFO(Describe(r));
  REQUIRE(r.findings.size() == 1);
  const Finding& f = r.findings[0];
  CHECK(f.rule == "success-policy/unknown-target");
  CHECK(f.file == "list.yaml");
  CHECK(f.document == 1);
  CHECK(f.name == "bad");
  CHECK(f.kind == "JobSet");
  CHECK(f.field == "spec.successPolicy.targetReplicatedJobs[0]");
  CHECK(f.mark.line == 23);
  CHECK(f.mark.column == 59);
}

TEST_CASE("lint: a misspelt identity is an error of its document, other kinds stay quiet") {
  SourceFile source = ParseSource("typos.yaml",
                                  "apiVersion: batch/v1\nkind: Job\nmetadata: {name: native}\n"
                                  "---\napiVersion: jobset.x-k8s.io/v1alpha2\nkind: Jobset\n"
                                  "metadata: {name: typo}\n");
  FileResult r = LintSource(source, Options());
  CHECK(r.objects == 0);
  CHECK(r.skipped == 2);
  REQUIRE(r.findings.size() == 1);
  const Finding& f = r.findings[0];
  CHECK(f.rule == "input/unknown-kind");
  CHECK(f.document == 1);
  CHECK(f.name == "typo");
  CHECK(f.kind == "Jobset");
  CHECK(f.api_version == "jobset.x-k8s.io/v1alpha2");
  CHECK(f.field == "kind");
  CHECK(f.mark.line == 6);
}

TEST_CASE("lint: documents without apiVersion and kind give no findings, duplicate keys neither") {
  // A Helm values.yaml and a package.json.
  SourceFile values = ParseSource("values.yaml", "image: a\nreplicas: 2\nimage: b\n");
  SourceFile package = ParseSource("package.json", "{\"name\": \"x\", \"name\": \"y\"}");
  for (const SourceFile* f : {&values, &package}) {
    FileResult r = LintSource(*f, Options());
    INFO(Describe(r));
    CHECK(r.findings.empty());
    CHECK(r.skipped == 1);
  }
  // With a kind, the duplicate key is still reported.
  FileResult r = LintSource(ParseSource("cm.yaml", "kind: ConfigMap\nx: 1\nx: 2\n"), Options());
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].rule == "yaml/duplicate-key");
}

TEST_CASE("lint: a Helm template gets one info finding instead of syntax errors") {
  SourceFile source = ParseSource("templates/job.yaml",
                                  "{{- if .Values.enabled }}\n"
                                  "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n"
                                  "metadata:\n  name: {{ .Release.Name }}\n{{- end }}\n");
  FileResult r = LintSource(source, Options());
  INFO(Describe(r));
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].rule == "input/helm-template");
  CHECK(r.findings[0].severity == Severity::kInfo);
  CHECK(r.findings[0].mark.line == 1);
  CHECK(r.findings[0].message.find("helm template RELEASE CHART | kubectl jobset lint -") !=
        std::string::npos);
  CHECK(r.objects == 0);
}

TEST_CASE("lint: syntax errors are error findings, other documents still checked") {
  SourceFile source = ParseSource("x.yaml",
                                  "apiVersion: jobset.x-k8s.io/v1alpha2\n"
                                  "kind: JobSet\n"
                                  "metadata: {name: [oops\n"
                                  "---\n"
                                  "apiVersion: jobset.x-k8s.io/v1alpha2\n"
                                  "kind: JobSet\n"
                                  "metadata: {name: UPPER}\n"
                                  "spec:\n"
                                  "  replicatedJobs:\n"
                                  "  - name: w\n"
                                  "    template:\n"
                                  "      spec:\n"
                                  "        template:\n"
                                  "          spec:\n"
                                  "            containers: [{name: c, image: busybox}]\n");
  FileResult r = LintSource(source, Options());
  INFO(Describe(r));
  REQUIRE(r.findings.size() >= 2);
  CHECK(r.findings[0].rule == "yaml/syntax");
  CHECK(r.findings[0].document == 0);
  bool name_error = false;
  for (const Finding& f : r.findings) {
    if (f.rule == "metadata/name" && f.document == 1) {
      name_error = true;
      CHECK(f.mark.line == 7);
      CHECK(f.mark.column == 18);
    }
  }
  CHECK(name_error);
}

TEST_CASE("lint: files are checked in parallel and come back in order") {
  std::vector<std::string> files;
  std::string error;
  REQUIRE(ExpandPaths({JOBSET_SOURCE_DIR "/examples"}, true, &files, &error));
  REQUIRE(files.size() > 10);
  std::vector<FileResult> one = LintFiles(files, Options(), 1);
  std::vector<FileResult> two = LintFiles(files, Options(), 2);
  REQUIRE(one.size() == files.size());
  REQUIRE(two.size() == files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    CHECK(one[i].path == files[i]);
    CHECK(two[i].path == files[i]);
    CHECK(one[i].findings.size() == two[i].findings.size());
  }
}

TEST_CASE("lint: builtin_schema checks JobSets against the built-in schema when no CRD is given") {
  // An unknown field of a container: only the schema reports it.
  SourceFile source = ParseSource("js.yaml",
                                  "apiVersion: jobset.x-k8s.io/v1alpha2\n"
                                  "kind: JobSet\n"
                                  "metadata:\n"
                                  "  name: js\n"
                                  "spec:\n"
                                  "  replicatedJobs:\n"
                                  "  - name: w\n"
                                  "    template:\n"
                                  "      spec:\n"
                                  "        template:\n"
                                  "          spec:\n"
                                  "            restartPolicy: Never\n"
                                  "            containers:\n"
                                  "            - name: main\n"
                                  "              image: busybox\n"
                                  "              imagePullPolicyy: Always\n");
  auto unknown_field = [](const FileResult& r) {
    return std::count_if(r.findings.begin(), r.findings.end(), [](const Finding& f) {
      return f.field ==
             "spec.replicatedJobs[0].template.spec.template.spec.containers[0]."
             "imagePullPolicyy";
    });
  };
  LintOptions none;
  CHECK(JobSetSchema(none) == nullptr);
  CHECK(unknown_field(LintSource(source, none)) == 0);
  LintOptions builtin;
  builtin.builtin_schema = true;
  CHECK(JobSetSchema(builtin) == BuiltinJobSetSchema().get());
  CHECK(unknown_field(LintSource(source, builtin)) == 1);
  // A CRD given (here the built-in schema again) wins.
  LintOptions crd = Options();
  crd.builtin_schema = true;
  CHECK(JobSetSchema(crd) == crd.schema.get());
  CHECK(unknown_field(LintSource(source, crd)) == 1);
}

}  // namespace jobset
