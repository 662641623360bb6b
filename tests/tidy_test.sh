#!/usr/bin/env bash
# clang-tidy (the checks of .clang-tidy) finds nothing but what tests/tidy-allowed.txt lists.
#
# Which files: with --all, every C++ file the build compiles (`make tidy`). Otherwise the files
# this branch changes against its merge base with main (committed or not; a changed header
# brings in the .cc of the same name); on main itself (a clean clone: nothing changed) the small
# fixed set below. All files do not fit in ctest: clang-tidy spends about 6 s of CPU on each of
# the 220 files (their headers: valijson, CLI11, httplib, doctest), so 11 minutes on two idle
# cores at best; measured with run-clang-tidy -j2 on two cores shared with other builds, 5 files
# took 135 s (all of them: about 100 minutes). The fixed set took 215 s there (with two more
# files; by the 6 s a file, some 20 s on idle cores).
#
# A finding is keyed "path: message [check]", without its line, so that edits above it do not
# move it. readability-function-size does not apply to tests (*_test.cc: see .clang-tidy). An
# allowed finding that a checked .cc file no longer has fails too (remove its line).
#
# Usage: tests/tidy_test.sh SOURCE_DIR BUILD_DIR [--all]
# Exit 77 without clang-tidy 14, or without BUILD_DIR/compile_commands.json.
set -uo pipefail
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
all=${3:-}
cd "$src" || exit 2
. tests/clang_tools.sh
tidy=$(clang_tool clang-tidy)
if [ -z "$tidy" ]; then
  echo "SKIP: clang-tidy 14 is not installed (clang-tidy-14, or clang-tidy of version 14)"
  exit 77
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "SKIP: no $build/compile_commands.json (configure with CMake first)"
  exit 77
fi
# The fixed set for a clean clone: one file of each layer, small and quick to parse.
fixed=(validation/core/strings.cc validation/core/finding_sink.cc validation/k8s/quantity.cc
       validation/jobset/fix.cc validation/lint/config.cc cmd/text_table.cc webhook/metrics.cc)

# The source files of the build (not its generated ones), relative to the source dir.
compiled() {
  sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' "$build/compile_commands.json" |
    sed -n "s|^$src/||p" | sort -u
}

# The C++ files this branch changes against main's merge base, committed or not (a header as
# the .cc of its name); nothing when the branch is main or git is absent.
changed() {
  local base
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
  base=$(git merge-base HEAD main 2>/dev/null || git merge-base HEAD origin/main 2>/dev/null) ||
    return 0
  { git diff --name-only --diff-filter=d "$base"; git ls-files --others --exclude-standard; } |
    sed -n 's/\.h$/.cc/p; /\.cc$/p' | sort -u
}

# The files to check: --all, else the changed ones the build compiles, else the fixed set.
select_files() {
  if [ "$all" = --all ]; then compiled; return; fi
  local diff
  diff=$(comm -12 <(changed) <(compiled))
  if [ -n "$diff" ]; then printf '%s\n' "$diff"; else printf '%s\n' "${fixed[@]}"; fi
}

# clang-tidy's findings on the files of standard input, keyed "path: message [check]", sorted;
# its whole output goes to $tmp/raw. One clang-tidy per file, TIDY_JOBS (default: all cores) at
# a time, as run-clang-tidy -j does (without its colours).
findings() {
  sed "s|^|$src/|" | tr '\n' '\0' |
    xargs -0 -r -n 1 -P "${TIDY_JOBS:-$(nproc)}" "$tidy" -p "$build" --quiet > "$tmp/raw" 2>&1
  sed -n "s|^$src/\([^:]*\):[0-9]*:[0-9]*: warning: \(.*\)$|\1: \2|p" "$tmp/raw" |
    grep -vE '_test\.cc: .*\[readability-function-size\]$' | sort -u
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
select_files > "$tmp/files"
checked=$(wc -l < "$tmp/files")
start=$SECONDS
findings < "$tmp/files" > "$tmp/found"
grep -vE '^[[:space:]]*(#|$)' tests/tidy-allowed.txt | sed 's/[[:space:]]*$//' | sort -u \
  > "$tmp/allowed"
fail=0
while IFS= read -r line; do
  echo "FAIL: new clang-tidy finding: $line"
  fail=1
done < <(comm -23 "$tmp/found" "$tmp/allowed")
# Allowed findings of a checked .cc file that it no longer has.
while IFS= read -r line; do
  grep -qxF "${line%%: *}" "$tmp/files" || continue
  echo "FAIL: no longer found, remove from tests/tidy-allowed.txt: $line"
  fail=1
done < <(comm -13 "$tmp/found" "$tmp/allowed")
if grep -q 'error:' "$tmp/raw"; then
  grep 'error:' "$tmp/raw" | head -20
  echo "FAIL: clang-tidy could not check every file"
  fail=1
fi
if [ "$fail" = 1 ]; then
  echo "Fix the code, or list a finding the code keeps on purpose in tests/tidy-allowed.txt"
  echo "with its reason. Full output of clang-tidy:"
  sed -n '/warning:\|error:/,+3p' "$tmp/raw" | head -200
  exit 1
fi
echo "OK: $checked files, $(wc -l < "$tmp/found") allowed findings, $((SECONDS - start)) s"
