#!/usr/bin/env python3
"""End-to-end tests of jobset-webhook over real TLS on loopback.

Run by tests/webhook_test.sh (ctest: webhook_integration), which checks for openssl and
python3 first. Arguments: JOBSET_WEBHOOK TESTTOOL KUBECTL_JOBSET SOURCE_DIR [own|corpus].
"own" (the default) runs the tests on this repository's files; "corpus" runs those on the
upstream corpus in $JOBSET_CORPUS_DIR (ctest: webhook_integration_corpus), and exits 77 after
one line saying how to get it when it is absent.

Each test starts the real binary with certificates made by the openssl CLI (a CA and a
server certificate for localhost/127.0.0.1) on free ports, and compares what it answers with
`kubectl-jobset lint` and with the validation core (through jobset-webhook-testtool).
"""

import base64
import copy
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid

WEBHOOK, TESTTOOL, KUBECTL_JOBSET, SOURCE = (os.path.abspath(a) for a in sys.argv[1:5])
TEST_SET = sys.argv[5] if len(sys.argv) > 5 else "own"
CORPUS = os.environ.get("JOBSET_CORPUS_DIR", "")
CORPUS_EXAMPLES = os.path.join(CORPUS, "jobset", "examples") if CORPUS else ""
CASES = os.path.join(SOURCE, "tests", "webhook", "cases")
DEFAULTING = os.path.join(SOURCE, "tests", "webhook", "defaulting")
EXAMPLES = os.path.join(SOURCE, "examples")
MUTATE = "/mutate-jobset-x-k8s-io-v1alpha2-jobset"
VALIDATE = "/validate-jobset-x-k8s-io-v1alpha2-jobset"
JOBSET_KIND = {"group": "jobset.x-k8s.io", "version": "v1alpha2", "kind": "JobSet"}
VC_MUTATE = "/jobs/mutate"
VC_VALIDATE = "/jobs/validate"
VOLCANO_KIND = {"group": "batch.volcano.sh", "version": "v1alpha1", "kind": "Job"}
VOLCANO_CASES = os.path.join(SOURCE, "tests", "webhook", "volcano", "cases")
VOLCANO_DEFAULTING = os.path.join(SOURCE, "tests", "webhook", "volcano", "defaulting")
ALL_GATES = "RestartJob=true,InPlaceRestart=true,ElasticJobSet=true"
KUBECTL = shutil.which("kubectl")
TMP = tempfile.mkdtemp(prefix="jobset-webhook-it-")


# --- Helpers ------------------------------------------------------------------------------------

def run(*args, stdin=None, check=True):
    p = subprocess.run(args, input=stdin, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"{args[0]} failed ({p.returncode}): {p.stderr.strip()}")
    return p


def openssl(*args):
    run("openssl", *args)


class Pki:
    """A CA, server certificates it signs, and client certificates from two CAs."""

    def __init__(self, root):
        self.root = root
        os.makedirs(root, exist_ok=True)
        self.ca = self.make_ca("ca")
        self.client_ca = self.make_ca("client-ca")
        self.rogue_ca = self.make_ca("rogue-ca")

    def path(self, name):
        return os.path.join(self.root, name)

    def make_ca(self, name):
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-days", "30", "-subj", f"/CN={name}", "-keyout", self.path(name + ".key"),
                "-out", self.path(name + ".crt"), "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        return name

    def issue(self, ca, name, cn, serial, client=False, days=30):
        ext = self.path(name + ".ext")
        with open(ext, "w") as f:
            if client:
                f.write("extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n")
            else:
                f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                        "extendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
        openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-subj", f"/CN={cn}", "-keyout", self.path(name + ".key"),
                "-out", self.path(name + ".csr"))
        openssl("x509", "-req", "-in", self.path(name + ".csr"), "-CA", self.path(ca + ".crt"),
                "-CAkey", self.path(ca + ".key"), "-set_serial", str(serial), "-days", str(days),
                "-extfile", ext, "-out", self.path(name + ".crt"))
        return self.path(name + ".crt"), self.path(name + ".key")

    def not_after(self, cert):
        out = run("openssl", "x509", "-noout", "-enddate", "-in", cert).stdout.strip()
        return int(time.mktime(time.strptime(out.split("=", 1)[1], "%b %d %H:%M:%S %Y %Z"))
                   - time.timezone)


PKI = None


def client_context(cert=None, key=None, ca=None, max_version=None):
    ctx = ssl.create_default_context(cafile=ca or PKI.path("ca.crt"))
    if cert:
        ctx.load_cert_chain(cert, key)
    if max_version:
        ctx.maximum_version = max_version
    return ctx


class Server:
    """One jobset-webhook process on free loopback ports."""

    count = 0
    started = []

    def __init__(self, *flags, cert=None, key=None, wait_ready=True):
        Server.count += 1
        self.name = f"server{Server.count}"
        self.log_path = os.path.join(TMP, self.name + ".log")
        self.cert = cert or PKI.path("server1.crt")
        self.key = key or PKI.path("server1.key")
        args = [WEBHOOK, "--tls-cert-file", self.cert, "--tls-private-key-file", self.key,
                "--port", "0", "--health-port", "0", "--bind-address", "127.0.0.1",
                "--health-bind-address", "127.0.0.1", *flags]
        self.log_file = open(self.log_path, "w")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self.log_file)
        Server.started.append(self)
        deadline = time.time() + 20
        self.port = self.health_port = None
        while time.time() < deadline:
            for line in self.lines():
                if line.get("msg") == "serving":
                    self.port, self.health_port = line["port"], line["healthPort"]
            if self.port:
                break
            if self.proc.poll() is not None:
                raise AssertionError(f"{self.name} exited: {open(self.log_path).read()}")
            time.sleep(0.05)
        assert self.port, f"{self.name} did not start: {open(self.log_path).read()}"
        if wait_ready:
            assert self.health("/readyz")[0] == 200

    def lines(self):
        time.sleep(0.05)  # The server writes its log every 10 ms.
        out = []
        with open(self.log_path) as f:
            for raw in f:
                try:
                    out.append(json.loads(raw))
                except ValueError:
                    raise AssertionError(f"log line is not JSON: {raw!r}")
        return out

    def connection(self, ctx=None, timeout=15):
        return http.client.HTTPSConnection("127.0.0.1", self.port, context=ctx or client_context(),
                                           timeout=timeout)

    def post(self, path, body, conn=None, content_type="application/json", ctx=None):
        own = conn is None
        conn = conn or self.connection(ctx)
        try:
            headers = {"Content-Type": content_type} if content_type else {}
            conn.request("POST", path, body=body, headers=headers)
            r = conn.getresponse()
            return r.status, r.read(), r.headers
        finally:
            if own:
                conn.close()

    def review(self, path, review_body, **kw):
        status, data, _ = self.post(path, json.dumps(review_body), **kw)
        assert status == 200, f"HTTP {status}: {data[:300]!r}"
        return json.loads(data)

    def health(self, path):
        conn = http.client.HTTPConnection("127.0.0.1", self.health_port, timeout=10)
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            return r.status, r.read().decode()
        finally:
            conn.close()

    def metric(self, name):
        text = self.health("/metrics")[1]
        for line in text.splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
        return None

    def stop(self, sig=signal.SIGTERM, timeout=30):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        finally:
            self.log_file.close()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if not self.log_file.closed:
            self.log_file.close()


