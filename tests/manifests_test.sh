#!/bin/sh
# Checks the deployment manifests: renders manifests/ with `kubectl kustomize`, turns the
# objects into JSON offline (`kubectl label --local`, no cluster needed) and asserts the
# settings the webhook's availability and security depend on. Also checks the Dockerfile.
# Skips (exit 77) without kubectl or python3.
#
# With BUILD_DIR (a build made as the Dockerfile makes it, no sanitizers), also checks that the
# runtime stage installs every shared library the built binaries need.
#
# Usage: tests/manifests_test.sh [SOURCE_DIR [BUILD_DIR]]   (default: the directory above this script)
set -eu
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
build=${2:-}
for tool in kubectl python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (needed to render and check manifests/)"
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! kubectl kustomize "$src/manifests" >"$tmp/rendered.yaml" 2>"$tmp/err"; then
  echo "FAIL - kubectl kustomize manifests/ failed:"
  cat "$tmp/err"
  echo "0 passed, 1 failed"
  exit 1
fi
# `label --local` parses every object (custom kinds too) without contacting a cluster;
# removing a label nobody has leaves the objects unchanged.
if ! kubectl label --local -f "$tmp/rendered.yaml" manifests-test- -o json >"$tmp/rendered.json" 2>"$tmp/err"; then
  echo "FAIL - rendered manifests do not parse as Kubernetes objects:"
  cat "$tmp/err"
  echo "0 passed, 1 failed"
  exit 1
fi
BUILD_DIR="$build" exec python3 - "$tmp/rendered.json" "$src" <<'PY'
import json, os, re, shutil, subprocess, sys

text = open(sys.argv[1]).read()
src = sys.argv[2]
decoder, i, objs = json.JSONDecoder(), 0, []
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    obj, i = decoder.raw_decode(text, i)
    objs.extend(obj["items"] if obj.get("kind") == "List" else [obj])

passed = failed = 0
def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok -", name)
    else:
        failed += 1
        print("FAIL -", name + (": " + str(detail) if detail != "" else ""))

def kinds(kind):
    return [o for o in objs if o["kind"] == kind]

def one(kind):
    found = kinds(kind)
    check(f"exactly one {kind}", len(found) == 1, len(found))
    return found[0] if found else {}

def get(o, *path, default=None):
    for p in path:
        if isinstance(o, dict) and p in o:
            o = o[p]
        elif isinstance(o, list) and isinstance(p, int) and p < len(o):
            o = o[p]
        else:
            return default
    return o

def selects(selector, labels):
    ml = (selector or {}).get("matchLabels", {})
    return bool(ml) and all(labels.get(k) == v for k, v in ml.items())

ns_obj = one("Namespace")
ns = get(ns_obj, "metadata", "name", default="")
check("namespace is not kube-system/default", ns not in ("", "kube-system", "default"), ns)
check("namespace enforces the restricted Pod Security Standard",
      get(ns_obj, "metadata", "labels", "pod-security.kubernetes.io/enforce") == "restricted")
cluster_scoped = {"Namespace", "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"}
stray = [o["kind"] + "/" + o["metadata"]["name"] for o in objs
         if o["kind"] not in cluster_scoped and o["metadata"].get("namespace") != ns]
check("every namespaced object is in the webhook's namespace", not stray, stray)

sa = one("ServiceAccount")
check("service account mounts no API token", sa.get("automountServiceAccountToken") is False)

# --- Deployment ---------------------------------------------------------------------------
dep = one("Deployment")
pod = get(dep, "spec", "template", default={})
pod_labels = get(pod, "metadata", "labels", default={})
spec = pod.get("spec", {})
check("Deployment replicas is 2", get(dep, "spec", "replicas") == 2, get(dep, "spec", "replicas"))
check("Deployment selector matches the pod labels", selects(get(dep, "spec", "selector"), pod_labels))
check("rolling update never drops below the desired replicas",
      get(dep, "spec", "strategy", "rollingUpdate", "maxUnavailable") == 0)
check("pod uses the service account", spec.get("serviceAccountName") == get(sa, "metadata", "name"))
terms = get(spec, "affinity", "podAntiAffinity",
            "preferredDuringSchedulingIgnoredDuringExecution", default=[])
check("preferred pod anti-affinity by hostname on its own pods",
      any(get(t, "podAffinityTerm", "topologyKey") == "kubernetes.io/hostname"
          and selects(get(t, "podAffinityTerm", "labelSelector"), pod_labels) for t in terms))
