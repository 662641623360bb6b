# shellcheck shell=bash
# Counters for the shell tests: `ok`, `bad WHAT [DETAIL]`, then `finish` (prints the counts and
# returns non-zero when something failed). Source it: . "$src/tests/checks.sh"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL: $1"
  [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/  | /'
}
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
}
