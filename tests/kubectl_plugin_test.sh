#!/usr/bin/env bash
# `kubectl jobset lint` through the real kubectl's plugin dispatch. Skips (77) without kubectl.
set -u
bin=$1
src=$2
if ! command -v kubectl >/dev/null 2>&1; then
  echo "SKIP: kubectl is not installed"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ln -s "$bin" "$dir/kubectl-jobset"
export PATH="$dir:$PATH" NO_COLOR=1
cd "$src"
out=$(kubectl jobset lint examples/broken/restart-job-without-gate.yaml 2>&1)
status=$?
fail=0
if [ "$status" != 1 ]; then echo "FAIL: exit status $status, want 1"; fail=1; fi
if ! grep -q 'restart-job-without-gate.yaml:13:17: error: RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not allowed when RestartJob feature gate is disabled \[failure-policy/restart-job-gate\]' <<<"$out"; then
  echo "FAIL: unexpected output:"; echo "$out"; fail=1
fi
if ! kubectl jobset lint --feature-gates RestartJob=true examples/broken/restart-job-without-gate.yaml >/dev/null; then
  echo "FAIL: with the gate on the example should pass"; fail=1
fi
if ! kubectl jobset lint --help | grep -q 'Usage: kubectl jobset lint'; then
  echo "FAIL: help should read 'kubectl jobset lint' when run as a plugin"; fail=1
fi
if ! kubectl plugin list 2>/dev/null | grep -q kubectl-jobset; then
  echo "FAIL: kubectl plugin list does not show kubectl-jobset"; fail=1
fi
[ "$fail" = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
