#!/usr/bin/env bash
# `kubectl jobset render` output is read by kubectl itself: every example's children go through
# `kubectl patch --local` (offline: kubectl decodes each object and applies an empty patch)
# without complaint, and come out as many objects as went in. Skipped (77) without kubectl.
# Usage: render_kubectl_test.sh KUBECTL_JOBSET SOURCE_DIR
set -u
bin=$1
src=$2
if ! command -v kubectl >/dev/null 2>&1; then
  echo "SKIPPED: kubectl is not on PATH"
  exit 77
fi
cd "$src" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# No cluster: kubectl must not try one.
export KUBECONFIG=$tmp/none
fail=0
count=0
while IFS= read -r file; do
  # Scenario files and other kinds: not rendered.
  grep -qE '^kind: (JobSet|Job|Framework)$' "$file" || continue
  for extra in "" "--restarts 2"; do
    # shellcheck disable=SC2086
    if ! "$bin" render "$file" $extra > "$tmp/out.yaml" 2> "$tmp/err"; then
      echo "FAIL: render $file $extra"
      cat "$tmp/err"
      fail=$((fail + 1))
      continue
    fi
    want=$(grep -c '^kind: ' "$tmp/out.yaml")
    [ "$want" -gt 0 ] || continue  # e.g. a Framework without tasks
    if ! kubectl patch --local -f - -p '{}' -o yaml < "$tmp/out.yaml" > "$tmp/back.yaml" \
        2> "$tmp/err" || [ -s "$tmp/err" ]; then
      echo "FAIL: kubectl patch --local on render $file $extra"
      cat "$tmp/err"
      fail=$((fail + 1))
      continue
    fi
    got=$(grep -c '^kind: ' "$tmp/back.yaml")
    if [ "$got" != "$want" ]; then
      echo "FAIL: render $file $extra: $want objects rendered, kubectl read back $got"
      fail=$((fail + 1))
    fi
    count=$((count + 1))
  done
done < <(find examples -name '*.yaml' | sort)
# JSON too: one List.
"$bin" render -o json examples/training-fail-fast.yaml > "$tmp/out.json" &&
  kubectl patch --local -f "$tmp/out.json" -p '{}' -o name > "$tmp/names" 2> "$tmp/err" &&
  [ ! -s "$tmp/err" ] && [ "$(wc -l < "$tmp/names")" = 6 ] ||
  { echo "FAIL: render -o json through kubectl"; cat "$tmp/err"; fail=$((fail + 1)); }
echo "$count renderings read back by kubectl, $fail failed"
[ "$count" -gt 10 ] && [ "$fail" = 0 ]