def review(obj, operation="CREATE", old=None, uid=None, version="admission.k8s.io/v1",
           kind=None, sub_resource=None, dry_run=False):
    name = ""
    if isinstance(obj, dict):
        name = obj.get("metadata", {}).get("name", "")
    req = {"uid": uid or str(uuid.uuid4()), "kind": kind or JOBSET_KIND,
           "resource": {"group": "jobset.x-k8s.io", "version": "v1alpha2",
                        "resource": "jobsets"},
           "requestKind": kind or JOBSET_KIND, "name": name, "namespace": "default",
           "operation": operation, "userInfo": {"username": "it"}, "object": obj,
           "oldObject": old, "dryRun": dry_run}
    if sub_resource:
        req["subResource"] = sub_resource
    return {"apiVersion": version, "kind": "AdmissionReview", "request": req}


def testtool(*args, stdin=None):
    return run(TESTTOOL, *args, stdin=stdin).stdout


def objects_of(path):
    return [json.loads(line) for line in testtool("objects", path).splitlines() if line]


def defaults_of(obj):
    return json.loads(testtool("default", stdin=json.dumps(obj)))


def core_verdict(obj, operation="CREATE", old=None, gates=""):
    payload = {"operation": operation, "object": obj}
    if old is not None:
        payload["oldObject"] = old
    return json.loads(testtool("verdict", "--feature-gates", gates, stdin=json.dumps(payload)))


def lint_json(path, gates=""):
    # An empty config file: folder configs (.kubectl-jobset.yaml) would set gates and re-grade
    # rules for lint only.
    config = os.path.join(TMP, "empty-config.yaml")
    with open(config, "w") as f:
        f.write("# no settings\n")
    args = [KUBECTL_JOBSET, "lint", "--config", config, "-o", "json", path]
    if gates:
        args[2:2] = ["--feature-gates", gates]
    p = run(*args, check=False)
    assert p.returncode in (0, 1), f"lint failed on {path}: {p.stderr}"
    return json.loads(p.stdout)


def findings_by_object(lint):
    """Lint findings of a file by (document, object name), reading problems left out."""
    by_key = {}
    for f in lint["findings"]:
        if f["rule"].startswith(("yaml/", "input/")):
            continue
        by_key.setdefault((f["document"], f["name"]), []).append(f)
    return by_key


def errors_and_warnings(findings):
    """The errors, and the warnings the webhook sends: annotation suppressions hold in the
    cluster too (the annotation is stored); comments do not get there."""
    errors = [f for f in findings if f["severity"] == "error"]
    warnings = [f for f in findings if f["severity"] != "error" and
                f.get("suppressed", {}).get("kind") != "annotation"]
    return errors, warnings


def warning_text(f):
    """WarningsOf in webhook/jobset_admission.cc, for one lint finding."""
    text = f["message"]
    if f.get("field") and not text.startswith(f["field"]):
        text = f["field"] + ": " + text
    text = "".join(" " if ord(c) < 0x20 or ord(c) == 0x7f else c for c in text)
    raw = text.encode()
    if len(raw) > 119:
        cut = raw[:116]
        while cut and raw[len(cut)] & 0xC0 == 0x80:
            cut = cut[:-1]
        text = cut.decode() + "..."
    return text


def manifest_files(dirs):
    out = []
    for d in dirs:
        for root, _, names in os.walk(d):
            for n in sorted(names):
                if n.endswith((".yaml", ".yml", ".json")):
                    out.append(os.path.join(root, n))
    return sorted(out)


def response_of(doc, version="admission.k8s.io/v1"):
    assert doc["apiVersion"] == version, doc
    assert doc["kind"] == "AdmissionReview"
    return doc["response"]


TESTS = []
CORPUS_TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def corpus_test(fn):
    """A test that reads the upstream corpus: run only by the "corpus" set."""
    CORPUS_TESTS.append(fn)
    return fn


# --- Verdicts: the same as lint -----------------------------------------------------------------

def check_create_parity(gates, dirs, least):
    server = Server(*(["--feature-gates", gates] if gates else []))
    stats = {"objects": 0, "allowed": 0, "denied": 0, "warned": 0}
    try:
        for path in manifest_files(dirs):
            objs = objects_of(path)
            if not objs:
                continue
            by_key = findings_by_object(lint_json(path, gates))
            for entry in objs:
                obj = entry["object"]
                name = obj.get("metadata", {}).get("name", "")
                errors, warnings = errors_and_warnings(by_key.get((entry["document"], name), []))
                uid = str(uuid.uuid4())
                resp = response_of(server.review(VALIDATE, review(obj, uid=uid)))
                where = f"{path} [{name}]"
                assert resp["uid"] == uid, where
                assert resp["allowed"] == (not errors), \
                    f"{where}: lint errors {[e['message'] for e in errors]}, webhook {resp}"
                stats["objects"] += 1
                if errors:
                    stats["denied"] += 1
                    st = resp["status"]
                    assert st["code"] == 422 and st["reason"] == "Invalid", where
                    prefix = f'JobSet.jobset.x-k8s.io "{name}" is invalid: '
                    assert st["message"].startswith(prefix), (where, st["message"])
                    for e in errors:
                        assert e["message"] in st["message"], (where, e["message"], st["message"])
                    assert st["details"]["kind"] == "JobSet"
                    assert st["details"]["group"] == "jobset.x-k8s.io"
                    assert len(st["details"]["causes"]) >= len(
                        {e["message"] for e in errors}) - 0, where
                else:
                    stats["allowed"] += 1
                    assert "status" not in resp, where
                expected_warnings = sorted({warning_text(w) for w in warnings})
                got_warnings = resp.get("warnings", [])
                assert sorted(got_warnings) == expected_warnings, (where, got_warnings,
                                                                   expected_warnings)
                assert all(len(w) < 120 for w in got_warnings), where
                if got_warnings:
                    stats["warned"] += 1
                # The core, called directly, says exactly the same.
                core = core_verdict(obj, gates=gates)
                assert core["allowed"] == resp["allowed"], where
                assert core["message"] == resp.get("status", {}).get("message", ""), where
                assert core["warnings"] == got_warnings, where
                # Validating the mutated object (what the API server sends after mutation)
                # gives the same verdict.
                mutated = defaults_of(obj)["webhook"]
                again = response_of(server.review(VALIDATE, review(mutated)))
                assert again["allowed"] == resp["allowed"], where
        assert all(stats[k] >= n for k, n in least.items()), (stats, least)
        print(f"    gates={gates or 'none'}: {stats}")
    finally:
        assert server.stop() == 0


# Our examples and webhook cases: valid, invalid and warned objects of every kind of finding.
OWN_LEAST = {"objects": 20, "allowed": 8, "denied": 8, "warned": 1}
# Upstream's examples: all valid (some only with their feature gate), a few warned.
CORPUS_LEAST = {"objects": 25, "allowed": 20, "denied": 0, "warned": 1}


