#!/usr/bin/env bash
# Snapshots everything the CLI and the webhook print for the repository's inputs, one file per
# (command, input, format) holding the command, its stdout, its stderr and its exit status, so
# that two builds can be compared byte for byte (tests/compare_outputs.sh). The tool for
# behaviour-preserving restructurings; not a ctest entry (it needs two builds).
#
# Usage: tests/output_snapshot.sh [--source DIR] BUILD_DIR OUT_DIR [CORPUS_DIR]
#
#   BUILD_DIR   a build tree holding kubectl-jobset, jobset-webhook and jobset-webhook-testtool
#   OUT_DIR     created (must not exist or be empty); the snapshot goes there
#   CORPUS_DIR  the upstream corpus (jobset/, volcano/, frameworkcontroller/; `make corpus`);
#               skipped when not given or absent
#   --source    where examples/, tests/fixtures/, tests/golden/ and tests/webhook/ are read
#               (default: the repository holding this script)
#
# Inputs: every file of examples/ and tests/fixtures/, the webhook cases of tests/webhook/, the
# manifests of the corpus. Commands: lint in every output format (also to files), --diff, --fix
# (on a copy and on stdin), --list-rules, explain in every format, simulate (with every
# scenario file, Monte Carlo at a fixed seed and a small run count, with the node check, a
# chart), netcheck plan and diagnose, every help page, the completion scripts and answers, the
# golden cases of tests/golden; the webhook's answers to validating and mutating AdmissionReviews
# of every JobSet and Volcano Job (with and without feature gates) and to malformed requests.
#
# Stable by construction: the inputs are copied to a scratch folder and every command runs there
# with relative paths, the binaries are called by their names from PATH (argv[0] is the same for
# both builds), NO_COLOR is set and stdin is /dev/null unless a case feeds it. The uids of the
# AdmissionReviews are derived from the input's path, and the webhook echoes them.
# Normalised, because they legitimately change from run to run (and nothing else is):
#   - the scratch folder's absolute path, replaced by <tmp> in everything recorded;
#   - in the webhook's log: the time stamp (ts), the request latency (latency_ms), the ports
#     (port, healthPort: free ports chosen at start) and the throwaway certificate's serial and
#     expiry (serial, notAfter); of /metrics only the request counters are kept (the histograms
#     and the certificate expiry are timings and dates).
set -euo pipefail

usage() {
  echo "usage: $0 [--source DIR] BUILD_DIR OUT_DIR [CORPUS_DIR]" >&2
  exit 2
}

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
while [ $# -gt 0 ]; do
  case $1 in
    --source) [ $# -ge 2 ] || usage; source_dir=$(cd "$2" && pwd); shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) usage ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
build_dir=$(cd "$1" && pwd)
out_dir=$2
corpus_dir=${3:-}

for tool in openssl curl python3 timeout; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: $tool is not installed (needed for the snapshot)" >&2
    exit 2
  fi
done

# The binaries, where the build puts them.
find_binary() {
  local name=$1 path
  for path in "$build_dir/$name" "$build_dir/webhook/$name"; do
    if [ -x "$path" ]; then
      echo "$path"
      return
    fi
  done
  echo "error: no $name in $build_dir (build it first)" >&2
  exit 2
}
cli=$(find_binary kubectl-jobset)
webhook=$(find_binary jobset-webhook)
testtool=$(find_binary jobset-webhook-testtool)

if [ -e "$out_dir" ] && [ -n "$(ls -A "$out_dir")" ]; then
  echo "error: $out_dir exists and is not empty" >&2
  exit 2
fi
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)

scratch=$(mktemp -d "${TMPDIR:-/tmp}/output-snapshot.XXXXXX")
webhook_pids=()
cleanup() {
  local pid
  for pid in "${webhook_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$scratch"
}
trap cleanup EXIT

# The binaries by name, so that argv[0] (in usage lines) does not name the build folder.
mkdir -p "$scratch/bin"
ln -s "$cli" "$scratch/bin/kubectl-jobset"
ln -s "$cli" "$scratch/bin/kubectl_complete-jobset"
ln -s "$webhook" "$scratch/bin/jobset-webhook"
ln -s "$testtool" "$scratch/bin/jobset-webhook-testtool"
export PATH="$scratch/bin:$PATH"
export NO_COLOR=1 LC_ALL=C TZ=UTC

