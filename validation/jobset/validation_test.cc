// Tests of JobSet admission: kube-apiserver's rules beyond the schema (metadata, keyed lists,
// CEL) and the upstream validating webhook's CREATE rules (kubernetes-sigs/jobset@08dfbdfd
// pkg/webhooks/jobset_webhook.go, ValidateCreate), run through LintObject (defaults first, as
// kube-apiserver does) without the JSON Schema.
//
// Every rejected case checks the rule, severity, field, message, upstream rendering and the
// position; every rejected case has an accepted twin that fixes just the offending value.
#include "validation/jobset/validation.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "tests/test_size.h"
#include "validation/core/loader.h"
#include "validation/jobset/lint.h"
#include "validation/jobset/rules.h"
#include "validation/lint/rule_registry.h"

namespace jobset {
namespace {

// The library texts, copied from k8s.io/apimachinery's validation messages, not from our code.
constexpr char kDns1035Format[] =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
constexpr char kDns1123SubdomainFormat[] =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr char kDns1123LabelFormat[] =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
constexpr char kLabelValueFormat[] =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
constexpr char kQualifiedNamePartFormat[] =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

// --- Helpers ---------------------------------------------------------------------------------

using Findings = std::vector<Finding>;

FeatureGates Gates(bool restart_job, bool in_place_restart) {
  FeatureGates g;
  g.restart_job = restart_job;
  g.in_place_restart = in_place_restart;
  return g;
}
const FeatureGates kNoGates = Gates(false, false);
const FeatureGates kRestartJobGate = Gates(true, false);
const FeatureGates kInPlace = Gates(false, true);

// Parses one JobSet and lints it as kube-apiserver would on CREATE, without the JSON Schema.
Findings Lint(const std::string& yaml, const FeatureGates& gates = kNoGates) {
  SourceFile file = ParseSource("test.yaml", yaml);
  REQUIRE(file.problems.empty());
  REQUIRE(file.documents.size() == 1);
  REQUIRE(file.documents[0].parsed);
  // Admission verdicts only: our own analysis warnings are tested in analysis_test.cc.
  Findings errors;
  for (Finding& f : LintJobSet(file.documents[0].root, gates, /*schema=*/nullptr)) {
    if (f.severity == Severity::kError) errors.push_back(std::move(f));
  }
  return errors;
}

// The rule ids of `findings`, comma-separated, in emission order ("" when accepted).
// The rules of the JobSet's own admission (the child Jobs' rules, which fixtures with
// parallelism but no completions also hit, are tested in children_test.cc).
std::string Rules(const Findings& findings) {
  std::string out;
  for (const Finding& f : findings) {
    if (f.rule.rfind("child/", 0) == 0) continue;
    out += (out.empty() ? "" : ",") + f.rule;
  }
  return out;
}

Findings WithRule(const Findings& findings, std::string_view id) {
  Findings out;
  for (const Finding& f : findings) {
    if (f.rule == id) out.push_back(f);
  }
  return out;
}

const Finding* FindRule(const Findings& findings, std::string_view id) {
  for (const Finding& f : findings) {
    if (f.rule == id) return &f;
  }
  return nullptr;
}

// Replaces every `token` in `text` with `value`.
std::string Sub(std::string text, std::string_view token, std::string_view value) {
  size_t at = 0;
  while ((at = text.find(token, at)) != std::string::npos) {
    text.replace(at, token.size(), value);
    at += value.size();
  }
  return text;
}

// The corrected twin of a case: the same YAML with the one offending snippet replaced.
std::string Twin(std::string yaml, std::string_view from, std::string_view to) {
  size_t at = yaml.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "twin snippet not found: " << from);
  yaml.replace(at, from.size(), to);
  return yaml;
}

std::string Repeat(char c, size_t n) { return std::string(n, c); }

// A field error: the message is what kube-apiserver prints, so upstream equals it.
void CheckField(const Finding& f, std::string_view rule, std::string_view field,
                const std::string& message, int line, int column) {
  CAPTURE(f.message);
  CHECK(f.rule == rule);
  CHECK(f.severity == Severity::kError);
  CHECK(f.field == field);
  CHECK(f.message == message);
  CHECK(f.upstream == message);
  CHECK(f.mark.line == line);
  CHECK(f.mark.column == column);
}

// A plain webhook error: rendered upstream as "<nil>: Internal error: <message>".
void CheckPlain(const Finding& f, std::string_view rule, std::string_view field,
                const std::string& message, int line, int column) {
  CAPTURE(f.message);
  CHECK(f.rule == rule);
  CHECK(f.severity == Severity::kError);
  CHECK(f.field == field);
  CHECK(f.message == message);
  CHECK(f.upstream == "<nil>: Internal error: " + message);
  CHECK(f.mark.line == line);
  CHECK(f.mark.column == column);
}

// The only finding is one field error of `rule`.
void ExpectOnlyField(const Findings& fs, std::string_view rule, std::string_view field,
                     const std::string& message, int line, int column) {
  REQUIRE(Rules(fs) == rule);
  CheckField(fs[0], rule, field, message, line, column);
}

// The only finding is one plain error of `rule`.
void ExpectOnlyPlain(const Findings& fs, std::string_view rule, std::string_view field,
                     const std::string& message, int line, int column) {
  REQUIRE(Rules(fs) == rule);
  CheckPlain(fs[0], rule, field, message, line, column);
}

// --- kube-apiserver: metadata ------------------------------------------------------------------

constexpr char kMetadataName[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: Train_1
spec:
  replicatedJobs:
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 2
        completions: 2
        template:
          spec:
            containers: [{name: main, image: busybox}]
)";

TEST_CASE("admission: metadata/name rejects a name that is not a DNS-1123 subdomain") {
  Findings fs = Lint(kMetadataName);
  // The same name also breaks the generated child Job and Pod names.
  CHECK(Rules(fs) == "metadata/name,replicated-job/job-name,replicated-job/pod-name");
  const Finding* f = FindRule(fs, "metadata/name");
  REQUIRE(f != nullptr);
  CheckField(*f, "metadata/name", "metadata.name",
             std::string("metadata.name: Invalid value: \"Train_1\": ") + kDns1123SubdomainFormat,
             4, 9);
  CHECK(Rules(Lint(Twin(kMetadataName, "Train_1", "train-1"))) == "");
}

TEST_CASE("admission: metadata/name requires a name or a generateName") {
  std::string yaml = Twin(kMetadataName, "  name: Train_1\n", "  namespace: default\n");
  Findings fs = WithRule(Lint(yaml), "metadata/name");
  REQUIRE(fs.size() == 1);
  // Points at the parent of the missing field.
  CheckField(fs[0], "metadata/name", "metadata.name",
             "metadata.name: Required value: name or generateName is required", 3, 1);
}

TEST_CASE("admission: metadata/name checks generateName as a prefix (a trailing '-' is fine)") {
  std::string yaml = Twin(kMetadataName, "  name: Train_1", "  generateName: Train-");
  Findings fs = WithRule(Lint(yaml), "metadata/name");
  REQUIRE(fs.size() == 1);
  CheckField(
      fs[0], "metadata/name", "metadata.generateName",
      std::string("metadata.generateName: Invalid value: \"Train-\": ") + kDns1123SubdomainFormat,
      4, 17);
  CHECK(Rules(Lint(Twin(kMetadataName, "  name: Train_1", "  generateName: train-"))) == "");
}

constexpr char kNamespace[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
  namespace: Team.A
spec:
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: metadata/namespace must be a DNS-1123 label") {
  ExpectOnlyField(
      Lint(kNamespace), "metadata/namespace", "metadata.namespace",
      std::string("metadata.namespace: Invalid value: \"Team.A\": ") + kDns1123LabelFormat, 5, 14);
  CHECK(Rules(Lint(Twin(kNamespace, "Team.A", "team-a"))) == "");
}

constexpr char kLabels[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
  labels:
    app: trainer
    '-tier': gpu
    team: ml platform
spec:
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: metadata/labels checks keys (at the key) and values (at the value)") {
  Findings fs = Lint(kLabels);
  REQUIRE(Rules(fs) == "metadata/labels,metadata/labels");
  CheckField(fs[0], "metadata/labels", "metadata.labels",
             std::string("metadata.labels: Invalid value: \"-tier\": ") + kQualifiedNamePartFormat,
             7, 5);
  CheckField(fs[1], "metadata/labels", "metadata.labels",
             std::string("metadata.labels: Invalid value: \"ml platform\": ") + kLabelValueFormat,
             8, 11);
  std::string fixed = Twin(Twin(kLabels, "'-tier'", "tier"), "ml platform", "ml-platform");
  CHECK(Rules(Lint(fixed)) == "");
}

TEST_CASE("admission: metadata/labels values are limited to 63 bytes") {
  std::string yaml = Twin(kLabels, "    '-tier': gpu\n    team: ml platform\n", "    team: @V@\n");
  ExpectOnlyField(
      Lint(Sub(yaml, "@V@", Repeat('m', 64))), "metadata/labels", "metadata.labels",
      "metadata.labels: Invalid value: \"" + Repeat('m', 64) + "\": must be no more than 63 bytes",
      7, 11);
  CHECK(Rules(Lint(Sub(yaml, "@V@", Repeat('m', 63)))) == "");
}

// A label key with dots (the usual app.kubernetes.io/... kind) must still be located.
TEST_CASE("admission: metadata/labels points at a bad value under a dotted key") {
  std::string yaml = Twin(kLabels, "    '-tier': gpu\n    team: ml platform\n",
                          "    app.kubernetes.io/part-of: ml platform\n");
  Findings fs = Lint(yaml);
  REQUIRE(Rules(fs) == "metadata/labels");
  CheckField(fs[0], "metadata/labels", "metadata.labels",
             std::string("metadata.labels: Invalid value: \"ml platform\": ") + kLabelValueFormat,
             7, 32);
}

// --- kube-apiserver: keyed lists and CEL --------------------------------------------------------

constexpr char kDuplicateRJob[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: schema/duplicate-key rejects two replicated jobs with one name") {
  ExpectOnlyField(Lint(kDuplicateRJob), "schema/duplicate-key", "spec.replicatedJobs[1]",
                  "spec.replicatedJobs[1]: Duplicate value: "
                  "map[string]interface {}{\"name\":\"workers\"}",
                  9, 11);
  CHECK(Rules(Lint(Twin(kDuplicateRJob, "  - name: workers\n    template: {spec: {template",
                        "  - name: readers\n    template: {spec: {template"))) == "");
}

constexpr char kDuplicateDependsOn[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: leader
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: workers
    dependsOn:
    - name: leader
      status: Ready
    - name: leader
      status: Complete
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: schema/duplicate-key rejects two dependsOn entries with one name") {
  ExpectOnlyField(Lint(kDuplicateDependsOn), "schema/duplicate-key",
                  "spec.replicatedJobs[1].dependsOn[1]",
                  "spec.replicatedJobs[1].dependsOn[1]: Duplicate value: "
                  "map[string]interface {}{\"name\":\"leader\"}",
                  13, 13);
  CHECK(Rules(Lint(
            Twin(kDuplicateDependsOn, "    - name: leader\n      status: Complete\n", ""))) == "");
}

constexpr char kStartupInOrder[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  startupPolicy:
    startupPolicyOrder: InOrder
  replicatedJobs:
  - name: leader
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: workers
    dependsOn: [{name: leader, status: Ready}]
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: jobset/startup-policy-depends-on rejects InOrder with dependsOn") {
  ExpectOnlyField(Lint(kStartupInOrder), "jobset/startup-policy-depends-on", "spec",
                  "spec: Invalid value: \"object\": StartupPolicy and DependsOn APIs are mutually "
                  "exclusive",
                  7, 25);
  CHECK(Rules(Lint(Twin(kStartupInOrder, "InOrder", "AnyOrder"))) == "");
  // InOrder without any dependsOn is fine too.
  CHECK(Rules(Lint(
            Twin(kStartupInOrder, "    dependsOn: [{name: leader, status: Ready}]\n", ""))) == "");
}

constexpr char kVcpBase[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    template:
      spec:
        template:
          spec:
            containers:
            - name: main
              image: busybox
              volumeMounts: [{name: @V@, mountPath: /data}]
  volumeClaimPolicies:
  - templates:
    - metadata:
        name: @T@
        namespace: @NS@
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
)";

// The VCP case with template and mounted volume `name`, and template namespace `ns`.
std::string Vcp(std::string_view name, std::string_view ns = "\"\"") {
  return Sub(Sub(Sub(kVcpBase, "@V@", name), "@T@", name), "@NS@", ns);
}

TEST_CASE("admission: volume-claim-policy/namespace rejects a namespaced template") {
  ExpectOnlyField(Lint(Vcp("data", "other")), "volume-claim-policy/namespace",
                  "spec.volumeClaimPolicies[0]",
                  "spec.volumeClaimPolicies[0]: Invalid value: \"object\": namespace cannot be "
                  "set for VolumeClaimPolicies templates",
                  20, 20);
  CHECK(Rules(Lint(Vcp("data", "\"\""))) == "");  // an empty namespace is allowed
  CHECK(Rules(Lint(Twin(Vcp("data"), "        namespace: \"\"\n", ""))) == "");
}

// --- Webhook: JobSet-level checks ------------------------------------------------------------

constexpr char kInPlaceRestart[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: 3
    restartStrategy: InPlaceRestart
  replicatedJobs:
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 3
        completions: 2
        backoffLimit: 6
        podReplacementPolicy: TerminatingOrFailed
        template:
          spec:
            containers: [{name: main, image: busybox}]
)";

TEST_CASE("admission: rejects InPlaceRestart when the gate is off, and skips the in-place checks") {
  ExpectOnlyPlain(Lint(kInPlaceRestart, kNoGates), "failure-policy/in-place-restart-gate",
                  "spec.failurePolicy.restartStrategy",
                  "InPlaceRestart restart strategy cannot be set when InPlaceRestart feature gate "
                  "is disabled",
                  8, 22);
  CHECK(Rules(Lint(Twin(kInPlaceRestart, "InPlaceRestart", "BlockingRecreate"))) == "");
  // With the gate on, the gate check is silent (the in-place restart checks apply instead, tested
  // below).
  CHECK(FindRule(Lint(kInPlaceRestart, kInPlace), "failure-policy/in-place-restart-gate") ==
        nullptr);
}

constexpr char kFirstDependsOn[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: leader
    dependsOn:
    - name: leader
      status: Ready
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: rejects dependsOn on the first replicated job") {
  ExpectOnlyPlain(Lint(kFirstDependsOn), "depends-on/first-replicated-job",
                  "spec.replicatedJobs[0].dependsOn",
                  "DependsOn can't be set for the first ReplicatedJob", 8, 5);
  // An explicit empty list is non-nil too.
  const char kDependsOnBlock[] = "    dependsOn:\n    - name: leader\n      status: Ready\n";
  std::string empty = Twin(kFirstDependsOn, kDependsOnBlock, "    dependsOn: []\n");
  ExpectOnlyPlain(Lint(empty), "depends-on/first-replicated-job",
                  "spec.replicatedJobs[0].dependsOn",
                  "DependsOn can't be set for the first ReplicatedJob", 8, 5);
  // The twin: the dependency moves to the second replicated job.
  std::string moved = Twin(kFirstDependsOn, kDependsOnBlock, "");
  moved = Twin(moved, "  - name: workers\n",
               "  - name: workers\n    dependsOn: [{name: leader, status: Ready}]\n");
  CHECK(Rules(Lint(moved)) == "");
}

TEST_CASE("admission: dependsOn on the first replicated job ignores an explicit null") {
  std::string yaml =
      Twin(kFirstDependsOn, "    dependsOn:\n    - name: leader\n      status: Ready\n",
           "    dependsOn: null\n");
  CHECK(Rules(Lint(yaml)) == "");
}

constexpr char kSubdomain[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  network:
    subdomain: @SUB@
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

std::string SubdomainMessage(const std::string& value, const std::string& detail) {
  return "spec.network.subdomain: Invalid value: \"" + value + "\": " + detail;
}

TEST_CASE("admission: subdomain reports both DNS-1123 and DNS-1035 errors when neither holds") {
  Findings fs = Lint(Sub(kSubdomain, "@SUB@", "My_Net"));
  REQUIRE(Rules(fs) == "network/subdomain,network/subdomain");
  CheckField(fs[0], "network/subdomain", "spec.network.subdomain",
             SubdomainMessage("My_Net", kDns1123SubdomainFormat), 7, 16);
  CheckField(fs[1], "network/subdomain", "spec.network.subdomain",
             SubdomainMessage("My_Net", kDns1035Format), 7, 16);
  CHECK(Rules(Lint(Sub(kSubdomain, "@SUB@", "my-net"))) == "");
}

TEST_CASE("admission: subdomain: DNS-1035 rejects a dotted one with the two-space DNS-1035 text") {
  Findings fs = Lint(Sub(kSubdomain, "@SUB@", "my.net"));
  ExpectOnlyField(fs, "network/subdomain", "spec.network.subdomain",
                  SubdomainMessage("my.net", kDns1035Format), 7, 16);
  CHECK(fs[0].message.find("(e.g. 'my-name',  or 'abc-123'") != std::string::npos);
}

TEST_CASE("admission: subdomain: DNS-1035 replaces the too-long text over 63 characters") {
  std::string long_sub = Repeat('s', 64);
  ExpectOnlyField(Lint(Sub(kSubdomain, "@SUB@", long_sub)), "network/subdomain",
                  "spec.network.subdomain",
                  SubdomainMessage(long_sub,
                                   ".spec.network.subdomain is too long, must be less "
                                   "than 63 characters"),
                  7, 16);
  CHECK(Rules(Lint(Sub(kSubdomain, "@SUB@", Repeat('s', 63)))) == "");
}

TEST_CASE("admission: subdomain reports both DNS-1123 and DNS-1035 errors over 253 characters") {
  std::string huge = Repeat('s', 254);
  Findings fs = Lint(Sub(kSubdomain, "@SUB@", huge));
  REQUIRE(Rules(fs) == "network/subdomain,network/subdomain");
  CheckField(fs[0], "network/subdomain", "spec.network.subdomain",
             SubdomainMessage(huge, "must be no more than 253 characters"), 7, 16);
  CheckField(fs[1], "network/subdomain", "spec.network.subdomain",
             SubdomainMessage(huge,
                              ".spec.network.subdomain is too long, must be less than 63 "
                              "characters"),
             7, 16);
}

TEST_CASE("admission: an empty subdomain is not checked") {
  CHECK(Rules(Lint(Sub(kSubdomain, "@SUB@", "\"\""))) == "");
}

constexpr char kManagedBy[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  managedBy: @MB@
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

Findings LintManagedBy(std::string_view value) { return Lint(Sub(kManagedBy, "@MB@", value)); }

TEST_CASE("admission: managedBy must not be empty") {
  ExpectOnlyField(LintManagedBy("\"\""), "managed-by/format", "spec.managedBy",
                  "spec.managedBy: Required value", 6, 14);
}

TEST_CASE("admission: managedBy must be a domain-prefixed path") {
  for (const char* bad : {"kueue", "/multikueue", "kueue.x-k8s.io/"}) {
    CAPTURE(bad);
    ExpectOnlyField(LintManagedBy(bad), "managed-by/format", "spec.managedBy",
                    std::string("spec.managedBy: Invalid value: \"") + bad +
                        "\": must be a domain-prefixed path (such as \"acme.io/foo\")",
                    6, 14);
  }
}

TEST_CASE("admission: managedBy host must be a DNS-1123 subdomain (value = host)") {
  ExpectOnlyField(
      LintManagedBy("Kueue_IO/manager"), "managed-by/format", "spec.managedBy",
      std::string("spec.managedBy: Invalid value: \"Kueue_IO\": ") + kDns1123SubdomainFormat, 6,
      14);
}

TEST_CASE("admission: managedBy path must match the HTTP path regex (value = path)") {
  ExpectOnlyField(LintManagedBy("kueue.x-k8s.io/multi^kueue"), "managed-by/format",
                  "spec.managedBy",
                  "spec.managedBy: Invalid value: \"multi^kueue\": Invalid path (regex used for "
                  "validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
                  6, 14);
  // Every character of the regex is allowed, including further slashes.
  CHECK(Rules(LintManagedBy("\"example.com/a/b-c._~%!$&'()*+,;=:\"")) == "");
}

TEST_CASE("admission: managedBy is limited to 63 bytes") {
  std::string too_long = "example.com/" + Repeat('m', 52);  // 64
  ExpectOnlyField(LintManagedBy(too_long), "managed-by/format", "spec.managedBy",
                  "spec.managedBy: Too long: may not be more than 63 bytes", 6, 14);
  CHECK(Rules(LintManagedBy("example.com/" + Repeat('m', 51))) == "");
  // Too long and without a slash: the format error, then the length error.
  Findings fs = LintManagedBy(Repeat('m', 64));
  REQUIRE(Rules(fs) == "managed-by/format,managed-by/format");
  CHECK(fs[0].message == "spec.managedBy: Invalid value: \"" + Repeat('m', 64) +
                             "\": must be a domain-prefixed path (such as \"acme.io/foo\")");
  CHECK(fs[1].message == "spec.managedBy: Too long: may not be more than 63 bytes");
}

TEST_CASE("admission: managedBy format and length accept a valid managedBy") {
  CHECK(Rules(LintManagedBy("kueue.x-k8s.io/multikueue")) == "");
}

// --- Webhook: per replicated job checks ------------------------------------------------------

constexpr char kProduct[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    replicas: @R@
    template:
      spec:
        parallelism: @P@
        template:
          spec:
            containers: [{name: main, image: busybox}]
)";

Findings LintProduct(std::string_view replicas, std::string_view parallelism) {
  std::string yaml = Sub(kProduct, "@R@", replicas);
  if (parallelism.empty()) {
    yaml = Twin(yaml, "        parallelism: @P@\n", "");
  } else {
    yaml = Sub(yaml, "@P@", parallelism);
  }
  return Lint(yaml);
}

constexpr char kOverflowMessage[] =
    "the product of replicas and parallelism must not exceed 2147483647 for replicatedJob "
    "'workers'";

TEST_CASE("admission: rejects replicas x parallelism over MaxInt32, computed in 64 bits") {
  // 65536 x 65536 wraps to 0 in 32 bits.
  ExpectOnlyPlain(LintProduct("65536", "65536"), "replicated-job/replicas-parallelism-overflow",
                  "spec.replicatedJobs[0].replicas", kOverflowMessage, 8, 15);
  CHECK(Rules(LintProduct("65536", "32767")) == "");  // 2147418112
  CHECK(Rules(LintProduct("1", "2147483647")) == "");
}

TEST_CASE("admission: replicas x parallelism treats a missing parallelism as 1") {
  ExpectOnlyPlain(LintProduct("2147483648", ""), "replicated-job/replicas-parallelism-overflow",
                  "spec.replicatedJobs[0].replicas", kOverflowMessage, 8, 15);
  CHECK(Rules(LintProduct("2147483647", "")) == "");
}

TEST_CASE("admission: replicas x parallelism rejects a product that overflows 64 bits") {
  ExpectOnlyPlain(LintProduct("4294967296", "4294967296"),
                  "replicated-job/replicas-parallelism-overflow", "spec.replicatedJobs[0].replicas",
                  kOverflowMessage, 8, 15);
}

constexpr char kGroupName[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    groupName: @G@
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

Findings LintGroup(std::string_view group) { return Lint(Sub(kGroupName, "@G@", group)); }

TEST_CASE("admission: groupName must be a DNS-1035 label") {
  ExpectOnlyField(LintGroup("Group_A"), "replicated-job/group-name",
                  "spec.replicatedJobs[0].groupName",
                  std::string("spec.replicatedJobs[0].groupName: Invalid value: \"Group_A\": ") +
                      kDns1035Format,
                  8, 16);
  CHECK(Rules(LintGroup("group-a")) == "");
}

TEST_CASE("admission: an explicit empty groupName fails the regex") {
  ExpectOnlyField(
      LintGroup("\"\""), "replicated-job/group-name", "spec.replicatedJobs[0].groupName",
      std::string("spec.replicatedJobs[0].groupName: Invalid value: \"\": ") + kDns1035Format, 8,
      16);
}

TEST_CASE("admission: groupName replaces the too-long text for a groupName over 63 characters") {
  std::string group = Repeat('g', 64);
  ExpectOnlyField(LintGroup(group), "replicated-job/group-name", "spec.replicatedJobs[0].groupName",
                  "spec.replicatedJobs[0].groupName: Invalid value: \"" + group +
                      "\": .spec.replicatedJob[].groupName is too long, must be less than 63 "
                      "characters",
                  8, 16);
  CHECK(Rules(LintGroup(Repeat('g', 63))) == "");
}

constexpr char kJobName[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: @RJ@
    replicas: @R@
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

Findings LintJobName(std::string_view rjob, std::string_view replicas) {
  return Lint(Sub(Sub(kJobName, "@RJ@", rjob), "@R@", replicas));
}

std::string JobNameTooLong(const std::string& job_name) {
  return "spec.replicatedJobs[0].name: Invalid value: \"" + job_name +
         "\": JobSet name is too long, job names generated for this JobSet will exceed 63 "
         "characters";
}

TEST_CASE("admission: rejects a longest child Job name over 63 characters") {
  // train-<56>-0 is 64 characters.
  std::string rjob = Repeat('w', 56);
  ExpectOnlyField(LintJobName(rjob, "1"), "replicated-job/job-name", "spec.replicatedJobs[0].name",
                  JobNameTooLong("train-" + rjob + "-0"), 7, 11);
  CHECK(Rules(LintJobName(Repeat('w', 55), "1")) == "");
}

TEST_CASE("admission: child Job name counts the digits of replicas-1") {
  std::string rjob = Repeat('w', 55);
  // replicas 11: the last job is train-<55>-10, 64 characters.
  ExpectOnlyField(LintJobName(rjob, "11"), "replicated-job/job-name", "spec.replicatedJobs[0].name",
                  JobNameTooLong("train-" + rjob + "-10"), 7, 11);
  CHECK(Rules(LintJobName(rjob, "10")) == "");
}

TEST_CASE("admission: child Job name with replicas 0 counts the '-' of -1") {
  // train-<55>--1 is 64 characters.
  std::string rjob = Repeat('w', 55);
  ExpectOnlyField(LintJobName(rjob, "0"), "replicated-job/job-name", "spec.replicatedJobs[0].name",
                  JobNameTooLong("train-" + rjob + "--1"), 7, 11);
  CHECK(Rules(LintJobName(Repeat('w', 54), "0")) == "");
}

TEST_CASE("admission: child Job name rejects a dotted JobSet name (subdomain, no DNS-1035 label)") {
  std::string yaml =
      Twin(Sub(Sub(kJobName, "@RJ@", "workers"), "@R@", "1"), "name: train", "name: train.v1");
  ExpectOnlyField(Lint(yaml), "replicated-job/job-name", "spec.replicatedJobs[0].name",
                  std::string("spec.replicatedJobs[0].name: Invalid value: "
                              "\"train.v1-workers-0\": ") +
                      kDns1035Format,
                  7, 11);
}

constexpr char kGenerateName[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  generateName: @GN@
spec:
  replicatedJobs:
  - name: w
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: child Job name: generateName simulates the apiserver's name (prefix + 5)") {
  // generateName of 55 characters: the name is 60, the job name <60>-w-0 is 64.
  std::string prefix = Repeat('g', 54) + "-";
  Findings fs = Lint(Sub(kGenerateName, "@GN@", prefix));
  REQUIRE(Rules(fs) == "replicated-job/job-name");
  CHECK(fs[0].field == "spec.replicatedJobs[0].name");
  CHECK(fs[0].mark.line == 7);
  CHECK(fs[0].mark.column == 11);
  // The 5 generated characters are random upstream; here they are "xxxxx".
  CHECK(fs[0].message == JobNameTooLong(prefix + "xxxxx-w-0"));
  // 54 characters: the job name is exactly 63.
  CHECK(Rules(Lint(Sub(kGenerateName, "@GN@", Repeat('g', 53) + "-"))) == "");
}

TEST_CASE("admission: child Job name: a generateName over 58 characters is cut to 58") {
  Findings fs = Lint(Sub(kGenerateName, "@GN@", Repeat('g', 70)));
  REQUIRE(Rules(fs) == "replicated-job/job-name");
  CHECK(fs[0].message == JobNameTooLong(Repeat('g', 58) + "xxxxx-w-0"));
}

constexpr char kPodName[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: @RJ@
    template:
      spec:
        completions: 2
        template:
          spec:
            containers: [{name: main, image: busybox}]
)";

TEST_CASE("admission: rejects long pod names and reports the job name as the value") {
  // train-<48>-0-1-abcde is 64 characters; the job name train-<48>-0 is 56.
  std::string rjob = Repeat('p', 48);
  ExpectOnlyField(Lint(Sub(kPodName, "@RJ@", rjob)), "replicated-job/pod-name",
                  "spec.replicatedJobs[0].name",
                  "spec.replicatedJobs[0].name: Invalid value: \"train-" + rjob +
                      "-0\": JobSet name is too long, pod names generated for this JobSet will "
                      "exceed 63 characters",
                  7, 11);
  CHECK(Rules(Lint(Sub(kPodName, "@RJ@", Repeat('p', 47)))) == "");
}

TEST_CASE("admission: pod name check applies only to Indexed jobs with completions") {
  std::string yaml = Sub(kPodName, "@RJ@", Repeat('p', 48));
  CHECK(Rules(Lint(Twin(yaml, "        completions: 2\n",
                        "        completions: 2\n        completionMode: NonIndexed\n"))) == "");
  CHECK(Rules(Lint(Twin(yaml, "        completions: 2\n", ""))) == "");
}

TEST_CASE("admission: pod name format errors also carry the job name") {
  std::string yaml = Twin(Sub(kPodName, "@RJ@", "workers"), "name: train", "name: train.v1");
  Findings fs = Lint(yaml);
  REQUIRE(Rules(fs) == "replicated-job/job-name,replicated-job/pod-name");
  CheckField(fs[1], "replicated-job/pod-name", "spec.replicatedJobs[0].name",
             std::string("spec.replicatedJobs[0].name: Invalid value: \"train.v1-workers-0\": ") +
                 kDns1035Format,
             7, 11);
}

constexpr char kDependsOn[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: leader
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: workers
    dependsOn:
    - name: evaluator
      status: Complete
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: evaluator
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: rejects dependsOn on a later replicated job") {
  ExpectOnlyPlain(Lint(kDependsOn), "depends-on/unknown-replicated-job",
                  "spec.replicatedJobs[1].dependsOn[0].name",
                  "replicatedJob: workers cannot depend on replicatedJob: evaluator", 11, 13);
  CHECK(Rules(Lint(Twin(kDependsOn, "    - name: evaluator", "    - name: leader"))) == "");
}

TEST_CASE("admission: rejects dependsOn on a replicated job that does not exist") {
  ExpectOnlyPlain(Lint(Twin(kDependsOn, "    - name: evaluator", "    - name: ghost")),
                  "depends-on/unknown-replicated-job", "spec.replicatedJobs[1].dependsOn[0].name",
                  "replicatedJob: workers cannot depend on replicatedJob: ghost", 11, 13);
}

TEST_CASE("admission: dependsOn accepts a replicated job that depends on itself") {
  CHECK(Rules(Lint(Twin(kDependsOn, "    - name: evaluator", "    - name: workers"))) == "");
}

TEST_CASE("admission: in-place restart checks with the gate on and strategy InPlaceRestart") {
  Findings fs = Lint(kInPlaceRestart, kInPlace);
  REQUIRE(Rules(fs) ==
          "in-place-restart/backoff-limit,in-place-restart/pod-replacement-policy,"
          "in-place-restart/completions-parallelism");
  const std::string spec = "spec.replicatedJobs[0].template.spec";
  CheckField(fs[0], "in-place-restart/backoff-limit", spec + ".backoffLimit",
             spec +
                 ".backoffLimit: Invalid value: 6: replicatedJob workers: must be set to "
                 "2147483647 (MaxInt32) when in-place restart is enabled",
             16, 23);
  CheckField(fs[1], "in-place-restart/pod-replacement-policy", spec + ".podReplacementPolicy",
             spec +
                 ".podReplacementPolicy: Invalid value: \"TerminatingOrFailed\": replicatedJob "
                 "workers: must be set to Failed when in-place restart is enabled",
             17, 31);
  CheckField(fs[2], "in-place-restart/completions-parallelism", spec + ".completions",
             spec +
                 ".completions: Invalid value: 2: replicatedJob workers: completions and "
                 "parallelism must be set and equal to each other when in-place restart is "
                 "enabled",
             15, 22);
  std::string fixed = Twin(kInPlaceRestart, "parallelism: 3", "parallelism: 2");
  fixed = Twin(fixed, "backoffLimit: 6", "backoffLimit: 2147483647");
  fixed = Twin(fixed, "TerminatingOrFailed", "Failed");
  CHECK(Rules(Lint(fixed, kInPlace)) == "");
}

TEST_CASE("admission: in-place restart checks report null for missing values, at the job spec") {
  std::string yaml = Twin(kInPlaceRestart,
                          "        completions: 2\n        backoffLimit: 6\n"
                          "        podReplacementPolicy: TerminatingOrFailed\n",
                          "");
  Findings fs = Lint(yaml, kInPlace);
  REQUIRE(Rules(fs) ==
          "in-place-restart/backoff-limit,in-place-restart/pod-replacement-policy,"
          "in-place-restart/completions-parallelism");
  const std::string spec = "spec.replicatedJobs[0].template.spec";
  CheckField(fs[0], "in-place-restart/backoff-limit", spec + ".backoffLimit",
             spec +
                 ".backoffLimit: Invalid value: null: replicatedJob workers: must be set to "
                 "2147483647 (MaxInt32) when in-place restart is enabled",
             13, 7);
  CheckField(fs[1], "in-place-restart/pod-replacement-policy", spec + ".podReplacementPolicy",
             spec +
                 ".podReplacementPolicy: Invalid value: null: replicatedJob workers: must be "
                 "set to Failed when in-place restart is enabled",
             13, 7);
  CheckField(fs[2], "in-place-restart/completions-parallelism", spec + ".completions",
             spec +
                 ".completions: Invalid value: null: replicatedJob workers: completions and "
                 "parallelism must be set and equal to each other when in-place restart is "
                 "enabled",
             13, 7);
}

TEST_CASE("admission: completions == parallelism requires parallelism to be set as well") {
  std::string yaml = Twin(kInPlaceRestart, "        parallelism: 3\n", "");
  yaml = Twin(yaml, "backoffLimit: 6", "backoffLimit: 2147483647");
  yaml = Twin(yaml, "TerminatingOrFailed", "Failed");
  ExpectOnlyField(Lint(yaml, kInPlace), "in-place-restart/completions-parallelism",
                  "spec.replicatedJobs[0].template.spec.completions",
                  "spec.replicatedJobs[0].template.spec.completions: Invalid value: 2: "
                  "replicatedJob workers: completions and parallelism must be set and equal to "
                  "each other when in-place restart is enabled",
                  14, 22);
}

TEST_CASE("admission: in-place restart checks do not apply to other restart strategies, gate on") {
  CHECK(Rules(Lint(Twin(kInPlaceRestart, "InPlaceRestart", "Recreate"), kInPlace)) == "");
}

// --- Webhook: successPolicy targets ----------------------------------------------------------

constexpr char kSuccessPolicy[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  successPolicy:
    operator: Any
    targetReplicatedJobs: [workers, leader]
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: rejects a success policy target that does not exist") {
  ExpectOnlyPlain(Lint(kSuccessPolicy), "success-policy/unknown-target",
                  "spec.successPolicy.targetReplicatedJobs[1]",
                  "invalid replicatedJob name 'leader' does not appear in .spec.ReplicatedJobs", 8,
                  37);
  CHECK(Rules(Lint(Twin(kSuccessPolicy, "[workers, leader]", "[workers]"))) == "");
}

// --- Webhook: validateFailurePolicy ---------------------------------------------------------

constexpr char kReasons[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: 3
    rules:
    - name: evicted
      action: FailJobSet
      onJobFailureReasons:
      - PodFailurePolicy
      - Evicted
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: failure-policy/unknown-reason rejects an unknown job failure reason") {
  Findings fs = Lint(kReasons);
  ExpectOnlyPlain(fs, "failure-policy/unknown-reason",
                  "spec.failurePolicy.rules[0].onJobFailureReasons[1]",
                  "invalid job failure reason 'Evicted' in failure policy is not a recognized job "
                  "failure reason",
                  13, 9);
  CHECK(fs[0].upstream ==
        "<nil>: Internal error: invalid job failure reason 'Evicted' in failure policy is not a "
        "recognized job failure reason");
  CHECK(Rules(Lint(Twin(kReasons, "- Evicted", "- DeadlineExceeded"))) == "");
}

TEST_CASE("admission: failure-policy/unknown-reason is case-sensitive; the five reasons pass") {
  Findings fs = Lint(Twin(kReasons, "- Evicted", "- podFailurePolicy"));
  REQUIRE(Rules(fs) == "failure-policy/unknown-reason");
  CHECK(fs[0].message ==
        "invalid job failure reason 'podFailurePolicy' in failure policy is not a recognized job "
        "failure reason");
  std::string all = Twin(kReasons, "      - PodFailurePolicy\n      - Evicted\n",
                         "      - BackoffLimitExceeded\n      - DeadlineExceeded\n"
                         "      - FailedIndexes\n      - MaxFailedIndexesExceeded\n"
                         "      - PodFailurePolicy\n");
  CHECK(Rules(Lint(all)) == "");
  // Custom reasons from KEP-4443 are not accepted yet.
  CHECK(Rules(Lint(Twin(kReasons, "- Evicted", "- PodFailurePolicy_evicted"))) ==
        "failure-policy/unknown-reason");
}

constexpr char kRuleTarget[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: 3
    rules:
    - name: leader_fails
      action: FailJobSet
      targetReplicatedJobs: [leader]
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: failure-policy/unknown-target rejects a rule target that does not exist") {
  ExpectOnlyPlain(Lint(kRuleTarget), "failure-policy/unknown-target",
                  "spec.failurePolicy.rules[0].targetReplicatedJobs[0]",
                  "invalid replicatedJob name 'leader' in failure policy does not appear in "
                  ".spec.ReplicatedJobs",
                  11, 30);
  CHECK(Rules(Lint(Twin(kRuleTarget, "[leader]", "[workers]"))) == "");
}

constexpr char kRuleName[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: 3
    rules:
    - name: @N@
      action: FailJobSet
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

Findings LintRuleName(std::string_view name) { return Lint(Sub(kRuleName, "@N@", name)); }

std::string BadRuleName(std::string_view name) {
  return "invalid failure policy rule name '" + std::string(name) +
         "', a failure policy rule name must start with an alphabetic character, optionally "
         "followed by a string of alphanumeric characters or '_,:', and must end with an "
         "alphanumeric character or '_'";
}

TEST_CASE("admission: failure-policy/rule-name rejects a hyphenated name like r-leader") {
  ExpectOnlyPlain(LintRuleName("r-leader"), "failure-policy/rule-name",
                  "spec.failurePolicy.rules[0].name", BadRuleName("r-leader"), 9, 13);
  CHECK(Rules(LintRuleName("r_leader")) == "");
}

TEST_CASE("admission: failure-policy/rule-name checks the first and last characters") {
  for (const char* bad : {"1rule", "_rule", "rule:", "rule,", "rule.name"}) {
    CAPTURE(bad);
    ExpectOnlyPlain(LintRuleName(std::string("'") + bad + "'"), "failure-policy/rule-name",
                    "spec.failurePolicy.rules[0].name", BadRuleName(bad), 9, 13);
  }
  for (const char* good : {"a", "Rule_", "a,b:c_1", "FailFast"}) {
    CAPTURE(good);
    CHECK(Rules(LintRuleName(std::string("'") + good + "'")) == "");
  }
}

TEST_CASE("admission: failure-policy/rule-name limits names to 128 bytes") {
  ExpectOnlyPlain(LintRuleName(Repeat('r', 129)), "failure-policy/rule-name",
                  "spec.failurePolicy.rules[0].name",
                  "invalid failure policy rule name of length 129, the rule name must be at least "
                  "1 characters long and at most 128 characters long",
                  9, 13);
  CHECK(Rules(LintRuleName(Repeat('r', 128))) == "");
}

TEST_CASE("admission: failure-policy/rule-name an empty name is defaulted, not rejected") {
  CHECK(Rules(LintRuleName("\"\"")) == "");
}

constexpr char kDuplicateRuleNames[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: 3
    rules:
    - name: same
      action: FailJobSet
      onJobFailureReasons: [PodFailurePolicy]
    - name: same
      action: RestartJobSet
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: failure-policy/duplicate-rule-name prints the indices as [0 1]") {
  ExpectOnlyPlain(Lint(kDuplicateRuleNames), "failure-policy/duplicate-rule-name",
                  "spec.failurePolicy.rules[1].name",
                  "rule names are not unique, rules with indices [0 1] all have the same name "
                  "'same'",
                  12, 13);
  CHECK(Rules(Lint(Twin(kDuplicateRuleNames, "    - name: same\n      action: RestartJobSet",
                        "    - name: other\n      action: RestartJobSet"))) == "");
}

TEST_CASE("admission: failure-policy/duplicate-rule-name lists every index, ascending") {
  std::string three = Twin(kDuplicateRuleNames, "  replicatedJobs:\n",
                           "    - name: same\n      action: FailJobSet\n  replicatedJobs:\n");
  three = Twin(three, "    - name: same\n      action: RestartJobSet",
               "    - name: other\n      action: RestartJobSet");
  ExpectOnlyPlain(Lint(three), "failure-policy/duplicate-rule-name",
                  "spec.failurePolicy.rules[2].name",
                  "rule names are not unique, rules with indices [0 2] all have the same name "
                  "'same'",
                  14, 13);
}

constexpr char kDefaultedCollision[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    rules:
    - name: failurePolicyRule1
      action: FailJobSet
    - action: RestartJobSet
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: a defaulted rule name can collide with an explicit failurePolicyRule1") {
  // rules[1] is named failurePolicyRule1 by the mutating webhook; the name is not in the file,
  // so the finding points at the rule.
  ExpectOnlyPlain(Lint(kDefaultedCollision), "failure-policy/duplicate-rule-name",
                  "spec.failurePolicy.rules[1].name",
                  "rule names are not unique, rules with indices [0 1] all have the same name "
                  "'failurePolicyRule1'",
                  10, 7);
  CHECK(Rules(Lint(Twin(kDefaultedCollision, "failurePolicyRule1", "failurePolicyRule0"))) == "");
}

constexpr char kRestartJob[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: 3
    rules:
    - name: bad-name
      action: FailJobSet
      onJobFailureReasons: [Evicted]
      targetReplicatedJobs: [ghost]
    - name: restart_one
      action: RestartJob
      onJobFailureReasons: [PodFailurePolicy]
  replicatedJobs:
  - name: workers
    replicas: 2
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

constexpr char kRestartJobGateMessage[] =
    "RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not allowed when "
    "RestartJob feature gate is disabled";

TEST_CASE("admission: failure-policy/restart-job-gate stops all other failure policy checks") {
  ExpectOnlyPlain(Lint(kRestartJob, kNoGates), "failure-policy/restart-job-gate",
                  "spec.failurePolicy.rules[1].action", kRestartJobGateMessage, 14, 15);
  // With the gate on the other checks run, per rule: name, targets, reasons.
  CHECK(Rules(Lint(kRestartJob, kRestartJobGate)) ==
        "failure-policy/rule-name,failure-policy/unknown-target,failure-policy/unknown-reason");
}

TEST_CASE("admission: failure-policy/restart-job-gate covers RestartJobAndIgnoreMaxRestarts") {
  std::string yaml =
      Twin(kRestartJob, "action: RestartJob", "action: RestartJobAndIgnoreMaxRestarts");
  ExpectOnlyPlain(Lint(yaml, kNoGates), "failure-policy/restart-job-gate",
                  "spec.failurePolicy.rules[1].action", kRestartJobGateMessage, 14, 15);
}

TEST_CASE("admission: failure-policy/restart-job-gate accepts RestartJob with the gate on") {
  std::string clean = Twin(kRestartJob,
                           "    - name: bad-name\n      action: FailJobSet\n"
                           "      onJobFailureReasons: [Evicted]\n"
                           "      targetReplicatedJobs: [ghost]\n",
                           "");
  CHECK(Rules(Lint(clean, kRestartJobGate)) == "");
  CHECK(Rules(Lint(clean, kNoGates)) == "failure-policy/restart-job-gate");
}

constexpr char kRestartJobReplicas[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    rules:
    - name: restart_workers
      action: RestartJobAndIgnoreMaxRestarts
      targetReplicatedJobs: [workers]
  replicatedJobs:
  - name: workers
    replicas: 4
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: readers
    replicas: 1025
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: failure-policy/restart-job-replicas caps every replicated job at 1024") {
  // readers is not targeted by the rule; the cap applies anyway.
  ExpectOnlyPlain(Lint(kRestartJobReplicas, kRestartJobGate), "failure-policy/restart-job-replicas",
                  "spec.replicatedJobs[1].replicas",
                  "JobSet cannot have a failure policy rule with RestartJob or "
                  "RestartJobAndIgnoreMaxRestarts action and a replicated job with replicas > "
                  "1024",
                  16, 15);
  std::string fixed = Twin(kRestartJobReplicas, "replicas: 1025", "replicas: 1024");
  CHECK(Rules(Lint(fixed, kRestartJobGate)) == "");
  // Reported once, even when several replicated jobs are over the cap.
  std::string both = Twin(kRestartJobReplicas, "replicas: 4", "replicas: 2000");
  CHECK(Rules(Lint(both, kRestartJobGate)) == "failure-policy/restart-job-replicas");
  // Without a RestartJob* action there is no cap.
  CHECK(Rules(Lint(Twin(kRestartJobReplicas, "RestartJobAndIgnoreMaxRestarts", "RestartJobSet"),
                   kRestartJobGate)) == "");
}

TEST_CASE("admission: an empty rule list and a negative maxRestarts are accepted") {
  CHECK(Rules(Lint(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: -1
    rules: []
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)")) == "");
}

// --- Webhook: validateCoordinator ------------------------------------------------------------

constexpr char kCoordinator[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  coordinator:
    replicatedJob: @C@
    jobIndex: @J@
    podIndex: @P@
  replicatedJobs:
  - name: workers
    replicas: 2
    template:
      spec:
        completionMode: Indexed
        completions: 4
        parallelism: 4
        template:
          spec:
            containers: [{name: main, image: busybox}]
)";

std::string Coordinator(std::string_view rjob, std::string_view job_index,
                        std::string_view pod_index) {
  return Sub(Sub(Sub(kCoordinator, "@C@", rjob), "@J@", job_index), "@P@", pod_index);
}

TEST_CASE("admission: coordinator accepted twin") {
  CHECK(Rules(Lint(Coordinator("workers", "1", "3"))) == "");
  CHECK(Rules(Lint(Coordinator("workers", "0", "0"))) == "");
}

TEST_CASE("admission: coordinator/unknown-replicated-job") {
  ExpectOnlyPlain(Lint(Coordinator("leader", "0", "0")), "coordinator/unknown-replicated-job",
                  "spec.coordinator.replicatedJob",
                  "coordinator replicatedJob leader does not exist", 7, 20);
}

TEST_CASE("admission: coordinator/job-index must be in [0, replicas)") {
  ExpectOnlyPlain(Lint(Coordinator("workers", "2", "0")), "coordinator/job-index",
                  "spec.coordinator.jobIndex",
                  "coordinator job index 2 is invalid for replicatedJob workers", 8, 15);
  ExpectOnlyPlain(Lint(Coordinator("workers", "-1", "0")), "coordinator/job-index",
                  "spec.coordinator.jobIndex",
                  "coordinator job index -1 is invalid for replicatedJob workers", 8, 15);
}

TEST_CASE("admission: coordinator/not-indexed needs Indexed completion mode and completions") {
  const std::string message =
      "job for coordinator pod must be indexed completion mode, and completions number must be "
      "set";
  std::string non_indexed = Twin(Coordinator("workers", "0", "0"), "Indexed", "NonIndexed");
  ExpectOnlyPlain(Lint(non_indexed), "coordinator/not-indexed", "spec.coordinator.replicatedJob",
                  message, 7, 20);
  std::string no_completions =
      Twin(Coordinator("workers", "0", "0"), "        completions: 4\n", "");
  ExpectOnlyPlain(Lint(no_completions), "coordinator/not-indexed", "spec.coordinator.replicatedJob",
                  message, 7, 20);
  // A defaulted completionMode is Indexed.
  CHECK(Rules(Lint(Twin(Coordinator("workers", "0", "0"), "        completionMode: Indexed\n",
                        ""))) == "");
}

TEST_CASE("admission: coordinator/pod-index must be in [0, completions)") {
  ExpectOnlyPlain(
      Lint(Coordinator("workers", "1", "4")), "coordinator/pod-index", "spec.coordinator.podIndex",
      "coordinator pod index 4 is invalid for replicatedJob workers job index 1", 9, 15);
}

TEST_CASE("admission: coordinator checks stop at the first failing step") {
  // Bad job index, bad pod index and NonIndexed: only the job index is reported.
  std::string yaml = Twin(Coordinator("workers", "5", "9"), "Indexed", "NonIndexed");
  CHECK(Rules(Lint(yaml)) == "coordinator/job-index");
  // NonIndexed and a bad pod index: only not-indexed.
  yaml = Twin(Coordinator("workers", "0", "9"), "Indexed", "NonIndexed");
  CHECK(Rules(Lint(yaml)) == "coordinator/not-indexed");
}

constexpr char kCoordinatorLabel[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  network:
    subdomain: @SUB@
  coordinator:
    replicatedJob: @C@
  replicatedJobs:
  - name: workers
    template:
      spec:
        completions: 2
        template:
          spec:
            containers: [{name: main, image: busybox}]
)";

std::string CoordinatorLabelMessage(const std::string& value) {
  return "spec will lead to invalid label value \"" + value +
         "\" for coordinator label \"jobset.sigs.k8s.io/coordinator\" (long JobSet / "
         "ReplicatedJob / SubDomain name?): must be no more than 63 bytes";
}

TEST_CASE("admission: coordinator/label-value limits the endpoint to 63 bytes") {
  // train-workers-0-0.<46> is 64 bytes.
  std::string sub = Repeat('s', 46);
  std::string yaml = Sub(Sub(kCoordinatorLabel, "@SUB@", sub), "@C@", "workers");
  ExpectOnlyPlain(Lint(yaml), "coordinator/label-value", "spec.coordinator",
                  CoordinatorLabelMessage("train-workers-0-0." + sub), 9, 5);
  CHECK(Rules(Lint(Sub(Sub(kCoordinatorLabel, "@SUB@", Repeat('s', 45)), "@C@", "workers"))) == "");
}

TEST_CASE("admission: coordinator/label-value runs even when the coordinator job is unknown") {
  std::string sub = Repeat('s', 50);
  Findings fs = Lint(Sub(Sub(kCoordinatorLabel, "@SUB@", sub), "@C@", "ghost"));
  REQUIRE(Rules(fs) == "coordinator/unknown-replicated-job,coordinator/label-value");
  CHECK(fs[1].message == CoordinatorLabelMessage("train-ghost-0-0." + sub));
}

TEST_CASE("admission: coordinator/label-value joins several label errors with \", \"") {
  std::string sub = Repeat('s', 50);
  std::string yaml = Sub(Sub(kCoordinatorLabel, "@SUB@", sub), "@C@", "w w");
  yaml = Twin(yaml, "  - name: workers", "  - name: w w");
  Findings fs = WithRule(Lint(yaml), "coordinator/label-value");
  REQUIRE(fs.size() == 1);
  CheckPlain(fs[0], "coordinator/label-value", "spec.coordinator",
             "spec will lead to invalid label value \"train-w w-0-0." + sub +
                 "\" for coordinator label \"jobset.sigs.k8s.io/coordinator\" (long JobSet / "
                 "ReplicatedJob / SubDomain name?): must be no more than 63 bytes, " +
                 kLabelValueFormat,
             9, 5);
}

TEST_CASE("admission: coordinator/label-value uses the JobSet name without a subdomain") {
  std::string yaml =
      Twin(Sub(kCoordinatorLabel, "@C@", "workers"), "  network:\n    subdomain: @SUB@\n", "");
  // <name>-workers-0-0.<name> is 2 x 25 + 13 = 63 bytes, then 65.
  std::string name = Repeat('n', 25);
  CHECK(Rules(Lint(Twin(yaml, "name: train", "name: " + name))) == "");
  name = Repeat('n', 26);
  Findings fs = Lint(Twin(yaml, "name: train", "name: " + name));
  REQUIRE(Rules(fs) == "coordinator/label-value");
  CHECK(fs[0].message == CoordinatorLabelMessage(name + "-workers-0-0." + name));
}

// --- Webhook: validateVolumeClaimPolicies ----------------------------------------------------

TEST_CASE("admission: volume claim policy accepted twin") { CHECK(Rules(Lint(Vcp("data"))) == ""); }

TEST_CASE("admission: volume-claim-policy/name must be a DNS-1123 subdomain (path template[0])") {
  ExpectOnlyField(Lint(Vcp("Data_1")), "volume-claim-policy/name",
                  "spec.volumeClaimPolicies[0].template[0].name",
                  std::string("spec.volumeClaimPolicies[0].template[0].name: Invalid value: "
                              "\"Data_1\": ") +
                      kDns1123SubdomainFormat,
                  19, 15);
  // Upstream writes `template[0].name` for `templates[0].metadata.name`: the note says so.
  CHECK(Lint(Vcp("Data_1"))[0].note ==
        "the API server's path spec.volumeClaimPolicies[0].template[0].name is "
        "spec.volumeClaimPolicies[0].templates[0].metadata.name in the file");
}

TEST_CASE("admission: volume-claim-policy/name-too-long limits <template>-<jobset> to 63") {
  std::string name = Repeat('d', 58);  // d...-train is 64
  ExpectOnlyField(Lint(Vcp(name)), "volume-claim-policy/name-too-long",
                  "spec.volumeClaimPolicies[0].template[0].name",
                  "spec.volumeClaimPolicies[0].template[0].name: Invalid value: \"" + name +
                      "\": VolumeClaimPolicies template name is too long",
                  19, 15);
  CHECK(Rules(Lint(Vcp(Repeat('d', 57)))) == "");
}

TEST_CASE("admission: volume-claim-policy/no-volume-mount needs a container mount") {
  std::string yaml =
      Twin(Vcp("data"), "volumeMounts: [{name: data,", "volumeMounts: [{name: other,");
  Findings fs = Lint(yaml);
  REQUIRE(Rules(fs) == "volume-claim-policy/no-volume-mount");
  const Finding& f = fs[0];
  CHECK(f.severity == Severity::kError);
  // `field` is the path the API server names; the position is the template nobody mounts, and
  // the note points back at the replicated jobs.
  CHECK(f.field == "spec.replicatedJobs");
  CHECK(f.mark.line == 19);
  CHECK(f.mark.column == 15);
  CHECK(f.note == "the API server reports it at spec.replicatedJobs (line 6, column 3)");
  CHECK(f.upstream == f.message);
  // The value is every replicated job as JSON.
  const std::string head = "spec.replicatedJobs: Invalid value: [{\"name\":\"workers\"";
  const std::string tail =
      "}]: replicatedJob containers don't have a matching volumeMount: data from "
      "VolumeClaimPolicies";
  CHECK(f.message.rfind(head, 0) == 0);
  REQUIRE(f.message.size() > tail.size());
  CHECK(f.message.substr(f.message.size() - tail.size()) == tail);
  CHECK(f.message.find("\"mountPath\":\"/data\"") != std::string::npos);
}

TEST_CASE("admission: volume-claim-policy/no-volume-mount accepts an initContainer mount") {
  std::string yaml = Twin(Vcp("data"),
                          "            containers:\n"
                          "            - name: main\n"
                          "              image: busybox\n"
                          "              volumeMounts: [{name: data, mountPath: /data}]\n",
                          "            initContainers:\n"
                          "            - name: fetch\n"
                          "              image: busybox\n"
                          "              volumeMounts: [{name: data, mountPath: /data}]\n"
                          "            containers: [{name: main, image: busybox}]\n");
  CHECK(Rules(Lint(yaml)) == "");
}

constexpr char kVcpDuplicate[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    template:
      spec:
        template:
          spec:
            containers:
            - name: main
              image: busybox
              volumeMounts: [{name: data, mountPath: /data}, {name: logs, mountPath: /logs}]
  volumeClaimPolicies:
  - templates:
    - metadata:
        name: data
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
  - templates:
    - metadata:
        name: data
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
    retentionPolicy:
      whenDeleted: Retain
)";

TEST_CASE("admission: volume-claim-policy/duplicate-name spans all policies") {
  ExpectOnlyField(Lint(kVcpDuplicate), "volume-claim-policy/duplicate-name",
                  "spec.volumeClaimPolicies[1].template[0].name",
                  "spec.volumeClaimPolicies[1].template[0].name: Invalid value: \"data\": names "
                  "must be unique for VolumeClaimPolicies template",
                  23, 15);
  std::string fixed = Twin(kVcpDuplicate,
                           "        name: data\n      spec: {accessModes: "
                           "[ReadWriteOnce], resources: {requests: {storage: 1Gi}}}"
                           "\n    retentionPolicy",
                           "        name: logs\n      spec: {accessModes: [ReadWriteOnce], "
                           "resources: {requests: {storage: 1Gi}}}\n    retentionPolicy");
  CHECK(Rules(Lint(fixed)) == "");
}

constexpr char kVcpConflict[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    template:
      spec:
        template:
          spec:
            containers:
            - name: main
              image: busybox
              volumeMounts: [{name: data, mountPath: /data}]
            volumes:
            - name: data
              emptyDir: {}
  volumeClaimPolicies:
  - templates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
)";

TEST_CASE("admission: volume-claim-policy/volume-conflict rejects a pod volume of that name") {
  const std::string path = "spec.replicatedJobs[0].template.spec.template.spec.volumes[0].name";
  ExpectOnlyField(Lint(kVcpConflict), "volume-claim-policy/volume-conflict", path,
                  path +
                      ": Invalid value: \"data\": volume name conflicts with VolumeClaimPolicy "
                      "template name: data",
                  17, 21);
  std::string fixed =
      Twin(kVcpConflict, "            - name: data\n", "            - name: cache\n");
  CHECK(Rules(Lint(fixed)) == "");
}

// --- Aggregate order -------------------------------------------------------------------------

constexpr char kManyErrors[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
  labels: {team: ml platform}
spec:
  managedBy: kueue
  network:
    subdomain: my.net
  successPolicy:
    operator: Any
    targetReplicatedJobs: [ghost]
  failurePolicy:
    restartStrategy: InPlaceRestart
    rules:
    - name: evicted
      action: FailJobSet
      onJobFailureReasons: [Evicted]
  coordinator:
    replicatedJob: ghost
  volumeClaimPolicies:
  - templates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
  replicatedJobs:
  - name: workers
    groupName: Pool_A
    replicas: 65536
    dependsOn: [{name: workers, status: Ready}]
    template:
      spec:
        parallelism: 65536
        template:
          spec:
            containers: [{name: main, image: busybox}]
  - name: readers
    dependsOn: [{name: ghost, status: Ready}]
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";

TEST_CASE("admission: errors come out in the spec's order, apiserver rules then the webhook's") {
  CHECK(Rules(Lint(kManyErrors)) ==
        "metadata/labels,"  // kube-apiserver
        "failure-policy/in-place-restart-gate,"
        "depends-on/first-replicated-job,"
        "network/subdomain,"
        "managed-by/format,"
        "replicated-job/replicas-parallelism-overflow,"  // replicatedJobs[0]
        "replicated-job/group-name,"                     // replicatedJobs[0]
        "depends-on/unknown-replicated-job,"             // replicatedJobs[1]
        "success-policy/unknown-target,"
        "failure-policy/unknown-reason,"
        "coordinator/unknown-replicated-job,"
        "volume-claim-policy/no-volume-mount");
}

TEST_CASE("admission: per replicated job, the checks of one job come before the next job") {
  std::string yaml = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: leader
    groupName: Bad_A
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: workers
    groupName: Bad_B
    dependsOn: [{name: ghost, status: Ready}]
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)";
  Findings fs = Lint(yaml);
  REQUIRE(Rules(fs) ==
          "replicated-job/group-name,replicated-job/group-name,depends-on/unknown-replicated-job");
  CHECK(fs[0].field == "spec.replicatedJobs[0].groupName");
  CHECK(fs[1].field == "spec.replicatedJobs[1].groupName");
}

TEST_CASE("admission: every webhook and apiserver rule of the registry is exercised here") {
  // Keep this list in step with the test cases above: a new rule needs a rejected case and an
  // accepted twin.
  const std::vector<std::string_view> covered = {"metadata/name",
                                                 "metadata/namespace",
                                                 "metadata/labels",
                                                 "schema/duplicate-key",
                                                 "jobset/startup-policy-depends-on",
                                                 "volume-claim-policy/namespace",
                                                 "failure-policy/in-place-restart-gate",
                                                 "depends-on/first-replicated-job",
                                                 "network/subdomain",
                                                 "managed-by/format",
                                                 "replicated-job/replicas-parallelism-overflow",
                                                 "replicated-job/group-name",
                                                 "replicated-job/job-name",
                                                 "replicated-job/pod-name",
                                                 "depends-on/unknown-replicated-job",
                                                 "in-place-restart/backoff-limit",
                                                 "in-place-restart/pod-replacement-policy",
                                                 "in-place-restart/completions-parallelism",
                                                 "success-policy/unknown-target",
                                                 "failure-policy/restart-job-gate",
                                                 "failure-policy/restart-job-replicas",
                                                 "failure-policy/rule-name",
                                                 "failure-policy/unknown-target",
                                                 "failure-policy/unknown-reason",
                                                 "failure-policy/duplicate-rule-name",
                                                 "coordinator/unknown-replicated-job",
                                                 "coordinator/job-index",
                                                 "coordinator/not-indexed",
                                                 "coordinator/pod-index",
                                                 "coordinator/label-value",
                                                 "volume-claim-policy/duplicate-name",
                                                 "volume-claim-policy/name",
                                                 "volume-claim-policy/name-too-long",
                                                 "volume-claim-policy/volume-conflict",
                                                 "volume-claim-policy/no-volume-mount"};
  for (std::string_view id : covered) {
    CAPTURE(id);
    CHECK(jobset::FindRule(id) != nullptr);
  }
  // And the other way round: every webhook rule, and every schema rule this file owns (the
  // JSON Schema ones, schema/* but duplicate-key, are tested with the schema; the UPDATE rules,
  // update/*, in update_test.cc; the Framework CRD's, framework/*, in
  // framework/lint_test.cc).
  for (const RuleInfo& rule : AllRules()) {
    if (rule.source != RuleSource::kWebhook && rule.source != RuleSource::kSchema) continue;
    if (rule.id.substr(0, 7) == "schema/" && rule.id != "schema/duplicate-key") continue;
    if (rule.id.substr(0, 7) == "update/") continue;
    if (rule.id.substr(0, 10) == "framework/") continue;  // framework/lint_test.cc
    if (rule.id.substr(0, 8) == "volcano/") continue;     // volcano/validation_test.cc
    CAPTURE(rule.id);
    CHECK(std::find(covered.begin(), covered.end(), rule.id) != covered.end());
  }
}

}  // namespace
}  // namespace jobset

// --- Hostile input (issue #19) ------------------------------------------------------------

namespace jobset {
namespace {

TEST_CASE("admission: volume claim templates against the volumes and mounts of every rjob") {
  // In template order: each template's conflicting volumes in replicated job and volume order,
  // again for a repeated name; a mount in any container or initContainer of any replicated job
  // counts.
  const std::string yaml = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: js
spec:
  replicatedJobs:
  - name: a
    template:
      spec:
        template:
          spec:
            containers:
            - {name: main, image: busybox, volumeMounts: [{name: one, mountPath: /one}]}
            volumes: [{name: one, emptyDir: {}}, {name: other, emptyDir: {}}]
  - name: b
    template:
      spec:
        template:
          spec:
            initContainers:
            - {name: init, image: busybox, volumeMounts: [{name: two, mountPath: /two}]}
            containers:
            - {name: main, image: busybox}
            volumes: [{name: two, emptyDir: {}}, {name: one, emptyDir: {}}]
  volumeClaimPolicies:
  - templates:
    - metadata: {name: one}
    - metadata: {name: two}
    - metadata: {name: three}
  - templates:
    - metadata: {name: one}
)";
  std::vector<std::string> got;
  for (const Finding& f : Lint(yaml)) {
    if (f.rule.rfind("volume-claim-policy/", 0) == 0) got.push_back(f.upstream);
  }
  const std::string vols = ".template.spec.template.spec.volumes";
  const std::string conflict =
      ": Invalid value: \"one\": volume name conflicts with "
      "VolumeClaimPolicy template name: one";
  CHECK(got == std::vector<std::string>{
                   "spec.replicatedJobs[0]" + vols + "[0].name" + conflict,
                   "spec.replicatedJobs[1]" + vols + "[1].name" + conflict,
                   "spec.replicatedJobs[1]" + vols +
                       "[0].name: Invalid value: \"two\": volume name conflicts with "
                       "VolumeClaimPolicy template name: two",
                   got.size() > 3 ? got[3] : "",
                   "spec.volumeClaimPolicies[1].template[0].name: Invalid value: \"one\": names "
                   "must be unique for VolumeClaimPolicies template",
                   "spec.replicatedJobs[0]" + vols + "[0].name" + conflict,
                   "spec.replicatedJobs[1]" + vols + "[1].name" + conflict,
               });
  REQUIRE(got.size() > 3);
  CHECK(got[3].find("replicatedJob containers don't have a matching volumeMount: three from "
                    "VolumeClaimPolicies") != std::string::npos);
}

TEST_CASE("admission: 2,500 volume claim templates against 1,000,000 volumes and mounts") {
  // The CRD allows 50 policies of 50 templates; volumes and mounts are unbounded. Before, each
  // template scanned every volume and every mount: 5e9 lookups, minutes.
  const int templates = 2500, filler = HostileSize(500000);
  Node js = Node::Map();
  js.Set("apiVersion", Node::String("jobset.x-k8s.io/v1alpha2"));
  js.Set("kind", Node::String("JobSet"));
  js.Set("metadata", Node::Map()).Set("name", Node::String("wide"));
  Node& spec = js.Set("spec", Node::Map());
  Node& policies = spec.Set("volumeClaimPolicies", Node::Seq());
  for (int p = 0; p < templates / 50; ++p) {
    Node policy = Node::Map();
    Node& list = policy.Set("templates", Node::Seq());
    for (int t = 0; t < 50; ++t) {
      Node tmpl = Node::Map();
      tmpl.Set("metadata", Node::Map())
          .Set("name", Node::String("v-" + std::to_string(p * 50 + t)));
      list.items.push_back(std::move(tmpl));
    }
    policies.items.push_back(std::move(policy));
  }
  // One pod: filler volumes and mounts, then a volume named like template 7 and a mount of
  // every template.
  Node pod = Node::Map();
  Node& volumes = pod.Set("volumes", Node::Seq());
  Node container = Node::Map();
  container.Set("name", Node::String("c"));
  container.Set("image", Node::String("img"));
  Node& mounts = container.Set("volumeMounts", Node::Seq());
  auto named = [](const std::string& name) {
    Node n = Node::Map();
    n.Set("name", Node::String(name));
    return n;
  };
  for (int i = 0; i < filler; ++i) {
    volumes.items.push_back(named("f-" + std::to_string(i)));
    mounts.items.push_back(named("f-" + std::to_string(i)));
  }
  volumes.items.push_back(named("v-7"));
  for (int t = 0; t < templates; ++t) mounts.items.push_back(named("v-" + std::to_string(t)));
  pod.Set("containers", Node::Seq()).items.push_back(std::move(container));
  Node rj = Node::Map();
  rj.Set("name", Node::String("rj"));
  rj.Set("template", Node::Map())
      .Set("spec", Node::Map())
      .Set("template", Node::Map())
      .Set("spec", std::move(pod));
  spec.Set("replicatedJobs", Node::Seq()).items.push_back(std::move(rj));
  Findings out;
  FindingSink sink(js, &out);
  ValidateWebhookCreate(js, FeatureGates{}, &sink);
  std::vector<std::string> conflicts;
  for (const Finding& f : out) {
    CHECK(f.rule != "volume-claim-policy/no-volume-mount");
    if (f.rule == "volume-claim-policy/volume-conflict") conflicts.push_back(f.upstream);
  }
  CHECK(conflicts ==
        std::vector<std::string>{
            "spec.replicatedJobs[0].template.spec.template.spec.volumes[" + std::to_string(filler) +
            "].name: Invalid value: \"v-7\": volume name conflicts with VolumeClaimPolicy "
            "template name: v-7"});
}

TEST_CASE("admission: 200,000 replicated jobs named by as many targets, rules and dependencies") {
  // Before: each failure policy and success policy target and each dependsOn name scanned the
  // replicated jobs, and each rule name the names seen so far: four times 2e10 comparisons.
  const int n = HostileSize(200000);
  Node js = Node::Map();
  js.Set("apiVersion", Node::String("jobset.x-k8s.io/v1alpha2"));
  js.Set("kind", Node::String("JobSet"));
  js.Set("metadata", Node::Map()).Set("name", Node::String("wide"));
  Node& spec = js.Set("spec", Node::Map());
  auto name = [](const std::string& prefix, int i) { return prefix + std::to_string(i); };
  // Replicated jobs r0..r(n-1); the last depends on every other one, on r(n), and on itself.
  Node& rjs = spec.Set("replicatedJobs", Node::Seq());
  for (int i = 0; i < n; ++i) {
    Node rj = Node::Map();
    rj.Set("name", Node::String(name("r", i)));
    rjs.items.push_back(std::move(rj));
  }
  Node& deps = rjs.items.back().Set("dependsOn", Node::Seq());
  for (int i = 0; i <= n; ++i) {
    Node dep = Node::Map();
    dep.Set("name", Node::String(name("r", i == n - 1 ? n : (i == n ? n - 1 : i))));
    dep.Set("status", Node::String("Ready"));
    deps.items.push_back(std::move(dep));
  }
  // Rules x0..x(n-1) and another x7; the first targets r(n), then every replicated job.
  Node& rules = spec.Set("failurePolicy", Node::Map()).Set("rules", Node::Seq());
  for (int i = 0; i <= n; ++i) {
    Node rule = Node::Map();
    rule.Set("name", Node::String(name("x", i == n ? 7 : i)));
    rule.Set("action", Node::String("FailJobSet"));
    rules.items.push_back(std::move(rule));
  }
  Node& targets = rules.items[0].Set("targetReplicatedJobs", Node::Seq());
  Node& success = spec.Set("successPolicy", Node::Map());
  success.Set("operator", Node::String("All"));
  Node& success_targets = success.Set("targetReplicatedJobs", Node::Seq());
  for (int i = n; i >= 0; --i) {
    targets.items.push_back(Node::String(name("r", i)));
    success_targets.items.push_back(Node::String(name("r", i)));
  }
  Findings out;
  FindingSink sink(js, &out);
  ValidateWebhookCreate(js, FeatureGates{}, &sink);
  std::vector<std::string> named;
  for (const Finding& f : out)
    for (const RuleId* id : {&kDependsOnUnknownReplicatedJob, &kSuccessPolicyUnknownTarget,
                             &kFailurePolicyUnknownTarget, &kFailurePolicyDuplicateRuleName})
      if (f.rule == id->id) named.push_back(f.field);
  const std::string last = std::to_string(n - 1);
  CHECK(named ==
        std::vector<std::string>{"spec.replicatedJobs[" + last + "].dependsOn[" + last + "].name",
                                 "spec.successPolicy.targetReplicatedJobs[0]",
                                 "spec.failurePolicy.rules[0].targetReplicatedJobs[0]",
                                 "spec.failurePolicy.rules[" + std::to_string(n) + "].name"});
}

}  // namespace
}  // namespace jobset