@test
def create_verdicts_match_lint_without_gates():
    check_create_parity("", [EXAMPLES, CASES], OWN_LEAST)


@test
def create_verdicts_match_lint_with_all_gates():
    check_create_parity(ALL_GATES, [EXAMPLES, CASES], OWN_LEAST)


@corpus_test
def corpus_create_verdicts_match_lint_without_gates():
    check_create_parity("", [CORPUS_EXAMPLES], CORPUS_LEAST)


@corpus_test
def corpus_create_verdicts_match_lint_with_all_gates():
    check_create_parity(ALL_GATES, [CORPUS_EXAMPLES], CORPUS_LEAST)


def clean_objects(dirs, limit=10):
    out = []
    for path in manifest_files(dirs):
        for entry in objects_of(path):
            if core_verdict(entry["object"])["allowed"]:
                out.append(defaults_of(entry["object"])["webhook"])
        if len(out) >= limit:
            break
    assert len(out) >= 5
    return out


def pod_template(rj):
    return rj["template"]["spec"]["template"]


UPDATE_CASES = [
    # (name, mutation of (old, new), allowed without gates, message part)
    ("unchanged", lambda o, n: None, True, None),
    ("metadata labels", lambda o, n: n["metadata"].setdefault("labels", {}).update(team="a"),
     True, None),
    ("suspend toggled", lambda o, n: n["spec"].update(suspend=not o["spec"].get("suspend")),
     True, None),
    ("ttlSecondsAfterFinished", lambda o, n: n["spec"].update(ttlSecondsAfterFinished=60), True,
     None),
    ("replicas", lambda o, n: n["spec"]["replicatedJobs"][0].update(
        replicas=n["spec"]["replicatedJobs"][0].get("replicas", 1) + 1), False,
     "spec.replicatedJobs: Invalid value: [{"),
    ("image", lambda o, n: pod_template(n["spec"]["replicatedJobs"][0])["spec"]["containers"][0]
     .update(image="changed:2"), False, ": field is immutable"),
    ("pod labels while running", lambda o, n: pod_template(n["spec"]["replicatedJobs"][0])
     .setdefault("metadata", {}).setdefault("labels", {}).update(kueue="x"), False,
     "spec.replicatedJobs: Invalid value"),
    ("pod labels while suspended", lambda o, n: (
        o["spec"].update(suspend=True), n["spec"].update(suspend=True),
        pod_template(n["spec"]["replicatedJobs"][0]).setdefault("metadata", {})
        .setdefault("labels", {}).update(kueue="x"),
        pod_template(n["spec"]["replicatedJobs"][0])["spec"].update(nodeSelector={"pool": "b"})),
     True, None),
    ("network", lambda o, n: n["spec"]["network"].update(
        enableDNSHostnames=not n["spec"]["network"].get("enableDNSHostnames", True)), False,
     'spec.network: Invalid value: "object": Value is immutable'),
    ("successPolicy", lambda o, n: n["spec"].update(successPolicy={"operator": "Any"}), False,
     'spec.successPolicy: Invalid value: "object": Value is immutable'),
    ("managedBy added", lambda o, n: n["spec"].update(managedBy="example.com/other"), False,
     'spec.managedBy: Invalid value: "example.com/other": field is immutable'),
    ("failurePolicy added", lambda o, n: (o["spec"].pop("failurePolicy", None),
                                          n["spec"].update(failurePolicy={"maxRestarts": 1})),
     True, None),
    ("failurePolicy changed", lambda o, n: (o["spec"].update(failurePolicy={"maxRestarts": 1}),
                                            n["spec"].update(failurePolicy={"maxRestarts": 2})),
     False, 'spec.failurePolicy: Invalid value: "object": Value is immutable'),
    ("elastic scale", lambda o, n: (
        o["spec"]["replicatedJobs"][0]["template"]["spec"].update(
            parallelism=2, completions=2, completionMode="Indexed"),
        n["spec"]["replicatedJobs"][0]["template"]["spec"].update(
            parallelism=3, completions=3, completionMode="Indexed")),
     False, "spec.replicatedJobs: Invalid value"),
]


@test
def update_verdicts_follow_the_upstream_rules():
    check_update_verdicts([EXAMPLES, CASES])


@corpus_test
def corpus_update_verdicts_follow_the_upstream_rules():
    check_update_verdicts([CORPUS_EXAMPLES])


def check_update_verdicts(dirs):
    plain = Server()
    elastic = Server("--feature-gates", "ElasticJobSet=true")
    try:
        checked = 0
        for base in clean_objects(dirs):
            for name, mutate, allowed, part in UPDATE_CASES:
                old, new = copy.deepcopy(base), copy.deepcopy(base)
                mutate(old, new)
                for server, gates in ((plain, ""), (elastic, "ElasticJobSet=true")):
                    want = allowed or (name == "elastic scale" and gates)
                    for version in ("admission.k8s.io/v1", "admission.k8s.io/v1beta1"):
                        uid = str(uuid.uuid4())
                        resp = response_of(server.review(
                            VALIDATE, review(new, "UPDATE", old, uid=uid, version=version)),
                            version)
                        where = f"{base['metadata'].get('name')}: {name} (gates={gates})"
                        assert resp["uid"] == uid
                        assert resp["allowed"] == bool(want), (where, resp)
                        assert "warnings" not in resp, where
                        core = core_verdict(new, "UPDATE", old, gates)
                        assert core["allowed"] == resp["allowed"], where
                        assert core["message"] == resp.get("status", {}).get("message", ""), where
                        if not want:
                            assert resp["status"]["code"] == 422, where
                            assert part in resp["status"]["message"], (where, resp)
                    checked += 1
                # Mutating is CREATE only.
                m = response_of(plain.review(MUTATE, review(new, "UPDATE", old)))
                assert m["allowed"] and "patch" not in m and "patchType" not in m
        print(f"    {checked} update cases")
    finally:
        assert plain.stop() == 0
        assert elastic.stop() == 0


# --- Defaulting: the patch, applied by kubectl --------------------------------------------------

def apply_patch_with_kubectl(obj, patch):
    path = os.path.join(TMP, "patch-obj.json")
    with open(path, "w") as f:
        json.dump(obj, f)
    p = run(KUBECTL, "patch", "--local", "--type=json", "-f", path, "-p", json.dumps(patch),
            "-o", "json")
    return json.loads(p.stdout)


def check_applied_patch(path, crd, patch, want, where):
    """The patch, applied by kubectl (a real RFC 6902 implementation), gives the core's result."""
    if KUBECTL:
        got = apply_patch_with_kubectl(crd, patch)
        assert got == want, (where, json.dumps(got), json.dumps(want))
    if os.path.basename(path) == "explicit.yaml":
        raise AssertionError("explicit.yaml must not be patched")


def report_defaulting(rules, seen, patched, unpatched, what, required=None, least_patched=10):
    """Every one of `required` (default: all `rules`) was seen in a patch, and at least
    `least_patched` objects were patched and one left alone."""
    missing = sorted(set(rules if required is None else required) - seen)
    assert not missing, f"defaulting rules never exercised: {missing}"
    assert patched >= least_patched and unpatched >= 1, (patched, unpatched)
    print(f"    {patched} {what} patched (kubectl: {'yes' if KUBECTL else 'skipped'}), "
          f"{unpatched} already complete")


