// SHA-1, for the values controllers derive with it (the JobSet controller's job-key label).
#pragma once

#include <string>
#include <string_view>

namespace jobset {

/// The SHA-1 digest of `data` as 40 lowercase hex digits (Go's hex.EncodeToString(sha1.Sum)).
std::string Sha1Hex(std::string_view data);

}  // namespace jobset
