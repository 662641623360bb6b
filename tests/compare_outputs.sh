#!/usr/bin/env bash
# Compares what two builds print (the CLI and the webhook, on the examples, the fixtures, the
# webhook cases and the corpus): snapshots both with tests/output_snapshot.sh, then `diff -r`.
# For behaviour-preserving restructurings: build the old tree and the new one, then
#
#   tests/compare_outputs.sh BEFORE_BUILD AFTER_BUILD [CORPUS_DIR]
#
# Both snapshots read the inputs of this checkout (--source DIR: another one). Prints the number
# of files compared; exit status 0 when all are byte-identical, 1 on any difference (shown), 2
# when a snapshot cannot be taken. KEEP=1 keeps the snapshots and prints where they are.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_args=()
if [ "${1:-}" = --source ]; then
  [ $# -ge 2 ] || { echo "usage: $0 [--source DIR] BEFORE_BUILD AFTER_BUILD [CORPUS_DIR]" >&2; exit 2; }
  source_args=(--source "$2")
  shift 2
fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 [--source DIR] BEFORE_BUILD AFTER_BUILD [CORPUS_DIR]" >&2
  exit 2
fi
before=$1
after=$2
corpus=("${@:3}")

work=$(mktemp -d "${TMPDIR:-/tmp}/compare-outputs.XXXXXX")
if [ "${KEEP:-}" = 1 ]; then
  trap 'echo "snapshots kept in $work" >&2' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi

start=$SECONDS
for side in before after; do
  build=$before
  [ "$side" = after ] && build=$after
  if ! "$here/output_snapshot.sh" "${source_args[@]}" "$build" "$work/$side" "${corpus[@]}" \
    >"$work/$side.log" 2>&1; then
    echo "error: the snapshot of $build ($side) failed:" >&2
    cat "$work/$side.log" >&2
    exit 2
  fi
done

files=$(cd "$work" && { (cd before && find . -type f); (cd after && find . -type f); } |
  sort -u | wc -l)
if diff -r "$work/before" "$work/after" >"$work/diff"; then
  echo "identical: $files files compared ($before vs $after, $((SECONDS - start))s)"
  exit 0
fi
sed "s#$work/##g" "$work/diff"
echo "DIFFERENT: $(grep -c '^diff \|^Only in' "$work/diff") of $files files differ ($before vs $after)"
exit 1
