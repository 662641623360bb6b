// libFuzzer target: bytes as the body of an admission request, through the webhook's whole
// socket-free path (HandleAdmission: parse the AdmissionReview, default, validate, patch),
// for the endpoint the first byte picks. docs/fuzzing.md says how to run it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "validation/schema/schema.h"
#include "webhook/admission_handler.h"

namespace {

jobset::webhook::AdmissionOptions Options() {
  jobset::webhook::AdmissionOptions options;
  options.lint.schema = jobset::BuiltinJobSetSchema();
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using jobset::webhook::Endpoint;
  static const jobset::webhook::AdmissionOptions options = Options();
  if (size < 1) return 0;
  static constexpr Endpoint kEndpoints[] = {Endpoint::kMutateJobSet, Endpoint::kValidateJobSet,
                                            Endpoint::kMutateVolcano, Endpoint::kValidateVolcano};
  Endpoint endpoint = kEndpoints[data[0] % 4];
  std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  jobset::webhook::HttpReply reply =
      jobset::webhook::HandleAdmission(endpoint, "application/json", body, options);
  // Every request gets an answer: 200 with a review, or 400 with a Status.
  if (reply.body.empty() || (reply.status != 200 && reply.status != 400)) __builtin_trap();
  return 0;
}