@test
def mutating_patch_gives_exactly_the_core_defaults():
    check_mutating_patch([DEFAULTING], None, 5)


@corpus_test
def corpus_mutating_patch_gives_exactly_the_core_defaults():
    check_mutating_patch([CORPUS_EXAMPLES], None, 10)


def check_mutating_patch(dirs, required, least_patched):
    """The webhook's patch for every JobSet under `dirs` is the core's; each default of
    `required` (None: all) is exercised, and at least `least_patched` objects are patched."""
    if not KUBECTL:
        print("    SKIP kubectl part: kubectl is not installed (patches checked by path only)")
    server = Server()
    seen = set()
    rules = {
        "successPolicy": r"^/spec/successPolicy$",
        "startupPolicy": r"^/spec/startupPolicy$",
        "completionMode": r"^/spec/replicatedJobs/\d+/template/spec/completionMode$",
        "restartPolicy": r"^/spec/replicatedJobs/\d+/template/spec/template/spec/restartPolicy$",
        "network": r"^/spec/network$",
        "enableDNSHostnames": r"^/spec/network/enableDNSHostnames$",
        "publishNotReadyAddresses": r"^/spec/network/publishNotReadyAddresses$",
        "failure policy rule name": r"^/spec/failurePolicy/rules/\d+/name$",
        "retentionPolicy": r"^/spec/volumeClaimPolicies/\d+/retentionPolicy$",
    }
    patched = unpatched = 0
    try:
        for path in manifest_files(dirs):
            for entry in objects_of(path):
                d = defaults_of(entry["object"])
                # What the API server sends the mutating webhook: the CRD defaults applied.
                crd, want = d["crd"], d["webhook"]
                where = f"{path} [{crd.get('metadata', {}).get('name')}]"
                resp = response_of(server.review(MUTATE, review(crd)))
                assert resp["allowed"] and "status" not in resp, where
                if crd == want:
                    assert "patch" not in resp and "patchType" not in resp, where
                    unpatched += 1
                    continue
                patched += 1
                assert resp["patchType"] == "JSONPatch", where
                patch = json.loads(base64.b64decode(resp["patch"]))
                assert len(patch) == d["ops"], where
                for op in patch:
                    assert op["op"] == "add", (where, op)
                    assert not re.search(r"/(replicas|groupName|restartStrategy|whenDeleted)$",
                                         op["path"]), (where, op)
                    for rule, rx in rules.items():
                        if re.match(rx, op["path"]):
                            seen.add(rule)
                check_applied_patch(path, crd, patch, want, where)
        report_defaulting(rules, seen, patched, unpatched, "objects", required, least_patched)
    finally:
        assert server.stop() == 0


# --- Volcano Jobs: /jobs/validate and /jobs/mutate ---------------------------------------------

def volcano_objects(path):
    out = testtool("objects", "--volcano", path)
    return [json.loads(line) for line in out.splitlines() if line]


def volcano_defaults(obj):
    return json.loads(testtool("default", "--volcano", stdin=json.dumps(obj)))


def volcano_core(obj, operation="CREATE", old=None):
    payload = {"operation": operation, "object": obj}
    if old is not None:
        payload["oldObject"] = old
    return json.loads(testtool("verdict", "--volcano", stdin=json.dumps(payload)))


def volcano_review(obj, operation="CREATE", old=None, **kw):
    doc = review(obj, operation, old, kind=VOLCANO_KIND, **kw)
    doc["request"]["resource"] = {"group": "batch.volcano.sh", "version": "v1alpha1",
                                  "resource": "jobs"}
    return doc


@test
def volcano_create_verdicts_match_lint():
    server = Server()
    stats = {"objects": 0, "allowed": 0, "denied": 0, "schema": 0, "warned": 0}
    try:
        broken = [p for p in manifest_files([os.path.join(SOURCE, "examples")])
                  if "volcano" in os.path.basename(p)]
        for path in manifest_files([VOLCANO_CASES]) + broken:
            by_key = findings_by_object(lint_json(path))
            for entry in volcano_objects(path):
                obj = entry["object"]
                name = obj["metadata"]["name"]
                where = f"{path} [{name}]"
                errors, warnings = errors_and_warnings(by_key.get((entry["document"], name), []))
                uid = str(uuid.uuid4())
                resp = response_of(server.review(VC_VALIDATE, volcano_review(obj, uid=uid)))
                assert resp["uid"] == uid, where
                assert resp["allowed"] == (not errors), (where, errors, resp)
                stats["objects"] += 1
                if errors:
                    stats["denied"] += 1
                    st = resp["status"]
                    assert st["code"] == 422 and st["reason"] == "Invalid", where
                    schema = [e for e in errors if not e["rule"].startswith("volcano/")]
                    if schema:
                        # kube-apiserver's own rejection: the webhook is never called.
                        stats["schema"] += 1
                        assert st["message"].startswith(
                            f'Job.batch.volcano.sh "{name}" is invalid: '), (where, st)
                        assert st["details"]["group"] == "batch.volcano.sh", where
                        for e in schema:
                            assert e["message"] in st["message"], (where, e["message"], st)
                    else:
                        # Volcano's own words: the fragments, joined and trimmed.
                        assert "details" not in st, where
                        assert st["message"] == st["message"].strip(), where
                        for e in errors:
                            assert e["message"] in st["message"], (where, e["message"], st)
                else:
                    stats["allowed"] += 1
                    assert "status" not in resp, where
                expected = sorted({warning_text(w) for w in warnings})
                assert sorted(resp.get("warnings", [])) == expected, (where, resp, expected)
                if expected:
                    stats["warned"] += 1
                core = volcano_core(obj)
                assert core["allowed"] == resp["allowed"], where
                assert core["message"] == resp.get("status", {}).get("message", ""), where
                # What the API server sends after mutation gets the same verdict.
                again = response_of(server.review(VC_VALIDATE, volcano_review(
                    volcano_defaults(obj)["webhook"])))
                assert again["allowed"] == resp["allowed"], where
        assert stats["objects"] >= 20 and stats["allowed"] >= 5 and stats["denied"] >= 15, stats
        assert stats["schema"] >= 3 and stats["warned"] >= 1, stats
        print(f"    {stats}")
    finally:
        assert server.stop() == 0


VOLCANO_UPDATES = [
    # (name, mutation of (old, new), message or None when allowed)
    ("unchanged", lambda o, n: None, None),
    ("labels", lambda o, n: n["metadata"].setdefault("labels", {}).update(team="a"), None),
    ("scale up", lambda o, n: n["spec"]["tasks"][0].update(replicas=4, minAvailable=3), None),
    ("minAvailable and priority", lambda o, n: n["spec"].update(minAvailable=1,
                                                                priorityClassName="high"), None),
    ("task minAvailable above replicas", lambda o, n: n["spec"]["tasks"][0].update(
        minAvailable=9), "'minAvailable' must be <= 'replicas' in task: worker"),
    ("minAvailable above total", lambda o, n: n["spec"].update(minAvailable=99),
     "job 'minAvailable' must not be greater than total replicas"),
    ("task added", lambda o, n: n["spec"]["tasks"].append(
        dict(copy.deepcopy(n["spec"]["tasks"][0]), name="extra")),
     "job updates may not add or remove tasks"),
    ("maxRetry", lambda o, n: n["spec"].update(maxRetry=7),
     "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under "
     "spec` and `PriorityClassName`"),
    ("image", lambda o, n: n["spec"]["tasks"][0]["template"]["spec"]["containers"][0].update(
        image="other"), "job updates may not change fields other than"),
    ("policies", lambda o, n: n["spec"].update(policies=[{"event": "PodFailed",
                                                         "action": "AbortJob"}]),
     "job updates may not change fields other than"),
]