psc = spec.get("securityContext", {})
check("pod runAsNonRoot", psc.get("runAsNonRoot") is True)
check("pod runAsUser 65532", psc.get("runAsUser") == 65532, psc.get("runAsUser"))
check("pod seccompProfile RuntimeDefault", get(psc, "seccompProfile", "type") == "RuntimeDefault")
check("no host namespaces", not any(spec.get(k) for k in ("hostNetwork", "hostPID", "hostIPC")))
check("pod mounts no API token", spec.get("automountServiceAccountToken") is False)
containers = spec.get("containers", [])
check("one container", len(containers) == 1, len(containers))
c = containers[0] if containers else {}
check("image kubectl-jobset/jobset-webhook:v0.1.0",
      c.get("image") == "kubectl-jobset/jobset-webhook:v0.1.0", c.get("image"))
csc = c.get("securityContext", {})
check("container readOnlyRootFilesystem", csc.get("readOnlyRootFilesystem") is True)
check("container allowPrivilegeEscalation false", csc.get("allowPrivilegeEscalation") is False)
check("container not privileged", not csc.get("privileged"))
check("container drops ALL capabilities and adds none",
      get(csc, "capabilities", "drop") == ["ALL"] and not get(csc, "capabilities", "add"))
check("container runAsNonRoot (or inherits it)", csc.get("runAsNonRoot", psc.get("runAsNonRoot")) is True)
args = c.get("args", []) + c.get("command", [])
def flag(name):
    for i, a in enumerate(args):
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
        if a == name and i + 1 < len(args):
            return args[i + 1]
    return None
check("--tls-cert-file /certs/tls.crt", flag("--tls-cert-file") == "/certs/tls.crt", args)
check("--tls-private-key-file /certs/tls.key", flag("--tls-private-key-file") == "/certs/tls.key", args)
check("--port 9443", flag("--port") == "9443", args)
check("--health-port 8081", flag("--health-port") == "8081", args)
ports = {p.get("name"): p.get("containerPort") for p in c.get("ports", [])}
check("container ports 9443 and 8081", sorted(ports.values()) == [8081, 9443], ports)
def port_of(ref):
    return ports.get(ref) if isinstance(ref, str) else ref
for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
    p = c.get(probe, {})
    check(f"{probe} GET {path} on the health port",
          get(p, "httpGet", "path") == path and port_of(get(p, "httpGet", "port")) == 8081, p)
res = c.get("resources", {})
check("resource requests and limits for cpu and memory",
      all(get(res, k, r) for k in ("requests", "limits") for r in ("cpu", "memory")), res)
# A connection holds a thread and its allocator heap: about 0.4 MiB once it has served a
# request (webhook/README.md, Memory), on top of ~24 MiB. A flood of connections must not get
# the pod OOM-killed, so --max-connections has to fit under the memory limit.
def mib(q):
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024, "K": 1e3 / 2**20, "M": 1e6 / 2**20, "G": 1e9 / 2**20}
    for u in sorted(units, key=len, reverse=True):
        if str(q).endswith(u):
            return float(str(q)[: -len(u)]) * units[u]
    return float(q) / 2**20
max_connections = int(flag("--max-connections") or 1024)
limit = get(res, "limits", "memory")
check("--max-connections x 0.4 MiB + 24 MiB fits the memory limit",
      bool(limit) and 24 + 0.4 * max_connections <= mib(limit), (max_connections, limit))
mounts = [m for m in c.get("volumeMounts", []) if m.get("mountPath") == "/certs"]
check("certificates mounted at /certs read-only", len(mounts) == 1 and mounts[0].get("readOnly") is True)
check("certificate mount is not a subPath (rotation must reach the pod)",
      all("subPath" not in m and "subPathExpr" not in m for m in c.get("volumeMounts", [])))
vol = next((v for v in spec.get("volumes", []) if mounts and v.get("name") == mounts[0].get("name")), {})
cert_secret = get(vol, "secret", "secretName")
def duration_s(text):
    if not text:
        return 0
    return float(text[:-2]) / 1000 if text.endswith("ms") else float(text.rstrip("s"))
budget = duration_s(flag("--shutdown-delay")) + duration_s(flag("--shutdown-timeout"))
grace = spec.get("terminationGracePeriodSeconds", 30)
check("terminationGracePeriodSeconds covers the shutdown delay and timeout",
      "terminationGracePeriodSeconds" in spec and grace >= budget, (grace, budget))

