#!/usr/bin/env bash
# `kubectl jobset why` against a fake kubectl (tests/why/fake) on PATH: the arguments it gets
# (namespace, context, kubeconfig, label selector), KUBECTL, an RBAC refusal, NotFound, the
# listing, --watch, and that a live read diagnoses as the dump file does.
set -u
bin=$1
src=$2
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 77; }
export NO_COLOR=1
work=$(mktemp -d "${TMPDIR:-/tmp}/why_test.XXXXXX")
trap 'rm -rf "$work"' EXIT
export FAKE_LOG=$work/log
export FAKE_DUMPS=$src/tests/why/crashloop.json:$src/tests/why/per-job.json
export PATH=$src/tests/why/fake:$PATH
fail=0
check() {  # check NAME CONDITION...
  local name=$1
  shift
  if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fail=1; fi
}

# 1. A live read passes -n, --context and --kubeconfig to each call, selects children by label.
: > "$FAKE_LOG"
"$bin" why crashloop -n team-a --context prod --kubeconfig /dev/null > "$work/live.out" 2> "$work/err"
status=$?
check "live read exits 1 for a failed JobSet" [ "$status" = 1 ]
cat > "$work/want.log" <<'LOG'
get jobsets.jobset.x-k8s.io crashloop -o json --namespace team-a --context prod --kubeconfig /dev/null
get jobs.batch,pods -l jobset.sigs.k8s.io/jobset-name=crashloop -o json --namespace team-a --context prod --kubeconfig /dev/null
get events -o json --namespace team-a --context prod --kubeconfig /dev/null
LOG
check "kubectl arguments" diff -u "$work/want.log" "$FAKE_LOG"
"$bin" why crashloop -f "$src/tests/why/crashloop.json" > "$work/file.out"
check "live read diagnoses as the dump file does" diff -u "$work/file.out" "$work/live.out"

# 2. KUBECTL picks the binary.
: > "$FAKE_LOG"
mkdir "$work/bin"
printf '#!/bin/sh\necho "$*" >> %s.kubectl2\nexec %s "$@"\n' "$FAKE_LOG" \
  "$src/tests/why/fake/kubectl" > "$work/bin/kubectl2"
chmod +x "$work/bin/kubectl2"
KUBECTL=$work/bin/kubectl2 "$bin" why per-job > /dev/null
check "KUBECTL is the binary run" [ "$(wc -l < "$FAKE_LOG.kubectl2")" = 3 ]
KUBECTL=$work/bin/absent "$bin" why per-job > /dev/null 2> "$work/err"
status=$?
check "a missing KUBECTL is exit 2" [ "$status" = 2 ]
check "... and says so" grep -q "cannot run $work/bin/absent" "$work/err"

# 3. RBAC: exit 2, naming the verb, resource and namespace refused.
FAKE_FORBID="jobs.batch,pods" "$bin" why per-job -n team-a > "$work/out" 2> "$work/err"
status=$?
check "forbidden is exit 2" [ "$status" = 2 ]
check "forbidden names what is missing" grep -q \
  '^error: access denied: you may not list jobs.batch in namespace team-a' "$work/err"
check "nothing on stdout when refused" [ ! -s "$work/out" ]

# 4. NotFound.
"$bin" why nothing-here > /dev/null 2> "$work/err"
status=$?
check "not found is exit 2" [ "$status" = 2 ]
check "not found says so" grep -q 'not found: Error from server (NotFound)' "$work/err"

# 5. The listing with -A.
: > "$FAKE_LOG"
"$bin" why -A > "$work/list.out"
status=$?
check "listing exits 1 when one JobSet failed" [ "$status" = 1 ]
check "listing asks for all namespaces" grep -qx \
  'get jobsets.jobset.x-k8s.io -o json --all-namespaces' "$FAKE_LOG"
check "listing shows both" grep -q 'per-job  *Healthy' "$work/list.out"

# 6. --watch: reads the watch stream, re-reads on each change, stops when terminal.
: > "$FAKE_LOG"
timeout 20 "$bin" why per-job --watch -n team-a > "$work/watch.out"
status=$?
check "watch ends with the stream (exit 0, healthy)" [ "$status" = 0 ]
check "watch runs kubectl get --watch" grep -qx \
  'get jobsets.jobset.x-k8s.io per-job --watch -o json --namespace team-a' "$FAKE_LOG"