# The inputs, copied: the commands run in src/ (--fix in fix/, a second copy restored after
# each run), so nothing is written into the source tree and paths read the same for both builds.
copy_tree() {  # FROM TO: without .git folders
  mkdir -p "$2"
  tar -C "$1" --exclude=.git -cf - . | tar -C "$2" -xf -
}
src="$scratch/src"
for d in examples tests/fixtures tests/golden tests/webhook; do
  copy_tree "$source_dir/$d" "$src/$d"
done
corpus_inputs=()
if [ -n "$corpus_dir" ] && [ -d "$corpus_dir" ]; then
  copy_tree "$corpus_dir" "$src/corpus"
  cd "$src"
  mapfile -t corpus_inputs < <(find corpus -type f \( -name '*.yaml' -o -name '*.yml' \
    -o -name '*.json' \) | sort)
elif [ -n "$corpus_dir" ]; then
  echo "note: no corpus at $corpus_dir, skipping it" >&2
fi
copy_tree "$src" "$scratch/fix"
cd "$src"

mapfile -t own_inputs < <(find examples tests/fixtures -type f | sort)
mapfile -t webhook_cases < <(find tests/webhook -type f -name '*.yaml' | sort)
all_inputs=("${own_inputs[@]}" "${webhook_cases[@]}" "${corpus_inputs[@]}")
# The manifests (what simulate and explain are about), and the scenario files.
manifests=()
for f in "${all_inputs[@]}"; do
  case $f in
    *scenario*) ;;
    *.yaml | *.yml | *.json) manifests+=("$f") ;;
  esac
done
mapfile -t scenarios < <(find examples tests/fixtures -type f -name '*scenario*.yaml' | sort)
mapfile -t example_manifests < <(find examples -type f -name '*.yaml' ! -name '*scenario*' \
  ! -name '.*' | sort)

count=0
stdout_file="$scratch/stdout"
stderr_file="$scratch/stderr"

# record NAME STDIN LABEL CMD...: runs CMD in the current folder with STDIN, and writes
# OUT_DIR/NAME: "$ LABEL", stdout, stderr, the exit status (scratch paths as <tmp>).
record() {
  local name=$1 stdin=$2 label=$3 status=0
  shift 3
  mkdir -p "$(dirname "$out_dir/$name")"
  timeout 120 "$@" <"$stdin" >"$stdout_file" 2>"$stderr_file" || status=$?
  {
    printf '$ %s\n--- stdout\n' "$label"
    cat "$stdout_file"
    printf '\n--- stderr\n'
    cat "$stderr_file"
    printf '\n--- exit %s\n' "$status"
  } | sed "s#$scratch#<tmp>#g" >"$out_dir/$name"
  count=$((count + 1))
}

# record_file NAME FILE: records a file a command wrote ("(not written)" when absent), and
# removes it, so that the next command starts without it.
record_file() {
  local name=$1 file=$2
  if [ -f "$file" ]; then
    record "$name" "$file" "cat $(basename "$file")" cat
    rm -f "$file"
  else
    record "$name" /dev/null "cat $(basename "$file") (not written)" true
  fi
}

# cli NAME [--stdin FILE] ARGS...: records kubectl-jobset ARGS.
cli() {
  local name=$1 stdin=/dev/null
  shift
  if [ "${1:-}" = --stdin ]; then
    stdin=$2
    shift 2
  fi
  record "cli/$name" "$stdin" "kubectl-jobset $*" kubectl-jobset "$@"
}

