// Replacing a file's contents atomically, for `lint --fix`.
#pragma once

#include <string>
#include <string_view>

namespace jobset {

/// Replaces the contents of `path` (of its target, for a symbolic link, which stays a link)
/// with `content`, keeping what `--fix` does not own to change: the owner and group, the
/// permission bits and the file's identity.
///
/// Normally the content goes to a temporary file beside the file, which gets the file's owner,
/// group and permission bits, is synced, and is renamed over the file; the folder is synced
/// after: readers see the old or the new contents, never a part. Where renaming would break
/// something, the file is rewritten in place instead (and synced): when it has several hard
/// links (a new inode would leave the other names with the old contents), and when the
/// temporary file cannot be given the file's owner or group (the caller is not root and does
/// not own the file). False with a message on failure; the file is then unchanged, except
/// after a failed in-place write.
bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error);

}  // namespace jobset
