// A Framework's words for people, written once for every face (explain, simulate, why).
#pragma once

#include <string>

#include "validation/framework/retry.h"

namespace jobset {

/// A completion status in a few words: its code, its phrase if any, and its type:
/// "-1000 PodEvicted {Failed [Transient]}" (the type as Go prints it).
std::string CompletionText(const CompletionStatus& s);

}  // namespace jobset
