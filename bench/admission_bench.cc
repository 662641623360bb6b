// The webhook's request handling without sockets: HandleAdmission on one AdmissionReview body,
// repeated, in one thread. It isolates the work per request (JSON parse, lint, reply) from TLS
// and HTTP, and is what callgrind counts instructions on. See bench/WEBHOOK.md.
//
//   admission_bench REQUEST.json [--requests N] [--endpoint validate|mutate]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "validation/schema/schema.h"
#include "webhook/admission_handler.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: admission_bench REQUEST.json [--requests N] [--endpoint E]\n");
    return 2;
  }
  long requests = 2000;
  auto endpoint = jobset::webhook::Endpoint::kValidateJobSet;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--requests") {
      requests = std::atol(argv[i + 1]);
    } else if (flag == "--endpoint" && std::string(argv[i + 1]) == "mutate") {
      endpoint = jobset::webhook::Endpoint::kMutateJobSet;
    }
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "admission_bench: cannot read %s\n", argv[1]);
    return 2;
  }
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  jobset::webhook::AdmissionOptions options;
  options.lint.schema = jobset::BuiltinJobSetSchema();
  // One request outside the clock: the first pays for lazily built tables.
  jobset::webhook::HttpReply first =
      jobset::webhook::HandleAdmission(endpoint, "application/json", body, options);
  if (first.status != 200) {
    std::fprintf(stderr, "admission_bench: HTTP %d: %s\n", first.status, first.error.c_str());
    return 1;
  }
  size_t bytes = 0;
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < requests; ++i) {
    bytes +=
        jobset::webhook::HandleAdmission(endpoint, "application/json", body, options).body.size();
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "{\"requests\": %ld, \"verdict\": \"%s\", \"us_per_request\": %.2f, \"reply_bytes\": %zu}\n",
      requests, first.verdict.c_str(), seconds * 1e6 / static_cast<double>(requests),
      bytes / static_cast<size_t>(requests));
  return 0;
}
