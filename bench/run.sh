#!/usr/bin/env bash
# The lint benchmark (`make bench`): generates 10,000 JobSet files into bench/out/jobsets, checks
# they lint clean, runs `lint_bench run` over them, then times `kubectl-jobset lint` on one small
# file including process start. Builds nothing: takes the build directory.
#
#   bench/run.sh BUILD_DIR
#
# Environment: BENCH_FILES (10000), BENCH_REPEAT (3), BENCH_SEED (20240611), BENCH_RUNS (100).
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: bench/run.sh BUILD_DIR" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(cd "$1" && pwd)
OUT=$ROOT/bench/out
FILES=${BENCH_FILES:-10000}
REPEAT=${BENCH_REPEAT:-3}
SEED=${BENCH_SEED:-20240611}
RUNS=${BENCH_RUNS:-100}
LINT=$BUILD/kubectl-jobset
BENCH=$BUILD/lint_bench

for exe in "$LINT" "$BENCH"; do
  if [[ ! -x $exe ]]; then
    echo "bench/run.sh: $exe is missing; build first (make build)" >&2
    exit 2
  fi
done

section() { printf '\n== %s\n' "$*"; }

section "machine"
echo "nproc: $(nproc)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
echo "build: $BUILD ($(grep -m1 CMAKE_BUILD_TYPE "$BUILD/CMakeCache.txt" 2>/dev/null | cut -d= -f2))"
echo "yaml-cpp: $(dpkg-query -W -f '${Version}' libyaml-cpp-dev 2>/dev/null || echo unknown)"

section "generate $FILES files (seed $SEED)"
rm -rf "$OUT/jobsets"
mkdir -p "$OUT"
"$BENCH" generate "$OUT/jobsets" "$FILES" --seed "$SEED"

section "kubectl-jobset lint over all of them (must report 0 errors)"
start=$EPOCHREALTIME
status=0
"$LINT" lint --color never "$OUT/jobsets" >"$OUT/lint.txt" 2>&1 || status=$?
end=$EPOCHREALTIME
tail -n 1 "$OUT/lint.txt"
awk -v s="$start" -v e="$end" -v n="$FILES" \
  'BEGIN { printf "wall %.2f s for %d files (%.0f files/s, default --jobs)\n", e - s, n, n / (e - s) }'
if [[ $status -ne 0 ]]; then
  echo "bench/run.sh: the generated files do not lint clean (exit $status); see $OUT/lint.txt" >&2
  exit 1
fi

section "lint_bench run (in-process, files in memory)"
"$BENCH" run "$OUT/jobsets" --repeat "$REPEAT" | tee "$OUT/run.txt"

# The smallest generated file: a one-replicated-job JobSet of about 2 KB, the size of a
# manifest a pre-commit hook typically sees.
SMALL=$(ls -S "$OUT"/jobsets/*.yaml | tail -n 1)
section "one small file, including process start: $(basename "$SMALL") ($(wc -c <"$SMALL") bytes)"

if ! command -v hyperfine >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]] &&
  command -v apt-get >/dev/null 2>&1; then
  echo "installing hyperfine"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends hyperfine \
    >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends hyperfine \
        >/dev/null 2>&1; } || echo "could not install hyperfine; falling back to a bash loop"
fi

TIMES=$OUT/small-times.txt  # one wall time per run, in seconds
if command -v hyperfine >/dev/null 2>&1; then
  TOOL="hyperfine $(hyperfine --version | cut -d' ' -f2)"
  hyperfine -N --warmup 10 --runs "$RUNS" --export-json "$OUT/small.json" \
    "$LINT lint --color never $SMALL"
  awk '/"times"/ { on = 1; next } on && /\]/ { on = 0 } on { gsub(/[ ,]/, ""); print }' \
    "$OUT/small.json" >"$TIMES"
else
  # $EPOCHREALTIME (bash 5) costs no process; `date +%s%N` is the fallback for older shells.
  TOOL="bash loop"
  now() { if [[ -n ${EPOCHREALTIME:-} ]]; then echo "${EPOCHREALTIME/[.,]/}"; else
    echo $(($(date +%s%N) / 1000)); fi; }
  for _ in $(seq 10); do "$LINT" lint --color never "$SMALL" >/dev/null; done
  : >"$TIMES"
  for _ in $(seq "$RUNS"); do
    s=$(now)
    "$LINT" lint --color never "$SMALL" >/dev/null
    e=$(now)
    awk -v d=$((e - s)) 'BEGIN { printf "%.6f\n", d / 1e6 }' >>"$TIMES"
  done
fi
sort -g "$TIMES" | awk -v tool="$TOOL" -v runs="$RUNS" '
  { t[NR] = $1 * 1000; sum += t[NR] }
  END {
    p95 = t[int(NR * 0.95 + 0.999999)]
    printf "small file (%s, %d runs): mean %.2f ms, median %.2f ms, p95 %.2f ms, min %.2f ms, max %.2f ms (goal < 10 ms: %s)\n",
      tool, NR, sum / NR, t[int((NR + 1) / 2)], p95, t[1], t[NR], (p95 < 10 ? "met" : "NOT met")
    printf "JSON {\"small_file_runs\":%d,\"small_file_mean_ms\":%.3f,\"small_file_p95_ms\":%.3f,\"tool\":\"%s\"}\n",
      NR, sum / NR, p95, tool
  }' | tee "$OUT/small.txt"

section "hostile input: CPU time and peak memory at 1x, 2x, 4x (bench/README.md)"
if [[ -x $BUILD/hostile_bench ]]; then
  "$BUILD/hostile_bench" | tee "$OUT/hostile.txt"
fi

section "done"
echo "load now: $(cut -d' ' -f1-3 /proc/loadavg); results in $OUT/{run,small,lint,hostile}.txt"
