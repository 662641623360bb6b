#!/usr/bin/env bash
# Every C++ file is formatted as .clang-format says (Google style, 100 columns): clang-format
# --dry-run --Werror over all of them, with its complaints. Fix with `clang-format -i FILE`.
# Usage: tests/format_test.sh SOURCE_DIR. Exit 77 without clang-format 14.
set -uo pipefail
cd "$1" || exit 2
. tests/clang_tools.sh
format=$(clang_tool clang-format)
if [ -z "$format" ]; then
  echo "SKIP: clang-format 14 is not installed (clang-format-14, or clang-format of version 14)"
  exit 77
fi
files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(cxx_sources)
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no C++ files found"; exit 1; }
if ! out=$("$format" --dry-run --Werror "${files[@]}" 2>&1); then
  printf '%s\n' "$out" | head -60
  echo "FAIL: these files are not formatted:"
  printf '%s\n' "$out" | grep -oE '^[^:[:space:]]+\.(cc|h):' | sort -u | sed 's/:$//; s/^/  /'
  echo "Run: clang-format -i FILE (clang-format 14, .clang-format)"
  exit 1
fi
echo "OK: ${#files[@]} C++ files formatted ($format)"
