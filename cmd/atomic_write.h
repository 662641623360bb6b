// Replacing a file's contents atomically, for `lint --fix`.
#pragma once

#include <string>
#include <string_view>

namespace jobset {

/// Writes `content` to a temporary file beside `path` (beside its target, for a symbolic link,
/// which stays a link), gives it the file's permission bits, and renames it over the file:
/// readers see the old or the new contents, never a part. False with a message on failure
/// (the file is then unchanged).
bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error);

}  // namespace jobset