# --- PodDisruptionBudget, Service, NetworkPolicy --------------------------------------------
pdb = one("PodDisruptionBudget")
check("PDB minAvailable 1", get(pdb, "spec", "minAvailable") == 1)
check("PDB selects the webhook pods", selects(get(pdb, "spec", "selector"), pod_labels))
svc = one("Service")
svc_ports = get(svc, "spec", "ports", default=[])
check("Service selects the webhook pods", selects({"matchLabels": get(svc, "spec", "selector", default={})}, pod_labels))
check("Service port 443 -> 9443",
      any(p.get("port") == 443 and port_of(p.get("targetPort")) == 9443 for p in svc_ports), svc_ports)
np = one("NetworkPolicy")
check("NetworkPolicy selects the webhook pods", selects(get(np, "spec", "podSelector"), pod_labels))
ingress_ports = {p.get("port") for r in get(np, "spec", "ingress", default=[]) for p in r.get("ports", [])}
check("NetworkPolicy admits 9443 and 8081", {9443, 8081} <= {port_of(p) for p in ingress_ports}, ingress_ports)
check("NetworkPolicy denies all egress",
      "Egress" in get(np, "spec", "policyTypes", default=[]) and not get(np, "spec", "egress"))

# --- cert-manager ---------------------------------------------------------------------------
issuers = {get(o, "metadata", "name"): o for o in kinds("Issuer")}
certs = {get(o, "metadata", "name"): o for o in kinds("Certificate")}
serving = next((o for o in certs.values() if get(o, "spec", "secretName") == cert_secret), {})
check("a Certificate writes the mounted Secret", bool(serving), cert_secret)
svc_name = get(svc, "metadata", "name")
check("serving certificate names <svc>.<ns>.svc and .svc.cluster.local",
      {f"{svc_name}.{ns}.svc", f"{svc_name}.{ns}.svc.cluster.local"} <= set(get(serving, "spec", "dnsNames", default=[])),
      get(serving, "spec", "dnsNames"))
ca_issuer = issuers.get(get(serving, "spec", "issuerRef", "name"), {})
check("serving certificate is signed by a CA Issuer", bool(get(ca_issuer, "spec", "ca", "secretName")))
ca_cert = next((o for o in certs.values()
                if get(o, "spec", "secretName") == get(ca_issuer, "spec", "ca", "secretName")), {})
check("the CA Issuer's Secret comes from an isCA Certificate", get(ca_cert, "spec", "isCA") is True)
check("the CA Certificate is self-signed",
      "selfSigned" in get(issuers.get(get(ca_cert, "spec", "issuerRef", "name"), {}), "spec", default={}))

# --- Webhook configurations -----------------------------------------------------------------
expected = [
    ("ValidatingWebhookConfiguration", "jobset-lint-validating-webhook-configuration",
     "/validate-jobset-x-k8s-io-v1alpha2-jobset", ["CREATE", "UPDATE"], "jobset.x-k8s.io",
     "v1alpha2", "jobsets"),
    ("MutatingWebhookConfiguration", "jobset-lint-mutating-webhook-configuration",
     "/mutate-jobset-x-k8s-io-v1alpha2-jobset", ["CREATE"], "jobset.x-k8s.io", "v1alpha2",
     "jobsets"),
    # Volcano Jobs: the upstream Volcano paths and rules, the same Service.
    ("ValidatingWebhookConfiguration", "jobset-lint-volcano-validating-webhook-configuration",
     "/jobs/validate", ["CREATE", "UPDATE"], "batch.volcano.sh", "v1alpha1", "jobs"),
    ("MutatingWebhookConfiguration", "jobset-lint-volcano-mutating-webhook-configuration",
     "/jobs/mutate", ["CREATE"], "batch.volcano.sh", "v1alpha1", "jobs"),
]
for kind in ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"):
    check(f"two {kind}s (JobSet, Volcano Job)", len(kinds(kind)) == 2, len(kinds(kind)))