@test
def volcano_update_verdicts_follow_the_upstream_rules():
    server = Server()
    try:
        base = None
        for entry in volcano_objects(os.path.join(VOLCANO_CASES, "valid.yaml")):
            if entry["object"]["metadata"]["name"] == "plain":
                base = volcano_defaults(entry["object"])["webhook"]
        assert base
        for name, mutate, message in VOLCANO_UPDATES:
            old, new = copy.deepcopy(base), copy.deepcopy(base)
            mutate(old, new)
            for version in ("admission.k8s.io/v1", "admission.k8s.io/v1beta1"):
                resp = response_of(server.review(VC_VALIDATE, volcano_review(
                    new, "UPDATE", old, version=version)), version)
                assert resp["allowed"] == (message is None), (name, resp)
                assert "warnings" not in resp, name
                if message:
                    assert resp["status"]["code"] == 422, name
                    assert resp["status"]["message"].startswith(message), (name, resp)
                core = volcano_core(new, "UPDATE", old)
                assert core["message"] == resp.get("status", {}).get("message", ""), name
            # Mutating is CREATE only: upstream's own answer to anything else.
            m = response_of(server.review(VC_MUTATE, volcano_review(new, "UPDATE", old)))
            assert not m["allowed"] and "patch" not in m, m
            assert m["status"]["message"] == "expect operation to be 'CREATE' ", m
        d = response_of(server.review(VC_VALIDATE, volcano_review(None, "DELETE", base)))
        assert not d["allowed"]
        assert d["status"]["message"] == "expect operation to be 'CREATE' or 'UPDATE'", d
        print(f"    {len(VOLCANO_UPDATES)} update cases")
    finally:
        assert server.stop() == 0


@test
def volcano_mutating_patch_gives_exactly_the_core_defaults():
    if not KUBECTL:
        print("    SKIP kubectl part: kubectl is not installed (patches checked by path only)")
    server = Server()
    rules = {
        "queue": r"^/spec/queue$",
        "schedulerName": r"^/spec/schedulerName$",
        "maxRetry": r"^/spec/maxRetry$",
        "tasks": r"^/spec/tasks$",
        "minAvailable": r"^/spec/minAvailable$",
        "plugins": r"^/spec/plugins$",
    }
    seen = set()
    patched = unpatched = 0
    try:
        for path in manifest_files([VOLCANO_DEFAULTING, VOLCANO_CASES]):
            for entry in volcano_objects(path):
                d = volcano_defaults(entry["object"])
                crd, want = d["crd"], d["webhook"]
                where = f"{path} [{crd['metadata']['name']}]"
                resp = response_of(server.review(VC_MUTATE, volcano_review(crd)))
                assert resp["allowed"] and "status" not in resp, where
                if d["ops"] == 0:
                    assert "patch" not in resp and crd == want, where
                    unpatched += 1
                    continue
                patched += 1
                assert resp["patchType"] == "JSONPatch", where
                patch = json.loads(base64.b64decode(resp["patch"]))
                assert len(patch) == d["ops"], where
                order = []
                for op in patch:
                    want_op = "replace" if op["path"] in ("/spec/tasks", "/spec/plugins") \
                        else "add"
                    assert op["op"] == want_op, (where, op)
                    for rule, rx in rules.items():
                        if re.match(rx, op["path"]):
                            seen.add(rule)
                            order.append(list(rules).index(rule))
                # Upstream's order: queue, schedulerName, maxRetry, tasks, minAvailable, plugins.
                assert order == sorted(order), (where, patch)
                check_applied_patch(path, crd, patch, want, where)
        report_defaulting(rules, seen, patched, unpatched, "Volcano Jobs")
    finally:
        assert server.stop() == 0


# --- The protocol ----------------------------------------------------------------------------

