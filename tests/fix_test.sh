#!/usr/bin/env bash
# `lint --fix` and `lint --diff` on copies of tests/fixtures/fix: the fixed files equal the
# expected *.fixed files byte for byte, lint is then clean of the fixed rules, the --diff output
# applied by `patch -p1` and by `git apply` gives the same files, a second --fix changes nothing
# (and rewrites no file), file modes are kept, and `--fix -` prints the fixed document.
# Usage: fix_test.sh KUBECTL_JOBSET_BINARY SOURCE_DIR. A missing patch or git skips its check
# with a message; exit 77 when neither cmp nor diff is there to compare files.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
if ! command -v cmp >/dev/null 2>&1; then
  echo "SKIP: cmp is not installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1
fixtures=$src/tests/fixtures/fix
inputs=()
for f in "$fixtures"/*.fixed; do inputs+=("$(basename "${f%.fixed}")"); done

. "$src/tests/checks.sh"
# Copies the fixtures into DIR/jobs (where the diff's a/jobs/... paths point).
fresh() {
  mkdir -p "$1/jobs"
  for f in "${inputs[@]}"; do cp "$fixtures/$f" "$1/jobs/$f"; done
}
# Checks that every file of DIR/jobs equals its expected *.fixed file.
same_as_expected() {
  local what=$1 dir=$2 f
  for f in "${inputs[@]}"; do
    if cmp -s "$dir/jobs/$f" "$fixtures/$f.fixed"; then
      ok
    else
      bad "$what: jobs/$f differs from $f.fixed" "$(diff -u "$fixtures/$f.fixed" "$dir/jobs/$f" 2>&1)"
    fi
  done
}

# 1. --diff writes nothing and says there is something to fix (exit 1).
fresh "$tmp/diff"
(cd "$tmp/diff" && "$bin" lint --diff jobs > ../fixes.diff 2> ../diff.err)
status=$?
[ "$status" = 1 ] && ok || bad "--diff exit status $status, want 1" "$(cat "$tmp/diff.err")"
for f in "${inputs[@]}"; do
  cmp -s "$tmp/diff/jobs/$f" "$fixtures/$f" && ok || bad "--diff changed jobs/$f"
done
grep -q '^+++ b/jobs/rule-names.yaml$' "$tmp/fixes.diff" && ok ||
  bad "--diff names files b/jobs/..." "$(head -3 "$tmp/fixes.diff")"

# 2. --fix gives the expected files byte for byte, keeps the mode, reports what remains.
fresh "$tmp/fix"
chmod 600 "$tmp/fix/jobs/rule-names.yaml"
out=$(cd "$tmp/fix" && "$bin" lint --fix jobs 2>&1)
same_as_expected "--fix" "$tmp/fix"
[ "$(stat -c %a "$tmp/fix/jobs/rule-names.yaml")" = 600 ] && ok || bad "--fix lost the file mode"
echo "$out" | grep -q '^jobs/restart-policy.yaml: fixed 3 findings$' && ok ||
  bad "--fix says what it fixed" "$out"
# Nothing left of the fixed rules; the other findings are still reported.
after=$(cd "$tmp/fix" && "$bin" lint -o json jobs)
for rule in failure-policy/duplicate-rule-name job-template/pod-failure-policy-restart-policy; do
  echo "$after" | grep -q "\"rule\": \"$rule\"" && bad "$rule still fires after --fix" || ok
done
echo "$after" | grep -q '"rule": "failure-policy/unreachable-reason"' && ok ||
  bad "the findings --fix cannot fix are still reported"
leftover=$(find "$tmp/fix/jobs" -mindepth 1 ! -name '*.yaml' ! -name '*.json')
[ -z "$leftover" ] && ok || bad "--fix left temporary files" "$leftover"

# 3. Idempotent: a second --fix changes nothing and rewrites no file; --diff is then empty.
inode=$(stat -c %i "$tmp/fix/jobs/jobset.json")
again=$(cd "$tmp/fix" && "$bin" lint --fix jobs 2>&1)
same_as_expected "second --fix" "$tmp/fix"
echo "$again" | grep -q 'fixed' && bad "second --fix fixed something" "$again" || ok
[ "$(stat -c %i "$tmp/fix/jobs/jobset.json")" = "$inode" ] && ok || bad "second --fix rewrote a file"
diff_again=$(cd "$tmp/fix" && "$bin" lint --diff jobs 2>/dev/null)
status=$?
[ "$status" = 0 ] && [ -z "$diff_again" ] && ok || bad "--diff after --fix: exit $status" "$diff_again"

# 4. The diff applies with patch -p1 and with git apply, to the same result as --fix.
if command -v patch >/dev/null 2>&1; then
  fresh "$tmp/patch"
  if msg=$(cd "$tmp/patch" && patch -p1 --batch < ../fixes.diff 2>&1); then
    same_as_expected "patch -p1" "$tmp/patch"
  else
    bad "patch -p1 refused the diff" "$msg"
  fi
else
  echo "SKIP: patch is not installed (patch -p1 check)"
fi
if command -v git >/dev/null 2>&1; then
  fresh "$tmp/git"
  if msg=$(cd "$tmp/git" && git apply ../fixes.diff 2>&1); then
    same_as_expected "git apply" "$tmp/git"
  else
    bad "git apply refused the diff" "$msg"
  fi
else
  echo "SKIP: git is not installed (git apply check)"
fi

# 5. A UTF-8 byte order mark stays in front of the fixed text.
mkdir -p "$tmp/bom"
{ printf '\357\273\277'; cat "$fixtures/rule-names.yaml"; } > "$tmp/bom/in.yaml"
{ printf '\357\273\277'; cat "$fixtures/rule-names.yaml.fixed"; } > "$tmp/bom/want.yaml"
"$bin" lint --fix "$tmp/bom/in.yaml" > /dev/null 2>&1
cmp -s "$tmp/bom/in.yaml" "$tmp/bom/want.yaml" && ok || bad "--fix lost the byte order mark"

# 6. Standard input: the fixed document on stdout, the report on stderr.
for f in "${inputs[@]}"; do
  if "$bin" lint --fix - < "$fixtures/$f" 2>/dev/null | cmp -s - "$fixtures/$f.fixed"; then
    ok
  else
    bad "--fix - < $f does not print $f.fixed"
  fi
done

finish
