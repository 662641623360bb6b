# Shared by tests/format_test.sh and tests/tidy_test.sh (sourced, not run): which clang tool to
# use and which C++ files to give it.

# Prints the path of clang tool $1 (clang-format, clang-tidy) of major version
# 14, the one the checked-in settings are written for: NAME-14, else NAME when it is version 14.
# Prints nothing when there is none (another version formats and warns differently).
clang_tool() {
  local name=$1 path
  path=$(command -v "$name-14" 2>/dev/null) && { echo "$path"; return; }
  path=$(command -v "$name" 2>/dev/null) || return 0
  if "$path" --version 2>/dev/null | grep -q 'version 14\.'; then echo "$path"; fi
  return 0
}

# Prints, NUL-separated and relative to the current directory (the source dir), the C++ files
# of the repository: the tracked and new unignored ones in a git checkout, every file but
# builds and the fetched corpus otherwise (a release tarball).
cxx_sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
     [ -z "$(git rev-parse --show-prefix)" ]; then
    git ls-files -z --cached --others --exclude-standard -- '*.cc' '*.h' |
      while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done
  else
    find . -type f \( -name '*.cc' -o -name '*.h' \) ! -path './.git/*' ! -path './build*' \
      ! -path './corpus/*' ! -path './dist/*' -print0 | sed -z 's|^\./||'
  fi
}
