// The jobset-webhook command line.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "validation/jobset/feature_gates.h"
#include "webhook/admission_response.h"
#include "webhook/tls_context.h"

namespace jobset::webhook {

/// Everything the server is configured with (see README.md for the flags).
struct WebhookConfig {
  std::string cert_file, key_file;
  std::string bind_address = "0.0.0.0";
  int port = 9443;
  std::string health_bind_address = "0.0.0.0";
  int health_port = 8081;
  FeatureGates gates;
  /// --child-objects: what a JobSet whose child Jobs would be refused gets.
  ChildObjects child_objects = ChildObjects::kWarn;
  TlsOptions tls;
  std::chrono::milliseconds cert_poll_interval{10'000};
  std::chrono::milliseconds read_timeout{10'000};
  std::chrono::milliseconds write_timeout{10'000};
  std::chrono::milliseconds keep_alive_timeout{10'000};
  size_t keep_alive_max_requests = 1000;
  size_t max_body_bytes = 7u << 20;
  int max_json_depth = 1000;
  size_t max_connections = 1024;
  int listen_backlog = 1024;
  std::chrono::milliseconds shutdown_delay{0};
  std::chrono::milliseconds shutdown_timeout{25'000};
};

/// What ParseFlags decided.
enum class FlagsResult { kRun, kExitOk, kUsageError };

/// Parses argv into `config`. Help and --version print to `out` and give kExitOk; an error
/// prints to `err` and gives kUsageError.
FlagsResult ParseFlags(int argc, const char* const* argv, WebhookConfig* config, std::string* out,
                       std::string* err);

/// Parses a Go-style duration: "10s", "500ms", "1m30s", "2h"; a bare number is seconds.
/// Gives false for anything else or a negative value.
bool ParseDuration(std::string_view text, std::chrono::milliseconds* out);

/// Parses "VersionTLS12" / "VersionTLS13" (Kubernetes' spelling; "1.2" and "1.3" too).
bool ParseTlsVersion(std::string_view text, int* out);

}  // namespace jobset::webhook
