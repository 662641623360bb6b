#!/usr/bin/env bash
# Old build against new build, in one run, for changes that must not cost speed (issue #16's
# restructuring, or any refactor). Builds nothing: takes two build directories.
#
#   bench/ab.sh BEFORE_BUILD AFTER_BUILD
#
# Each measure alternates the two builds round by round (before, after, after, before, ...), so
# that a neighbour's load falls on both alike, and reports the median of each side and the
# ratio after/before:
#   1. lint throughput: `lint_bench run --only c` on generated files (CPU time, documents per
#      second per core: the figure of bench/run.sh);
#   2. one small file, including process start: wall and CPU time of `kubectl-jobset lint FILE`;
#   3. the webhook's work per request without sockets: `admission_bench` on the AdmissionReview
#      of bench/webhook_bench.sh (validate and mutate), microseconds per request;
#   4. with wrk installed: both jobset-webhook servers over TLS with keep-alive, requests per
#      second (wrk -t1 -c8).
#
# Environment: AB_ROUNDS (6), AB_FILES (2000), AB_RUNS (small-file runs per round, 30),
# AB_REQUESTS (admission_bench requests, 3000), AB_WRK_SECONDS (5).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: bench/ab.sh BEFORE_BUILD AFTER_BUILD" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
A=$(cd "$1" && pwd)
B=$(cd "$2" && pwd)
ROUNDS=${AB_ROUNDS:-6}
FILES=${AB_FILES:-2000}
RUNS=${AB_RUNS:-30}
REQUESTS=${AB_REQUESTS:-3000}
WRK_SECONDS=${AB_WRK_SECONDS:-5}
for build in "$A" "$B"; do
  for exe in kubectl-jobset lint_bench webhook/admission_bench webhook/jobset-webhook; do
    [[ -x $build/$exe ]] || { echo "bench/ab.sh: $build/$exe is missing" >&2; exit 2; }
  done
done
work=$(mktemp -d "${TMPDIR:-/tmp}/ab.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# order ROUND: "A B" on even rounds, "B A" on odd ones.
order() { if (($1 % 2 == 0)); then echo "A B"; else echo "B A"; fi; }
dir_of() { if [[ $1 == A ]]; then echo "$A"; else echo "$B"; fi; }
# report NAME UNIT FILE_A FILE_B: medians of two files of numbers, and B/A.
report() {
  python3 - "$@" <<'EOF'
import statistics, sys
name, unit, fa, fb = sys.argv[1:]
a = [float(x) for x in open(fa)]
b = [float(x) for x in open(fb)]
ma, mb = statistics.median(a), statistics.median(b)
print(f"{name:<44} before {ma:10.2f} {unit:<10} after {mb:10.2f} {unit:<10} after/before {mb / ma:5.3f}")
EOF
}

echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); rounds: $ROUNDS"
echo "before: $A"
echo "after:  $B"

# --- 1. lint throughput -------------------------------------------------------------------
"$B/lint_bench" generate "$work/jobsets" "$FILES" --seed 20240611 >/dev/null
for r in $(seq 0 $((ROUNDS - 1))); do
  for side in $(order "$r"); do
    "$(dir_of "$side")/lint_bench" run "$work/jobsets" --repeat 1 --only c |
      sed -n 's/.*"docs_per_s_per_core":\([0-9.]*\).*/\1/p' >>"$work/lint.$side"
  done
done
report "lint, documents/s per core ($FILES files)" docs/s "$work/lint.A" "$work/lint.B"

# --- 2. one small file, including process start ---------------------------------------------
# CPU time (user + system, from getrusage of the children) as well as wall time: on a shared
# host the wall time of a 5 ms process measures the neighbours as much as the process.
small=$(ls -S "$work"/jobsets/*.yaml | tail -n 1)
cat >"$work/small.py" <<'EOF'
import resource, subprocess, sys, time
lint, small, runs, wall_out, cpu_out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
with open(wall_out, "a") as w, open(cpu_out, "a") as c:
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([lint, "lint", "--color", "never", small], stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        w.write(f"{wall * 1000:.3f}\n")
        c.write(f"{cpu * 1000:.3f}\n")
EOF
for r in $(seq 0 $((ROUNDS - 1))); do
  for side in $(order "$r"); do
    python3 "$work/small.py" "$(dir_of "$side")/kubectl-jobset" "$small" "$RUNS" \
      "$work/small-wall.$side" "$work/small-cpu.$side"
  done
done
report "one small file incl. start, wall ($(wc -c <"$small") B)" ms "$work/small-wall.A" \
  "$work/small-wall.B"
report "one small file incl. start, CPU" ms "$work/small-cpu.A" "$work/small-cpu.B"

# --- 3. admission without sockets --------------------------------------------------------------
testtool=$B/webhook/jobset-webhook-testtool
manifest=$ROOT/examples/training-fail-fast.yaml
"$testtool" objects "$manifest" | head -n 1 |
  python3 -c 'import json,sys; print(json.dumps(json.loads(sys.stdin.readline())["object"]))' \
    >"$work/raw.json"
"$testtool" default <"$work/raw.json" |
  python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["webhook"]))' \
    >"$work/defaulted.json"
for stage in validate mutate; do
  python3 "$ROOT/bench/webhook/make_review.py" "$work/raw.json" "$work/defaulted.json" "$stage" \
    >"$work/request-$stage.json"
  for r in $(seq 0 $((ROUNDS - 1))); do
    for side in $(order "$r"); do
      "$(dir_of "$side")/webhook/admission_bench" "$work/request-$stage.json" \
        --requests "$REQUESTS" --endpoint "$stage" 2>&1 |
        sed -n 's/.*"us_per_request": \([0-9.]*\).*/\1/p' >>"$work/adm-$stage.$side"
    done
  done
  if [[ -s $work/adm-$stage.A ]]; then
    report "admission_bench $stage, per request" us "$work/adm-$stage.A" "$work/adm-$stage.B"
  else
    echo "admission_bench $stage: no us_per_request in its output"
  fi
done

# --- 4. the servers over TLS -------------------------------------------------------------------
if ! command -v wrk >/dev/null 2>&1; then
  echo "wrk not installed: the servers over TLS are not compared"
  exit 0
fi
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 \
  -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$work/tls.key" -out "$work/tls.crt" 2>/dev/null
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
declare -A port
for side in A B; do
  port[$side]=$(free_port)
  health=$(free_port)
  "$(dir_of "$side")/webhook/jobset-webhook" --tls-cert-file "$work/tls.crt" \
    --tls-private-key-file "$work/tls.key" --bind-address 127.0.0.1 --port "${port[$side]}" \
    --health-bind-address 127.0.0.1 --health-port "$health" 2>"$work/server.$side.log" &
  pids+=($!)
  for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$health/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
done
path=/validate-jobset-x-k8s-io-v1alpha2-jobset  # kValidateJobSetPath (webhook/admission_handler.h)
cat >"$work/post.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$work/request-validate.json", "rb")
wrk.body = f:read("*a")
f:close()
EOF
for r in $(seq 0 $((ROUNDS - 1))); do
  for side in $(order "$r"); do
    wrk -t1 -c8 -d"${WRK_SECONDS}s" -s "$work/post.lua" "https://127.0.0.1:${port[$side]}$path" |
      sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' >>"$work/wrk.$side"
  done
done
report "jobset-webhook over TLS (wrk -t1 -c8), requests/s" req/s "$work/wrk.A" "$work/wrk.B"
