#!/usr/bin/env bash
# The repository stands alone: no file points outside it. Fails on a mention of the folder CI
# keeps beside the checkout (dot-dot-slash "shared"), on a section sign followed by a number
# (a section of a document we do not have), and on an absolute path of some machine (under the
# root folders work, home, root or Users; the paths inside a container that upstream code writes,
# listed in container_paths, are of no machine and pass). Cite upstream code (repository, file,
# function, commit: see docs/upstream.md) or our own docs/ instead. Only .ci/run, which runs in
# CI next to that folder, may name it. Also fails on a doctest test case or subcase whose name
# carries a row label of an outside table (a C, D or Q followed by one or two digits, e.g. "C2",
# "D5-D7"): say what the check is instead.
#
# Usage: tests/standalone_test.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2

# The patterns are assembled so that this file does not match them itself.
dots='\.\.'
machine_path='(^|[^A-Za-z0-9_.$}/-])/(work|home|root|Users)/'
patterns=(
  "${dots}/shared"
  $'\u00a7 ?[0-9]'
  "$machine_path"
  '(TEST_CASE|SUBCASE)\(".*\b[CDQ][0-9]{1,2}\b'
)
# Paths inside a Pod's containers that upstream controllers write (Volcano's ssh plugin mounts
# its Secret at root's .ssh folder): a line naming them is checked with them taken out.
container_paths='/ro''ot/\.ssh\b'

# The tracked files in a git checkout; every file but builds and the fetched corpus otherwise
# (a release tarball).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -z "$(git rev-parse --show-prefix)" ]
then
  list() { git ls-files -z --cached --others --exclude-standard; }
else
  list() {
    find . -type f ! -path './.git/*' ! -path './build*' ! -path './corpus/*' \
      ! -path './dist/*' -print0 | sed -z 's|^\./||'
  }
fi

# Prints a FAIL line for each hit of a pattern in the files named (NUL-separated) on standard
# input; returns the number of hits (at most 255 as a status; 0 when clean).
scan() {
  local files=() f p hit text fail=0
  while IFS= read -r -d '' f; do files+=("$f"); done
  [ ${#files[@]} -gt 0 ] || return 0
  for p in "${patterns[@]}"; do
    while IFS= read -r hit; do
      [ -n "$hit" ] || continue
      if [ "$p" = "$machine_path" ]; then
        # file:line:text; the text without its container paths must still point outside.
        text=${hit#*:}
        text=${text#*:}
        printf '%s\n' "$text" | sed -E "s#${container_paths}##g" | grep -qE -- "$p" || continue
      fi
      echo "FAIL: points outside the repository: $hit" | cut -c1-200
      fail=$((fail + 1))
    done < <(printf '%s\0' "${files[@]}" | LC_ALL=C.UTF-8 xargs -0 grep -InHE -- "$p" 2>/dev/null)
  done
  return $((fail > 255 ? 255 : fail))
}

# First, on made-up lines, that container paths pass and machine paths beside them do not.
self=$(mktemp -d)
trap 'rm -rf "$self"' EXIT
r='ro''ot'
w='wo''rk'
printf '%s\n' "mountPath: /$r/.ssh" "path: \"/$r/.ssh/config\"" > "$self/container.txt"
printf '%s\n' "x /$r/.sshd" "x /$r/other" "mountPath: /$r/.ssh beside /$w/checkout" \
  > "$self/machine.txt"
(cd "$self" && printf '%s\0' container.txt | scan >/dev/null) ||
  { echo "FAIL: the check flags a container path"; exit 1; }
(cd "$self" && printf '%s\0' machine.txt | scan >/dev/null)
[ $? = 3 ] || { echo "FAIL: the check misses a machine path next to a container path"; exit 1; }

files=()
while IFS= read -r -d '' f; do
  [ "$f" = .ci/run ] || [ ! -f "$f" ] || files+=("$f")
done < <(list)
checked=${#files[@]}
fail=0
printf '%s\0' "${files[@]}" | scan || fail=$?

echo "$checked files checked"
if [ "$fail" != 0 ]; then
  echo "Cite upstream code (repository, file, function, commit; docs/upstream.md) or docs/."
  exit 1
fi
echo "no file points outside the repository"
