// libFuzzer target: bytes as JSON text (a webhook request body) through ParseJson, then the
// round trip: what parses is written back as JSON and must parse again to an equal value.
// docs/fuzzing.md says how to run it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "validation/core/json_node.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  jobset::JsonParseLimits limits;
  jobset::Node parsed;
  std::string error;
  if (!jobset::ParseJson(text, limits, &parsed, &error)) {
    if (error.empty()) __builtin_trap();  // A refusal always says why.
    return 0;
  }
  std::string written = jobset::NodeToJsonText(parsed);
  jobset::Node again;
  if (!jobset::ParseJson(written, limits, &again, &error)) __builtin_trap();
  if (!(again == parsed)) __builtin_trap();
  return 0;
}