# --- lint -----------------------------------------------------------------------------------
formats=(text json sarif github junit)
for f in "${all_inputs[@]}"; do
  for fmt in "${formats[@]}"; do cli "lint-$fmt/$f" lint -o "$fmt" "$f"; done
  cli "lint-fail-on-info/$f" lint --fail-on info "$f"
  cli "lint-gates/$f" lint --feature-gates RestartJob=true,InPlaceRestart=true,ElasticJobSet=true "$f"
  cli "lint-diff/$f" lint --diff "$f"
  cli "lint-fix-stdin/$f" --stdin "$f" lint --fix -
  cli "lint-fix-stdin-json/$f" --stdin "$f" lint --fix -o json="$scratch/report.json" -
  record_file "cli/lint-fix-stdin-json/$f.report" "$scratch/report.json"
  cli "lint-stdin-sarif/$f" --stdin "$f" lint -o sarif -
  # --fix in place, on the copy: the report, then the file it left.
  cd "$scratch/fix"
  cli "lint-fix/$f" lint --fix "$f"
  if [ -f "$f" ]; then
    record "cli/lint-fix/$f.after" "$f" "cat $f (after lint --fix)" cat
    cp "$src/$f" "$f"
  fi
  cd "$src"
done
for dir in examples tests/fixtures tests/webhook ${corpus_inputs:+corpus}; do
  for fmt in "${formats[@]}"; do cli "lint-dir-$fmt/$dir" lint -R -o "$fmt" "$dir"; done
  cli "lint-dir-not-recursive/$dir" lint "$dir"
  cli "lint-dir-diff/$dir" lint -R --diff "$dir"
  cli "lint-dir-fail-if-none/$dir" lint -R --fail-if-no-objects-found --exclude '*.yaml' "$dir"
done
# Several outputs at once, to files.
mkdir -p "$scratch/reports"
cd "$scratch/reports"
record cli/lint-to-files/command /dev/null \
  "kubectl-jobset lint -R -o text -o json=lint.json -o sarif=lint.sarif -o github=lint.txt -o junit=lint.xml ../src/examples" \
  kubectl-jobset lint -R -o text -o json=lint.json -o sarif=lint.sarif -o github=lint.txt \
  -o junit=lint.xml ../src/examples
cd "$src"
for report in lint.json lint.sarif lint.txt lint.xml; do
  record_file "cli/lint-to-files/$report" "$scratch/reports/$report"
done
cli lint-list-rules/text lint --list-rules
cli lint-list-rules/json lint --list-rules -o json
cli lint-config/bad lint --config tests/fixtures/bad-config.yaml examples
cli lint-config/crd-missing lint --crd does-not-exist.yaml examples
for crd in $(printf '%s\n' "${corpus_inputs[@]}" | grep -i 'crd' || true); do
  cli "lint-crd/$crd" lint -R --crd "$crd" examples
done

# --- explain --------------------------------------------------------------------------------
for f in "${manifests[@]}"; do
  for fmt in text json markdown; do cli "explain-$fmt/$f" explain -o "$fmt" "$f"; done
  cli "explain-gates/$f" explain --feature-gates RestartJob=true "$f"
done
cli explain-stdin/training-fail-fast --stdin examples/training-fail-fast.yaml explain -
cli explain-missing/does-not-exist explain does-not-exist.yaml

# --- simulate -------------------------------------------------------------------------------
mc=(--monte-carlo --runs 100 --seed 7 --node-mttf 720h --run-time 72h)
for f in "${manifests[@]}"; do
  cli "simulate-mc-text/$f" simulate "${mc[@]}" "$f"
  cli "simulate-mc-json/$f" simulate "${mc[@]}" -o json "$f"
done
for f in "${example_manifests[@]}"; do
  for s in "${scenarios[@]}"; do
    for fmt in text json; do
      cli "simulate-scenario-$fmt/$f/$(basename "$s")" simulate -o "$fmt" "$f" --scenario "$s"
    done
  done
  cli "simulate-mc-node-check/$f" simulate "${mc[@]}" --nodes 200 --arrive-faulty 0.01 \
    --node-check 3m --node-check-miss 0.05 --checkpoint-interval 2h "$f"
  cli "simulate-mc-scenario/$f" simulate --monte-carlo --runs 100 --seed 3 \
    --scenario tests/fixtures/node-check-scenario.yaml "$f"
