#include "validation/core/sha1.h"

#include <doctest/doctest.h>

#include <string>

namespace jobset {

TEST_CASE("sha1: the digests of the FIPS examples and of lengths around a block") {
  CHECK(Sha1Hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  CHECK(Sha1Hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
  // 63 bytes: the length no longer fits the first block.
  CHECK(Sha1Hex(std::string(63, '0')) == "70bc07198e6bcb86643b20d7fe3a75d6d19b8439");
  CHECK(Sha1Hex(std::string(1000, 'a')) == "291e9a6c66994949b57ba5e650361e98fc36b1ba");
  // The JobSet controller's job-key of Job pytorch-workers-0 in namespace default.
  CHECK(Sha1Hex("default/pytorch-workers-0") == "e9c32417bf7f6390f44a2ef26e6f278b2d102443");
}

}  // namespace jobset