SIMPLE = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
          "metadata": {"name": "simple", "namespace": "default"},
          "spec": {"replicatedJobs": [{"name": "w", "replicas": 1, "template": {"spec": {
              "template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}}}}}]}}
BAD = copy.deepcopy(SIMPLE)
BAD["spec"]["failurePolicy"] = {"rules": [{"name": "r", "action": "RestartJob"}]}
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
       "spec": {"containers": [{"name": "c", "image": "busybox"}]}}


@test
def protocol_versions_uids_kinds_and_paths():
    server = Server()
    try:
        for version in ("admission.k8s.io/v1", "admission.k8s.io/v1beta1"):
            for path in (VALIDATE, MUTATE, VALIDATE + "?timeout=10s", MUTATE + "?timeout=30s"):
                uid = str(uuid.uuid4())
                r = response_of(server.review(path, review(SIMPLE, uid=uid, version=version)),
                                version)
                assert r["uid"] == uid and r["allowed"], (version, path, r)
                assert ("patch" in r) == path.startswith(MUTATE)
            r = response_of(server.review(VALIDATE, review(BAD, version=version)), version)
            assert not r["allowed"] and r["status"]["code"] == 422
        # Other kinds on the JobSet paths: allowed untouched.
        for path in (VALIDATE, MUTATE):
            r = response_of(server.review(path, review(
                POD, kind={"group": "", "version": "v1", "kind": "Pod"})))
            assert r["allowed"] and set(r) == {"uid", "allowed"}, r
            # The status subresource, DELETE and CONNECT: nothing to check.
            r = response_of(server.review(path, review(BAD, "UPDATE", BAD, sub_resource="status")))
            assert r["allowed"] and set(r) == {"uid", "allowed"}, r
            r = response_of(server.review(path, review(None, "DELETE", BAD)))
            assert r["allowed"] and set(r) == {"uid", "allowed"}, r
        r = response_of(server.review(VALIDATE, review(BAD, dry_run=True)))
        assert not r["allowed"]
        # A malformed object inside a valid review: a 400 rejection, still an AdmissionReview.
        for path in (VALIDATE, MUTATE):
            r = response_of(server.review(path, review(["not", "an", "object"])))
            assert not r["allowed"] and r["status"]["code"] == 400, r
            assert "request.object" in r["status"]["message"]
        r = response_of(server.review(VALIDATE, review(SIMPLE, "UPDATE", None)))
        assert not r["allowed"] and r["status"]["code"] == 400
        # The Volcano paths answer reviews too; a JobSet sent there is not theirs to judge.
        for path in (VC_MUTATE, VC_VALIDATE):
            r = response_of(server.review(path, review(BAD)))
            assert r["allowed"] and set(r) == {"uid", "allowed"}, r
        status, data, _ = server.post("/nope", "{}")
        assert status == 404 and json.loads(data)["code"] == 404
        conn = server.connection()
        conn.request("GET", VALIDATE)
        r = conn.getresponse()
        assert r.status == 405 and r.getheader("Allow") == "POST"
        r.read()
        conn.close()
        status, data, _ = server.post(VALIDATE, json.dumps(review(SIMPLE)),
                                      content_type="text/plain")
        assert status == 400 and "Content-Type" in json.loads(data)["message"]
        # One log line per admission request, with the fields operators look for.
        admissions = [l for l in server.lines() if l.get("msg") == "admission"]
        assert len(admissions) >= 20
        for line in admissions:
            for key in ("ts", "level", "uid", "kind", "name", "namespace", "operation",
                        "verdict", "latency_ms", "code", "path"):
                assert key in line, (key, line)
        assert any(l["verdict"] == "denied" and l["reviewCode"] == 422 for l in admissions)
        assert any(l["verdict"] == "patched" for l in admissions)
        metrics = server.health("/metrics")[1]
        assert f'jobset_webhook_requests_total{{path="{VALIDATE}",verdict="denied",code="200"}}' \
            in metrics
        assert 'jobset_webhook_request_duration_seconds_bucket{path="' + VALIDATE + \
            '",le="+Inf"}' in metrics
        assert f'jobset_webhook_requests_total{{path="{VC_VALIDATE}",verdict="allowed",code="200"}}' \
            in metrics
        expiry = server.metric("jobset_webhook_certificate_expiry_timestamp_seconds")
        assert abs(expiry - PKI.not_after(PKI.path("server1.crt"))) <= 1, expiry
        assert server.health("/healthz")[0] == 200
    finally:
        assert server.stop() == 0


# --- Hostile and broken clients ---------------------------------------------------------------

def assert_serving(server):
    r = response_of(server.review(VALIDATE, review(SIMPLE)))
    assert r["allowed"]


@test
def bad_bodies_get_clear_answers_and_the_server_keeps_serving():
    server = Server("--read-timeout", "3s")
    try:
        cases = [
            ("not JSON", b"this is not json", 400,
             "request body is not an AdmissionReview: invalid JSON at byte"),
            ("not a review", json.dumps({"apiVersion": "v1", "kind": "ConfigMap"}).encode(), 400,
             'kind is "ConfigMap", want "AdmissionReview"'),
            ("no request", json.dumps({"apiVersion": "admission.k8s.io/v1",
                                       "kind": "AdmissionReview"}).encode(), 400,
             "request is missing"),
            ("nested 100000 deep",
             (b'{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":'
              b'{"uid":"x","object":' + b"[" * 100000 + b"]" * 100000 + b"}}"), 400,
             "JSON nested deeper than 1000 levels"),
            ("10 MiB", b'{"pad":"' + b"x" * (10 << 20) + b'"}', 413, "larger than 7340032 bytes"),
        ]
        # Just under the depth limit inside the object: parsed and judged, no crash.
        deep = copy.deepcopy(SIMPLE)
        deep["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["x"] = "DEEP"
        text = json.dumps(review(deep)).replace('"DEEP"', "[" * 990 + "]" * 990)
        for path in (VALIDATE, MUTATE):
            status, data, _ = server.post(path, text)
            assert status == 200 and json.loads(data)["kind"] == "AdmissionReview", data[:200]
        conn = server.connection()
        for name, body, want_status, want_message in cases:
            for c in (None, conn):  # On a fresh connection, and on a kept-alive one.
                status, data, headers = server.post(VALIDATE, body, conn=c)
                assert status == want_status, (name, status, data[:200])
                doc = json.loads(data)
                assert doc["kind"] == "Status" and doc["code"] == want_status, (name, doc)
                assert want_message in doc["message"], (name, doc["message"])
            assert_serving(server)
        conn.close()
        # cpp-httplib 0.11.4 does not limit chunked bodies; the server does: 413, and the
        # connection stays usable.
        conn = server.connection()
        chunk = b"x" * (1 << 20)
        conn.request("POST", VALIDATE, body=iter([chunk] * 10), encode_chunked=True,
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        assert r.status == 413, r.status
        assert "larger than" in json.loads(r.read())["message"]
        assert_serving_on = response_of(server.review(VALIDATE, review(SIMPLE), conn=conn))
        assert assert_serving_on["allowed"]
        conn.close()
        # Unknown paths and methods do not read unbounded bodies either (cpp-httplib would).
        for method, path in (("POST", "/nope"), ("PUT", VALIDATE), ("PATCH", "/x"),
                             ("DELETE", "/y")):
            conn = server.connection()
            conn.request(method, path, body=iter([chunk] * 10), encode_chunked=True,
                         headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            assert r.status == 404, (method, path, r.status)
            assert json.loads(r.read())["reason"] == "NotFound"
            conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", server.health_port, timeout=10)
        conn.request("POST", "/metrics", body=iter([chunk] * 10), encode_chunked=True)
        assert conn.getresponse().status == 404
        conn.close()
        # A declared length far beyond the limit is refused before the body is read.
        raw = socket.create_connection(("127.0.0.1", server.port))
        s = client_context().wrap_socket(raw, server_hostname="localhost")
        s.sendall(f"POST {VALIDATE} HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                  f"application/json\r\nContent-Length: {100 << 20}\r\n\r\n{{}}".encode())
        s.settimeout(10)
        head = s.recv(65536)
        assert head.startswith(b"HTTP/1.1 413"), head[:100]
        assert b"Connection: close" in head, head
        s.close()
        assert_serving(server)
        assert server.proc.poll() is None
    finally:
        assert server.stop() == 0


def closed_after(sock, limit):
    """Seconds until the peer closes `sock` (None if still open after `limit`)."""
    start = time.time()
    sock.settimeout(limit)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return time.time() - start
    except socket.timeout:
        return None
    except (ConnectionError, ssl.SSLError, OSError):
        return time.time() - start


@test
def silent_and_slow_clients_are_cut_off_without_blocking_others():
    server = Server("--read-timeout", "2s", "--keep-alive-timeout", "2s")
    try:
        before = server.metric("jobset_webhook_tls_handshake_errors_total")
        results = {}

        def silent_tcp():
            s = socket.create_connection(("127.0.0.1", server.port))
            results["tcp"] = closed_after(s, 15)
            s.close()

        def silent_tls():
            raw = socket.create_connection(("127.0.0.1", server.port))
            s = client_context().wrap_socket(raw, server_hostname="localhost")
            results["tls"] = closed_after(s, 15)
            s.close()

        def partial_headers():
            raw = socket.create_connection(("127.0.0.1", server.port))
            s = client_context().wrap_socket(raw, server_hostname="localhost")
            s.sendall(f"POST {VALIDATE} HTTP/1.1\r\nHost: localhost\r\n".encode())
            results["partial"] = closed_after(s, 15)
            s.close()

        threads = [threading.Thread(target=f) for f in (silent_tcp, silent_tls, partial_headers)
                   for _ in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        # Meanwhile everybody else is served at once.
        worst = 0
        for _ in range(30):
            start = time.time()
            assert_serving(server)
            worst = max(worst, time.time() - start)
        assert worst < 1.0, worst
        for t in threads:
            t.join(30)
        for kind in ("tcp", "tls", "partial"):
            assert results[kind] is not None and 1.0 <= results[kind] <= 8.0, results
        after = server.metric("jobset_webhook_tls_handshake_errors_total")
        assert after >= before + 4, (before, after)  # The silent TCP clients never shook hands.
        assert any(l.get("msg") == "TLS handshake failed" for l in server.lines())
        print(f"    cut off after: {', '.join(f'{k} {v:.1f}s' for k, v in results.items())}")
    finally:
        assert server.stop() == 0


@test
def many_kept_alive_connections_are_served_at_once():
    server = Server()
    failures, done = [], []

    def client():
        try:
            conn = server.connection()
            for _ in range(15):
                r = response_of(server.review(VALIDATE, review(SIMPLE), conn=conn))
                assert r["allowed"]
            # Still open after 15 requests (0.11.4's default closes after 5).
            done.append(conn.sock is not None)
            conn.close()
        except Exception as e:  # noqa: BLE001 - record any failure.
            failures.append(repr(e))

    try:
        start = time.time()
        # Hold 60 idle kept-alive connections first: more than cpp-httplib's default pool of 8.
        idle = [server.connection() for _ in range(60)]
        for c in idle:
            c.connect()
        threads = [threading.Thread(target=client) for _ in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        elapsed = time.time() - start
        for c in idle:
            c.close()
        assert not failures, failures[:3]
        assert len(done) == 40 and all(done), done
        assert elapsed < 30, elapsed
        print(f"    40 clients x 15 requests beside 60 idle connections in {elapsed:.1f}s")
        if shutil.which("ss"):
            out = run("ss", "-ltn", f"sport = :{server.port}").stdout
            line = [l for l in out.splitlines() if f":{server.port}" in l]
            assert line and line[0].split()[2] == "1024", out  # Send-Q = backlog.
    finally:
        assert server.stop() == 0


# --- TLS ----------------------------------------------------------------------------------------

def tls_request_fails(server, ctx):
    try:
        server.post(VALIDATE, json.dumps(review(SIMPLE)), ctx=ctx)
    except (ssl.SSLError, ConnectionError, http.client.HTTPException, OSError):
        return True
    return False


@test
def client_certificates_are_required_and_verified():
    good = PKI.issue(PKI.client_ca, "client-good", "apiserver", 11, client=True)
    rogue = PKI.issue(PKI.rogue_ca, "client-rogue", "apiserver", 12, client=True)
    server = Server("--client-ca-file", PKI.path("client-ca.crt"))
    try:
        before = server.metric("jobset_webhook_tls_handshake_errors_total")
        assert tls_request_fails(server, client_context())
        assert tls_request_fails(server, client_context(*rogue))
        r = response_of(server.review(VALIDATE, review(SIMPLE), ctx=client_context(*good)))
        assert r["allowed"]
        time.sleep(0.2)
        after = server.metric("jobset_webhook_tls_handshake_errors_total")
        assert after >= before + 2, (before, after)
        reasons = [l["reason"] for l in server.lines() if l.get("msg") == "TLS handshake failed"]
        assert any("alert" in r for r in reasons), reasons
        assert_serving_ctx = server.review(VALIDATE, review(SIMPLE), ctx=client_context(*good))
        assert response_of(assert_serving_ctx)["allowed"]
    finally:
        assert server.stop() == 0
    # TLS versions: 1.2 minimum by default, 1.3 when asked.
    tls13 = Server("--tls-min-version", "VersionTLS13")
    default = Server()
    try:
        assert tls_request_fails(tls13, client_context(max_version=ssl.TLSVersion.TLSv1_2))
        assert response_of(tls13.review(VALIDATE, review(SIMPLE)))["allowed"]
        r = default.review(VALIDATE, review(SIMPLE),
                           ctx=client_context(max_version=ssl.TLSVersion.TLSv1_2))
        assert response_of(r)["allowed"]
        ctx = client_context(max_version=ssl.TLSVersion.TLSv1_2)
        ctx.set_ciphers("AES128-SHA")  # No forward secrecy, no AEAD: refused.
        assert tls_request_fails(default, ctx)
    finally:
        assert tls13.stop() == 0
        assert default.stop() == 0


def install_cert_dir(root, cert, key, name):
    """Kubernetes Secret volume layout: tls.crt -> ..data/tls.crt, ..data -> <name>."""
    d = os.path.join(root, name)
    os.makedirs(d)
    shutil.copy(cert, os.path.join(d, "tls.crt"))
    shutil.copy(key, os.path.join(d, "tls.key"))
    link = os.path.join(root, "..data_tmp")
    os.symlink(name, link)
    os.replace(link, os.path.join(root, "..data"))  # Atomic swap of both files.
    for f in ("tls.crt", "tls.key"):
        p = os.path.join(root, f)
        if not os.path.islink(p):
            os.symlink(os.path.join("..data", f), p)


def peer_serial(server):
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    s = client_context().wrap_socket(raw, server_hostname="localhost")
    serial = s.getpeercert()["serialNumber"]
    s.close()
    return int(serial, 16)


@test
def certificates_rotate_under_load_without_a_failed_request():
    root = os.path.join(TMP, "rotating")
    os.makedirs(root)
    install_cert_dir(root, PKI.path("server1.crt"), PKI.path("server1.key"), "v1")
    server = Server("--cert-poll-interval", "1s", cert=os.path.join(root, "tls.crt"),
                    key=os.path.join(root, "tls.key"))
    stop = threading.Event()
    failures, serials, kept = [], [], [0]

    def fresh_connections():
        while not stop.is_set():
            try:
                conn = server.connection()
                conn.connect()
                serials.append(int(conn.sock.getpeercert()["serialNumber"], 16))
                r = response_of(server.review(VALIDATE, review(SIMPLE), conn=conn))
                assert r["allowed"]
                conn.close()
            except Exception as e:  # noqa: BLE001
                failures.append(repr(e))

    def kept_alive():
        conn = server.connection()
        while not stop.is_set():
            try:
                r = response_of(server.review(VALIDATE, review(SIMPLE), conn=conn))
                assert r["allowed"]
                kept[0] += 1
            except Exception as e:  # noqa: BLE001
                failures.append("kept-alive: " + repr(e))
                return
        conn.close()

    threads = [threading.Thread(target=fresh_connections) for _ in range(3)] + \
        [threading.Thread(target=kept_alive) for _ in range(2)]
    try:
        for t in threads:
            t.start()
        time.sleep(1)
        assert peer_serial(server) == 1
        swapped_at = time.time()
        install_cert_dir(root, PKI.path("server2.crt"), PKI.path("server2.key"), "v2")
        deadline = time.time() + 6
        while peer_serial(server) != 2:
            assert time.time() < deadline, "the new certificate was not served in time"
            time.sleep(0.1)
        rotated_after = time.time() - swapped_at
        expiry = server.metric("jobset_webhook_certificate_expiry_timestamp_seconds")
        assert abs(expiry - PKI.not_after(PKI.path("server2.crt"))) <= 1
        # A broken pair (key of another certificate) is refused and the current one stays.
        install_cert_dir(root, PKI.path("server1.crt"), PKI.path("server2.key"), "v3-broken")
        time.sleep(2.5)
        assert peer_serial(server) == 2
        assert server.metric("jobset_webhook_certificate_read_errors_total") == 1
        assert server.metric("jobset_webhook_certificate_reloads_total") == 2
        time.sleep(0.5)
    finally:
        stop.set()
        for t in threads:
            t.join(30)
        code = server.stop()
    assert not failures, failures[:5]
    assert code == 0
    assert 1 in serials and 2 in serials, set(serials)
    assert kept[0] > 50, kept
    logs = server.lines()
    assert any(l.get("msg") == "cannot load the new certificate; keeping the current one"
               for l in logs)
    print(f"    {len(serials)} fresh connections, {kept[0]} kept-alive requests, 0 failures; "
          f"new certificate served {rotated_after:.1f}s after the swap (poll: 1s)")


@test
def not_ready_until_a_certificate_loads():
    root = os.path.join(TMP, "late")
    os.makedirs(root)
    server = Server("--cert-poll-interval", "1s", cert=os.path.join(root, "tls.crt"),
                    key=os.path.join(root, "tls.key"), wait_ready=False)
    try:
        assert server.health("/readyz")[0] == 503
        assert server.health("/healthz")[0] == 200
        assert tls_request_fails(server, client_context())
        install_cert_dir(root, PKI.path("server1.crt"), PKI.path("server1.key"), "v1")
        deadline = time.time() + 6
        while server.health("/readyz")[0] != 200:
            assert time.time() < deadline
            time.sleep(0.1)
        assert_serving(server)
    finally:
        assert server.stop() == 0


# --- Shutdown -------------------------------------------------------------------------------

@test
def sigterm_under_load_finishes_in_flight_requests_and_exits_0():
    server = Server("--shutdown-delay", "1s")
    stop = threading.Event()
    lost, answered = [], [0]

    def load(keep_alive):
        conn = None
        while not stop.is_set():
            if conn is None:
                conn = server.connection(timeout=20)
                try:
                    conn.connect()
                except (ConnectionError, ssl.SSLError, OSError):
                    return  # Port closed: the server stopped accepting.
            try:
                conn.request("POST", VALIDATE, body=json.dumps(review(SIMPLE)),
                             headers={"Content-Type": "application/json"})
                r = conn.getresponse()
                body = r.read()
                assert r.status == 200 and json.loads(body)["response"]["allowed"]
                answered[0] += 1
                if not keep_alive or r.getheader("Connection") == "close":
                    conn.close()
                    conn = None
            except Exception as e:  # noqa: BLE001 - a request sent and not answered.
                lost.append(repr(e))
                return

    threads = [threading.Thread(target=load, args=(k,)) for k in (True, True, False, False)]
    for t in threads:
        t.start()
    time.sleep(1)
    # A request in flight: headers and half of the body sent before SIGTERM.
    body = json.dumps(review(SIMPLE)).encode()
    raw = socket.create_connection(("127.0.0.1", server.port))
    s = client_context().wrap_socket(raw, server_hostname="localhost")
    s.sendall(f"POST {VALIDATE} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:len(body) // 2])
    time.sleep(0.2)
    server.proc.send_signal(signal.SIGTERM)
    time.sleep(0.4)
    # Draining: not ready any more, still serving.
    assert server.health("/readyz")[0] == 503
    time.sleep(1.2)  # Past the shutdown delay: the port is closed now.
    s.sendall(body[len(body) // 2:])
    s.settimeout(10)
    reply = b""
    while b"\r\n\r\n" not in reply:
        chunk = s.recv(65536)
        assert chunk, reply
        reply += chunk
    head, _, payload = reply.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(payload) < length:
        chunk = s.recv(65536)
        assert chunk, payload
        payload += chunk
    s.close()  # As a client does after "Connection: close".
    assert head.startswith(b"HTTP/1.1 200"), reply[:200]
    assert b"Connection: close" in head, head
    assert json.loads(payload)["response"]["allowed"]
    code = server.proc.wait(20)
    stop.set()
    for t in threads:
        t.join(20)
    server.log_file.close()
    assert code == 0, code
    assert not lost, lost[:5]
    assert answered[0] > 20, answered
    msgs = [l.get("msg") for l in server.lines()]
    assert "shutting down" in msgs and msgs[-1] == "stopped", msgs[-3:]
    print(f"    {answered[0]} requests answered under load, in-flight request completed, exit 0")


# --- Latency ----------------------------------------------------------------------------------

@test
def latency_over_loopback_tls_keep_alive():
    server = Server()
    try:
        obj = objects_of(os.path.join(EXAMPLES, "training-fail-fast.yaml"))[0]["object"]
        body = os.path.join(TMP, "bench.json")
        with open(body, "w") as f:
            json.dump(review(obj), f)
        for path in (VALIDATE, MUTATE):
            out = json.loads(testtool("bench", "--port", str(server.port), "--cacert",
                                      PKI.path("ca.crt"), "--path", path, "--body", body,
                                      "-n", "2000"))
            print(f"    {path}: p50 {out['p50_us']:.0f} us, p90 {out['p90_us']:.0f} us, "
                  f"p99 {out['p99_us']:.0f} us, {out['requests_per_second']:.0f} req/s "
                  "(one connection, sequential)")
            assert out["p50_us"] < 20000, out
    finally:
        assert server.stop() == 0


# --- Runner -----------------------------------------------------------------------------------

def main():
    global PKI
    if TEST_SET not in ("own", "corpus"):
        print(f"unknown test set {TEST_SET!r}: own or corpus")
        return 2
    if TEST_SET == "corpus" and not os.path.isdir(CORPUS_EXAMPLES):
        print(f"SKIPPED: no upstream corpus at JOBSET_CORPUS_DIR='{CORPUS}': run `make corpus`, "
              "or configure with -DJOBSET_CORPUS_DIR=DIR")
        return 77
    PKI = Pki(os.path.join(TMP, "pki"))
    PKI.issue(PKI.ca, "server1", "localhost", 1)
    PKI.issue(PKI.ca, "server2", "localhost", 2)
    only = os.environ.get("WEBHOOK_TEST_ONLY")
    failed = []
    tests = TESTS if TEST_SET == "own" else CORPUS_TESTS
    for t in tests:
        if only and only not in t.__name__:
            continue
        start = time.time()
        print(f"--- {t.__name__}", flush=True)
        try:
            t()
            print(f"ok  {t.__name__} ({time.time() - start:.1f}s)", flush=True)
        except Exception:  # noqa: BLE001 - report and go on.
            failed.append(t.__name__)
            traceback.print_exc()
            print(f"FAIL {t.__name__}", flush=True)
    for server in Server.started:  # Whatever a failed test left running.
        server.kill()
    if failed:
        print(f"{len(failed)} failed: {', '.join(failed)}; logs in {TMP}")
        return 1
    shutil.rmtree(TMP, ignore_errors=True)
    print(f"all {len(tests)} webhook integration tests ({TEST_SET}) passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
