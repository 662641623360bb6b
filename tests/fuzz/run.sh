#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time (docs/fuzzing.md):
#   tests/fuzz/run.sh TARGET SEEDS_DIR DICT BUILD_DIR SECONDS [libFuzzer flags...]
# New inputs go to BUILD_DIR/fuzz-corpus/<target> (kept between runs, so coverage accumulates);
# a crash, leak, sanitizer report, slow input (-timeout) or out-of-memory (-rss_limit_mb,
# -malloc_limit_mb) stops it with a non-zero status and the input in BUILD_DIR/fuzz-artifacts/.
set -euo pipefail
target=$1 seeds=$2 dict=$3 build=$4 seconds=$5
shift 5
name=$(basename "$target")
corpus=$build/fuzz-corpus/$name
artifacts=$build/fuzz-artifacts
mkdir -p "$corpus" "$artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
  -max_len=262144 -dict="$dict" -print_final_stats=1 -artifact_prefix="$artifacts/$name-" \
  "$@" "$corpus" "$seeds"