done
# Two policies side by side, with the chart (its SVG recorded too).
cli simulate-mc-compare/text simulate "${mc[@]}" --nodes 2000 --node-mttf 8760h \
  --plot "$scratch/cost.svg" examples/failure-policies/1-fail-fast-restart-on-maintenance.yaml \
  examples/failure-policies/3-unlimited-on-maintenance.yaml
record_file cli/simulate-mc-compare/cost.svg "$scratch/cost.svg"
cli simulate-mc-compare/json simulate "${mc[@]}" -o json --nodes 2000 --node-mttf 8760h \
  examples/failure-policies/1-fail-fast-restart-on-maintenance.yaml \
  examples/failure-policies/3-unlimited-on-maintenance.yaml
cli simulate-mc-framework-mix/tensorflow simulate "${mc[@]}" \
  --fault-mix PodEvicted=0.8,exit=137/OOMKilled=0.1,1=0.1 examples/framework/tensorflow.yaml
cli simulate-mc-volcano-mix/mpi simulate "${mc[@]}" \
  --fault-mix PodEvicted=0.5,PodFailed:143=0.3,PodFailed:139=0.2 \
  examples/volcano/2-mpi-exit-codes.yaml

# --- netcheck -------------------------------------------------------------------------------
for f in $(find examples tests/fixtures -type f -name '*.log' | sort); do
  for fmt in text json; do cli "netcheck-diagnose-$fmt/$f" netcheck diagnose -o "$fmt" "$f"; done
  cli "netcheck-diagnose-stdin/$f" --stdin "$f" netcheck diagnose -
done
cli netcheck-diagnose-missing/does-not-exist netcheck diagnose does-not-exist.log
cli netcheck-diagnose-not-a-log/training-fail-fast netcheck diagnose examples/training-fail-fast.yaml
plans=(
  "--nodes 1" "--nodes 2" "--nodes 3" "--nodes 8" "--nodes 9" "--nodes 64"
  "--nodes 8 --times 2=3600,3=3600,5=45.2,0=20.1"
  "--nodes 8 --times 4=3600,5=3600,2=48.301,3=48.296,1=20.087"
  "--nodes 8 --node-groups 4" "--nodes 8 --node-groups 0-3/4-7 --times 5=3600,4=3600"
  "--nodes 16 --node-groups 4 --times 1=3600,6=3600,9=40" "--nodes 4 --times 9=20"
  "--nodes 0" "--nodes 8 --node-groups 3" "--nodes 8 --times x"
)
for p in "${plans[@]}"; do
  # shellcheck disable=SC2086 # the flags are words
  for fmt in text json; do cli "netcheck-plan-$fmt/${p// /_}" netcheck plan $p -o "$fmt"; done
done

# --- help, version, completion --------------------------------------------------------------
commands=("" lint explain simulate netcheck "netcheck plan" "netcheck diagnose" version help
  completion)
