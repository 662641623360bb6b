// Leaving paths out of a lint run: `--exclude GLOB` and a config file's `ignorePaths`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// Whether `path` (with '/' separators) matches the glob `pattern` whole: `*` matches any run of
/// characters but '/', `?` one character but '/', `[abc]`/`[a-z]`/`[!a]` one of a set, and `**`
/// any run of characters including '/' (`**/` also none: `a/**/b` matches `a/b`).
bool GlobMatch(std::string_view pattern, std::string_view path);

/// Whether `path` is excluded by one of `patterns`, gitignore-style. A pattern without a '/'
/// (`values.yaml`, `*.tpl.yaml`, `charts`) matches any single file or folder name in the path.
/// A pattern with a '/' (`deploy/charts`, `**/templates/*.yaml`) matches the path from its
/// start, or a folder the path is in (`deploy/charts` excludes `deploy/charts/x/values.yaml`).
/// A leading "./" (of pattern or path) and a trailing '/' of the pattern are ignored.
bool PathExcluded(const std::vector<std::string>& patterns, std::string_view path);

}  // namespace jobset
