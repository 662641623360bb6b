#!/usr/bin/env bash
# Golden tests of the CLI: runs the real binary with each tests/golden/<case>.args and compares
# stdout and the exit status with tests/golden/<case>.out. UPDATE_GOLDEN=1 rewrites the files;
# GOLDEN_FILTER=glob limits the run to the cases whose name matches (e.g. 'explain_volcano*').
set -u
bin=$1
src=$2
cd "$src"
export NO_COLOR=1
fail=0
count=0
for args_file in tests/golden/*.args; do
  name=${args_file%.args}
  # shellcheck disable=SC2053
  [[ $(basename "$name") == ${GOLDEN_FILTER:-*} ]] || continue
  expected=$name.out
  # Arguments are one line; stdin comes from <case>.stdin when present.
  read -r -a args < "$args_file"
  stdin=/dev/null
  [ -f "$name.stdin" ] && stdin=$name.stdin
  actual=$("$bin" "${args[@]}" < "$stdin" 2>&1; echo "exit: $?")
  count=$((count + 1))
  if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    printf '%s\n' "$actual" > "$expected"
    continue
  fi
  if ! diff -u "$expected" <(printf '%s\n' "$actual") > /tmp/golden.diff.$$; then
    echo "FAIL: $name"
    cat /tmp/golden.diff.$$
    fail=$((fail + 1))
  fi
done
rm -f /tmp/golden.diff.$$
echo "$((count - fail)) passed, $fail failed"
[ "$fail" = 0 ]
