#!/usr/bin/env bash
# Prints the N slowest ctest units of the last `ctest` run in BUILD_DIR (wall seconds, from
# ctest's Testing/Temporary/LastTest.log), slowest first. `make test` prints them after each stage,
# pass or fail, so that a unit creeping towards its TIMEOUT is seen before it fails.
#
#   tests/slowest_units.sh BUILD_DIR [N]     (N defaults to 10)
set -euo pipefail

build=${1:?usage: slowest_units.sh BUILD_DIR [N]}
count=${2:-10}
log=$build/Testing/Temporary/LastTest.log
if [ ! -f "$log" ]; then
  echo "slowest_units: no ctest log in $build" >&2
  exit 0
fi
echo "The $count slowest units of $build (wall seconds):"
awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
     /^Test time = / && name != "" { printf "%9.2f  %s\n", $4, name; name = "" }' "$log" |
  sort -rn | head -n "$count"