check "watch re-reads once per change" [ "$(grep -c '^get events' "$FAKE_LOG")" = 3 ]

# 6b. --watch as the JobSet fails twice more: each new decision and the end are printed, once.
: > "$FAKE_LOG"
FAKE_DUMPS=$src/tests/why/crashloop-early.json FAKE_LATER=$src/tests/why/crashloop.json \
  timeout 20 "$bin" why crashloop --watch > "$work/watch2.out"
status=$?
check "watch exits 1 once the JobSet failed" [ "$status" = 1 ]
sed -n '/^attempt 1: /,$p' "$work/watch2.out" | sed -n '/^  /!p' > "$work/watch2.new"
cat > "$work/watch2.want" <<'OUT'
attempt 1: Job crashloop-workers-0 failed (BackoffLimitExceeded); no rule: default -> RestartJobSet (counted) -> restarted the JobSet (attempt 2)
attempt 2: Job crashloop-workers-0 failed (BackoffLimitExceeded); no rule: default -> RestartJobSet (not counted) -> failed: ReachedMaxRestarts
state: Failed: Failed: ReachedMaxRestarts (jobset failed due to reaching max number of restarts (first failed job: crashloop-workers-0))
OUT
check "watch prints each new failure and decision, then the state" \
  diff -u "$work/watch2.want" "$work/watch2.new"
check "watch stops at the terminal state (one re-read)" [ "$(grep -c '^get events' "$FAKE_LOG")" = 2 ]

# 6c. Colour: --color always colours the health word (red for Failed); NO_COLOR with auto, none.
"$bin" why crashloop -f "$src/tests/why/crashloop.json" --color always > "$work/color.out"
check "--color always colours the health" grep -q $'\033\[31mFailed' "$work/color.out"
"$bin" why crashloop -f "$src/tests/why/crashloop.json" > "$work/plain.out"
check "NO_COLOR: plain text" bash -c "! grep -q $'\033' '$work/plain.out'"

# 6d. A Volcano Job and a Framework, read live: their resources and their controllers' labels.
: > "$FAKE_LOG"
FAKE_DUMPS=$src/tests/why/volcano-restart-until-failed.json "$bin" why vcjob/train -n team-b \
  > "$work/vc.out" 2> "$work/err"
status=$?
check "vcjob: a failed Volcano Job exits 1" [ "$status" = 1 ]
cat > "$work/want.log" <<'LOG'
get jobs.batch.volcano.sh train -o json --namespace team-b
get pods -l volcano.sh/job-name=train -o json --namespace team-b
get events -o json --namespace team-b
LOG
check "vcjob: kubectl arguments" diff -u "$work/want.log" "$FAKE_LOG"
"$bin" why vcjob/train -f "$src/tests/why/volcano-restart-until-failed.json" > "$work/vcfile.out"
check "vcjob: a live read diagnoses as the dump file does" diff -u "$work/vcfile.out" "$work/vc.out"
: > "$FAKE_LOG"
FAKE_DUMPS=$src/tests/why/framework-permanent-stops.json "$bin" why framework/infer \
  > "$work/fw.out" 2> "$work/err"
status=$?
check "framework: a failed Framework exits 1" [ "$status" = 1 ]
check "framework: pods by FC_FRAMEWORK_NAME" grep -qx \
  'get pods -l FC_FRAMEWORK_NAME=infer -o json' "$FAKE_LOG"
FAKE_DUMPS=$src/tests/why/volcano-restart-until-failed.json "$bin" why vcjob/ -A > "$work/vclist.out"
check "vcjob/ without NAME lists Volcano Jobs" grep -q 'train .*Failed' "$work/vclist.out"

# 7. Usage errors.
"$bin" why pods/train -f "$src/tests/why/crashloop.json" > /dev/null 2> "$work/err"
status=$?
check "an unknown kind is exit 2" [ "$status" = 2 ]
check "... naming the kinds known" grep -q 'unknown kind "pods" (want one of jobset, vcjob, framework)' "$work/err"
"$bin" why crashloop -f "$work/absent.json" > /dev/null 2>&1
check "unreadable dump is exit 2" [ $? = 2 ]

exit $fail