for kind, cfg_name, path, ops, group, version, resource in expected:
    cfg = next((o for o in kinds(kind) if get(o, "metadata", "name") == cfg_name), {})
    short = kind.replace("WebhookConfiguration", "") + " " + resource
    check(f"{short}: {cfg_name} exists", bool(cfg))
    check(f"{short}: cert-manager CA injection from the serving Certificate",
          get(cfg, "metadata", "annotations", "cert-manager.io/inject-ca-from")
          == f"{ns}/{get(serving, 'metadata', 'name')}")
    hooks = cfg.get("webhooks", [])
    check(f"{short}: one webhook", len(hooks) == 1, len(hooks))
    h = hooks[0] if hooks else {}
    check(f"{short}: name is fully qualified", h.get("name", "").count(".") >= 2, h.get("name"))
    svc_ref = get(h, "clientConfig", "service", default={})
    check(f"{short}: path {path}", svc_ref.get("path") == path, svc_ref.get("path"))
    check(f"{short}: calls the Service on 443",
          svc_ref.get("name") == svc_name and svc_ref.get("namespace") == ns
          and svc_ref.get("port", 443) == 443, svc_ref)
    check(f"{short}: no hard-coded caBundle", "caBundle" not in h.get("clientConfig", {}))
    check(f"{short}: sideEffects None", h.get("sideEffects") == "None", h.get("sideEffects"))
    check(f"{short}: admissionReviewVersions [v1]", h.get("admissionReviewVersions") == ["v1"])
    check(f"{short}: failurePolicy Fail", h.get("failurePolicy") == "Fail", h.get("failurePolicy"))
    check(f"{short}: timeoutSeconds set and small (<= 5)",
          isinstance(h.get("timeoutSeconds"), int) and 1 <= h["timeoutSeconds"] <= 5, h.get("timeoutSeconds"))
    check(f"{short}: matchPolicy Equivalent", h.get("matchPolicy") == "Equivalent")
    rules = h.get("rules", [])
    check(f"{short}: rules {'+'.join(ops)} {group}/{version} {resource}",
          len(rules) == 1 and rules[0].get("apiGroups") == [group]
          and rules[0].get("apiVersions") == [version] and rules[0].get("resources") == [resource]
          and sorted(rules[0].get("operations", [])) == ops, rules)
    excluded = set()
    for e in get(h, "namespaceSelector", "matchExpressions", default=[]):
        if e.get("key") == "kubernetes.io/metadata.name" and e.get("operator") == "NotIn":
            excluded |= set(e.get("values", []))
    check(f"{short}: namespaceSelector leaves out kube-system and {ns}",
          {"kube-system", ns} <= excluded, excluded)

# --- Dockerfile -----------------------------------------------------------------------------
try:
    lines = [l.strip() for l in open(os.path.join(src, "Dockerfile")) if l.strip() and not l.lstrip().startswith("#")]
except OSError:
    lines = []
froms = [l for l in lines if l.upper().startswith("FROM ")]
check("Dockerfile is multi-stage on Debian bookworm",
      len(froms) >= 2 and all("debian:bookworm" in l for l in froms), froms)
users = [l for l in lines if l.upper().startswith("USER ")]
check("Dockerfile runs as 65532", bool(users) and users[-1].split()[1].split(":")[0] == "65532", users)
check("Dockerfile entrypoint is jobset-webhook",
      any(l.upper().startswith("ENTRYPOINT") and "jobset-webhook" in l for l in lines))

# The runtime stage must install the package of every shared library the binaries need (the
# image cannot be built here: no Docker engine). bookworm-slim already has libc6, libstdc++6
# and libgcc-s1.
build = os.environ.get("BUILD_DIR", "")
binaries = [os.path.join(build, p) for p in ("webhook/jobset-webhook", "kubectl-jobset")]
if build and all(os.path.exists(b) for b in binaries) and shutil.which("readelf") and shutil.which("dpkg"):
    text = open(os.path.join(src, "Dockerfile")).read().replace("\\\n", " ")
    runtime = re.split(r"(?m)^FROM ", text)[-1]
    m = re.search(r"apt-get install[^&]*?--no-install-recommends([^&]*)&&", runtime)
    installed = set(m.group(1).split()) if m else set()
    base = {"libc6", "libstdc++6", "libgcc-s1"}
    missing = []
    for b in binaries:
        dyn = subprocess.run(["readelf", "-d", b], capture_output=True, text=True).stdout
        for soname in re.findall(r"\(NEEDED\).*\[(.+)\]", dyn):
            owner = subprocess.run(["dpkg", "-S", "*/" + soname], capture_output=True, text=True)
            # The native package (libc6, not libc6-i386 for /lib32).
            pkgs = {line.split(":")[0] for line in owner.stdout.splitlines()
                    if re.search(r"/lib/[a-z0-9_]+-linux-gnu/", line)}
            if not pkgs & (installed | base):
                missing.append(f"{os.path.basename(b)} needs {soname} ({', '.join(sorted(pkgs)) or 'no package'})")
    check("Dockerfile's runtime stage installs every library the binaries need", not missing, missing)
    check("jobset-webhook runs on mimalloc", "libmimalloc" in subprocess.run(
        ["readelf", "-d", binaries[0]], capture_output=True, text=True).stdout)
    check("kubectl-jobset is a static executable", "NEEDED" not in subprocess.run(
        ["readelf", "-d", binaries[1]], capture_output=True, text=True).stdout)
else:
    print("SKIP - runtime libraries of the image: no BUILD_DIR with both binaries, or no readelf/dpkg")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