for c in "${commands[@]}"; do
  key=${c// /_}
  # shellcheck disable=SC2086 # the command words
  cli "help/${key:-root}--help" $c --help
  # shellcheck disable=SC2086
  cli "help/${key:-root}-h" $c -h
  # shellcheck disable=SC2086
  cli "help/help_${key:-root}" help $c
done
cli help/none
cli help/unknown-command lnit
cli help/unknown-subcommand netcheck plna
cli help/help-unknown help lnit
cli help/unknown-flag lint --bogus
cli version/text version
cli version/json version -o json
cli version/flag --version
for shell in bash zsh fish kubectl powershell; do cli "completion/$shell" completion "$shell"; done
completions=(
  "" "l" "lint " "lint -" "lint --" "lint -o " "lint --output=" "lint --fail-on " "lint --color "
  "lint --feature-gates " "lint --feature-gates RestartJob=" "lint exa" "explain -o "
  "simulate --" "simulate --fail " "simulate -o " "netcheck " "netcheck plan --" "help "
  "help netcheck " "completion " "version -o " "nope "
)
for c in "${completions[@]}"; do
  read -r -a words <<<"$c"
  [[ $c == *" " || -z $c ]] && words+=("")
  key=${c// /_}
  key=${key:-(nothing)}
  cli "complete/$key" __complete "${words[@]}"
  cli "complete-nodesc/$key" __completeNoDesc "${words[@]}"
  record "cli/complete-kubectl/$key" /dev/null "kubectl_complete-jobset $c" \
    kubectl_complete-jobset "${words[@]}"
done

# --- the golden cases -----------------------------------------------------------------------
for args_file in tests/golden/*.args; do
  name=$(basename "${args_file%.args}")
  read -r -a args <"$args_file"
  stdin=/dev/null
  [ -f "tests/golden/$name.stdin" ] && stdin=tests/golden/$name.stdin
  cli "golden/$name" --stdin "$stdin" "${args[@]}"
done

# --- the webhook ----------------------------------------------------------------------------
pki="$scratch/pki"
mkdir -p "$pki"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$pki/server.key" \
  -out "$pki/server.crt" 2>/dev/null

# start_webhook LOG FLAGS...: starts jobset-webhook on free loopback ports; sets port and
# health_port once it serves and is ready.
start_webhook() {
  local log=$1 deadline
  shift
  jobset-webhook --tls-cert-file "$pki/server.crt" --tls-private-key-file "$pki/server.key" \
    --port 0 --health-port 0 --bind-address 127.0.0.1 --health-bind-address 127.0.0.1 "$@" \
    2>"$log" &
  webhook_pid=$!
  webhook_pids+=("$webhook_pid")
  deadline=$((SECONDS + 20))
  port=""
  while [ -z "$port" ]; do
    [ $SECONDS -lt $deadline ] || { echo "error: the webhook did not start: $(cat "$log")" >&2; exit 1; }
    kill -0 "$webhook_pid" 2>/dev/null || { echo "error: the webhook exited: $(cat "$log")" >&2; exit 1; }
    sleep 0.05
    port=$(sed -n 's/.*"msg":"serving".*"port":\([0-9]*\).*/\1/p' "$log")
  done
  health_port=$(sed -n 's/.*"msg":"serving".*"healthPort":\([0-9]*\).*/\1/p' "$log")
  until curl -sf "http://127.0.0.1:$health_port/readyz" >/dev/null; do
    [ $SECONDS -lt $deadline ] || { echo "error: the webhook is not ready" >&2; exit 1; }
    sleep 0.05
  done
}

# stop_webhook NAME LOG: records the request counters, stops the server (SIGTERM), records its
# exit status and its log, normalised (see the top of this file).
stop_webhook() {
  local name=$1 log=$2 status=0
  curl -s "http://127.0.0.1:$health_port/metrics" | grep '^jobset_webhook_requests_total' \
    >"$scratch/counters" || true
  record "webhook/$name/metrics-requests-total" "$scratch/counters" "GET /metrics (counters)" cat
  kill -TERM "$webhook_pid"
  wait "$webhook_pid" || status=$?
  printf '%s\n' "$status" >"$scratch/status"
  record "webhook/$name/exit-status" "$scratch/status" "jobset-webhook exit status" cat
  record "webhook/$name/log" "$log" "jobset-webhook log (normalised)" python3 -c '
import json, sys
for line in sys.stdin:
    try:
        entry = json.loads(line)
    except ValueError:
        sys.stdout.write("not JSON: " + line)
        continue
    for key in ("ts", "latency_ms", "port", "healthPort", "serial", "notAfter"):
        entry.pop(key, None)
    print(json.dumps(entry))
'
}

# post NAME PATH BODY_FILE [CONTENT_TYPE [METHOD]]: records the answer to one request.
post() {
  local name=$1 path=$2 body=$3 type=${4:-application/json} method=${5:-POST}
  record "webhook/$name" /dev/null "$method $path $(basename "$body")" \
    curl -sk -X "$method" -H "Content-Type: $type" --data-binary "@$body" \
    -w '\n--- HTTP %{http_code} %{content_type}' "https://127.0.0.1:$port$path"
}

jobset_validate=/validate-jobset-x-k8s-io-v1alpha2-jobset
jobset_mutate=/mutate-jobset-x-k8s-io-v1alpha2-jobset
volcano_validate=/jobs/validate
volcano_mutate=/jobs/mutate
bodies="$scratch/bodies"
mkdir -p "$bodies/jobset" "$bodies/volcano"

# The objects of every input (the testtool reads YAML as lint does), as AdmissionReviews:
# CREATE, UPDATE to itself, DELETE. uid: the input's path and the object's place in it.
for f in "${all_inputs[@]}"; do
  record "webhook/objects/jobset/$f" /dev/null "jobset-webhook-testtool objects $f" \
    jobset-webhook-testtool objects "$f"
  cp "$stdout_file" "$bodies/jobset/$(printf '%s' "$f" | tr / %)"
  record "webhook/objects/volcano/$f" /dev/null "jobset-webhook-testtool objects --volcano $f" \
    jobset-webhook-testtool objects --volcano "$f"
  cp "$stdout_file" "$bodies/volcano/$(printf '%s' "$f" | tr / %)"
done
python3 - "$bodies" <<'EOF'
import json, os, sys

root = sys.argv[1]
KINDS = {
    "jobset": ({"group": "jobset.x-k8s.io", "version": "v1alpha2", "kind": "JobSet"},
               {"group": "jobset.x-k8s.io", "version": "v1alpha2", "resource": "jobsets"}),
    "volcano": ({"group": "batch.volcano.sh", "version": "v1alpha1", "kind": "Job"},
                {"group": "batch.volcano.sh", "version": "v1alpha1", "resource": "jobs"}),
}


def review(kind, uid, operation, obj, old=None, version="admission.k8s.io/v1", **extra):
    gvk, gvr = KINDS[kind]
    name = obj.get("metadata", {}).get("name", "") if isinstance(obj, dict) else ""
    req = {"uid": uid, "kind": gvk, "resource": gvr, "requestKind": gvk, "name": name,
           "namespace": "default", "operation": operation, "userInfo": {"username": "snapshot"},
           "object": obj, "oldObject": old, "dryRun": False}
    req.update(extra)
    return {"apiVersion": version, "kind": "AdmissionReview", "request": req}


for kind in KINDS:
    folder = os.path.join(root, kind)
    for listing in sorted(os.listdir(folder)):
        with open(os.path.join(folder, listing)) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        for i, entry in enumerate(lines):
            obj = entry["object"]
            uid = f"{listing.replace('%', '/')}#{entry['document']}.{i}"
            out = os.path.join(root, "reviews", kind, f"{listing}.{entry['document']}.{i}")
            os.makedirs(out, exist_ok=True)
            bodies = {
                "create": review(kind, uid, "CREATE", obj),
                "update-self": review(kind, uid, "UPDATE", obj, obj),
                "delete": review(kind, uid, "DELETE", None, obj),
                "create-v1beta1": review(kind, uid, "CREATE", obj,
                                         version="admission.k8s.io/v1beta1"),
            }
            for name, body in bodies.items():
                with open(os.path.join(out, name + ".json"), "w") as f:
                    json.dump(body, f)

# Malformed and odd requests.
bad = os.path.join(root, "bad")
os.makedirs(bad, exist_ok=True)
simple = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
          "metadata": {"name": "simple", "namespace": "default"},
          "spec": {"replicatedJobs": [{"name": "w", "replicas": 1, "template": {"spec": {
              "template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}}}}}]}}
pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
       "spec": {"containers": [{"name": "c", "image": "busybox"}]}}
cases = {
    "not-json": b"this is not json",
    "empty": b"",
    "json-array": b"[]",
    "configmap": json.dumps({"apiVersion": "v1", "kind": "ConfigMap"}).encode(),
    "no-request": json.dumps({"apiVersion": "admission.k8s.io/v1",
                              "kind": "AdmissionReview"}).encode(),
    "bad-api-version": json.dumps(dict(review("jobset", "u-1", "CREATE", simple),
                                       apiVersion="admission.k8s.io/v2")).encode(),
    "object-not-a-map": json.dumps(review("jobset", "u-2", "CREATE",
                                          ["not", "an", "object"])).encode(),
    "update-without-old": json.dumps(review("jobset", "u-3", "UPDATE", simple)).encode(),
    "pod-kind": json.dumps(dict(review("jobset", "u-4", "CREATE", pod), request=dict(
        review("jobset", "u-4", "CREATE", pod)["request"],
        kind={"group": "", "version": "v1", "kind": "Pod"}))).encode(),
    "status-subresource": json.dumps(review("jobset", "u-5", "UPDATE", simple, simple,
                                            subResource="status")).encode(),
    "connect": json.dumps(review("jobset", "u-6", "CONNECT", simple)).encode(),
    "no-uid": json.dumps(review("jobset", "", "CREATE", simple)).encode(),
    "truncated": json.dumps(review("jobset", "u-7", "CREATE", simple)).encode()[:-20],
    "nested-deep": (b'{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":'
                    b'{"uid":"u-8","object":' + b"[" * 5000 + b"]" * 5000 + b"}}"),
    "too-large": b'{"pad":"' + b"x" * (8 << 20) + b'"}',
    "simple": json.dumps(review("jobset", "u-9", "CREATE", simple)).encode(),
}
for name, data in cases.items():
    with open(os.path.join(bad, name + ".json"), "wb") as f:
        f.write(data)
EOF

# post_reviews SERVER KIND VALIDATE MUTATE: every review of KIND to both paths.
post_reviews() {
  local server=$1 kind=$2 validate=$3 mutate=$4 dir body key
  for dir in $(find "$bodies/reviews/$kind" -mindepth 1 -maxdepth 1 -type d | sort); do
    key=$(basename "$dir" | tr % /)
    for body in "$dir"/*.json; do
      post "$server/$kind-validate/$key/$(basename "$body" .json)" "$validate" "$body"
      post "$server/$kind-mutate/$key/$(basename "$body" .json)" "$mutate" "$body"
    done
  done
}

start_webhook "$scratch/webhook-default.log"
post_reviews default jobset "$jobset_validate" "$jobset_mutate"
post_reviews default volcano "$volcano_validate" "$volcano_mutate"
for body in "$bodies"/bad/*.json; do
  for path in "$jobset_validate" "$jobset_mutate" "$volcano_validate" "$volcano_mutate"; do
    post "default/malformed/$(basename "$body" .json)/${path//\//_}" "$path" "$body"
  done
done
post default/malformed/content-type-text "$jobset_validate" "$bodies/bad/simple.json" text/plain
post default/malformed/no-content-type "$jobset_validate" "$bodies/bad/simple.json" ""
post default/malformed/unknown-path /nope "$bodies/bad/simple.json"
post default/malformed/query "$jobset_validate?timeout=10s" "$bodies/bad/simple.json"
post default/malformed/method-put "$jobset_validate" "$bodies/bad/simple.json" \
  application/json PUT
record webhook/default/malformed/method-get /dev/null "GET $jobset_validate" \
  curl -sk -w '\n--- HTTP %{http_code} %{content_type}' "https://127.0.0.1:$port$jobset_validate"
for path in /healthz /readyz /nope; do
  record "webhook/default/health/${path#/}" /dev/null "GET health $path" \
    curl -s -w '\n--- HTTP %{http_code} %{content_type}' "http://127.0.0.1:$health_port$path"
done
stop_webhook default "$scratch/webhook-default.log"

start_webhook "$scratch/webhook-gates.log" --feature-gates \
  RestartJob=true,InPlaceRestart=true,ElasticJobSet=true
post_reviews gates jobset "$jobset_validate" "$jobset_mutate"
stop_webhook gates "$scratch/webhook-gates.log"

record webhook/flags/help /dev/null "jobset-webhook --help" jobset-webhook --help
record webhook/flags/version /dev/null "jobset-webhook --version" jobset-webhook --version
record webhook/flags/no-cert /dev/null "jobset-webhook" jobset-webhook
record webhook/flags/bad-flag /dev/null "jobset-webhook --bogus" jobset-webhook --bogus
record webhook/flags/bad-gate /dev/null "jobset-webhook --feature-gates Bogus=true" \
  jobset-webhook --tls-cert-file "$pki/server.crt" --tls-private-key-file "$pki/server.key" \
  --feature-gates Bogus=true

echo "$count files in $out_dir"
