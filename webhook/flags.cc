#include "webhook/flags.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <sstream>

namespace jobset::webhook {
namespace {

// Binds a duration flag given as text.
void DurationFlag(CLI::App& app, const std::string& name, std::chrono::milliseconds* target,
                  const std::string& help) {
  app.add_option_function<std::string>(
         name,
         [target, name](const std::string& text) {
           if (!ParseDuration(text, target)) {
             throw CLI::ValidationError(name, "not a duration (e.g. 10s, 500ms, 1m): " + text);
           }
         },
         help)
      ->default_str(target->count() % 1000 == 0 ? std::to_string(target->count() / 1000) + "s"
                                                : std::to_string(target->count()) + "ms");
}

}  // namespace

bool ParseDuration(std::string_view text, std::chrono::milliseconds* out) {
  std::string s(text);
  if (s.empty()) return false;
  if (s.find_first_not_of("0123456789.") == std::string::npos) s += "s";  // Bare seconds.
  double total_ms = 0;
  size_t i = 0;
  while (i < s.size()) {
    size_t start = i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    if (i == start) return false;
    double value;
    auto res = std::from_chars(s.data() + start, s.data() + i, value);
    if (res.ec != std::errc() || res.ptr != s.data() + i) return false;
    size_t unit_start = i;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    std::string_view unit(s.data() + unit_start, i - unit_start);
    double scale;
    if (unit == "ms") {
      scale = 1;
    } else if (unit == "s") {
      scale = 1000;
    } else if (unit == "m") {
      scale = 60'000;
    } else if (unit == "h") {
      scale = 3'600'000;
    } else {
      return false;
    }
    total_ms += value * scale;
  }
  *out = std::chrono::milliseconds(static_cast<int64_t>(total_ms + 0.5));
  return true;
}

bool ParseTlsVersion(std::string_view text, int* out) {
  if (text == "VersionTLS12" || text == "1.2") {
    *out = TLS1_2_VERSION;
    return true;
  }
  if (text == "VersionTLS13" || text == "1.3") {
    *out = TLS1_3_VERSION;
    return true;
  }
  return false;
}

FlagsResult ParseFlags(int argc, const char* const* argv, WebhookConfig* config, std::string* out,
                       std::string* err) {
  CLI::App app{
      "jobset-webhook: validating and mutating admission webhook for JobSets and Volcano Jobs "
      "(batch.volcano.sh/v1alpha1), with the same verdicts as `kubectl jobset lint`.",
      "jobset-webhook"};
  // A flag given twice takes the last value, as Kubernetes components' flags do.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  WebhookConfig& c = *config;
  bool version = false;
  std::string gates, tls_min = "VersionTLS12", child_objects = "warn";
  app.add_option("--tls-cert-file", c.cert_file,
                 "PEM certificate chain (leaf first); reloaded when it changes")
      ->required();
  app.add_option("--tls-private-key-file", c.key_file, "PEM private key of the certificate")
      ->required();
  app.add_option("--port", c.port, "HTTPS port (0 = any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  app.add_option("--bind-address", c.bind_address, "HTTPS listen address")->capture_default_str();
  app.add_option("--health-port", c.health_port,
                 "plain HTTP port for /healthz, /readyz and /metrics (0 = any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  app.add_option("--health-bind-address", c.health_bind_address, "health listen address")
      ->capture_default_str();
  app.add_option("--feature-gates", gates,
                 "JobSet feature gates, e.g. RestartJob=true,InPlaceRestart=true,"
                 "ElasticJobSet=true (all default to false)");
  app.add_option("--child-objects", child_objects,
                 "a JobSet whose child Jobs the API server would refuse: warn (admit it with "
                 "warnings, as upstream does) or deny (reject it)")
      ->capture_default_str();
  app.add_option("--client-ca-file", c.tls.client_ca_file,
                 "PEM CA bundle: when set, clients must present a certificate it verifies");
  app.add_option("--tls-min-version", tls_min, "VersionTLS12 or VersionTLS13")
      ->capture_default_str();
  DurationFlag(app, "--cert-poll-interval", &c.cert_poll_interval,
               "how often the certificate files are read to pick up a rotation (e.g. 1s-10s)");
  DurationFlag(app, "--read-timeout", &c.read_timeout,
               "longest wait for data from a client (TLS handshake, request)");
  DurationFlag(app, "--write-timeout", &c.write_timeout, "longest wait to send to a client");
  DurationFlag(app, "--keep-alive-timeout", &c.keep_alive_timeout,
               "idle time after which a kept-alive connection is closed (also bounds shutdown)");
  app.add_option("--keep-alive-max-requests", c.keep_alive_max_requests,
                 "requests served on one connection before it is closed")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{1} << 30));
  app.add_option("--max-body-bytes", c.max_body_bytes,
                 "largest request body accepted (larger: HTTP 413)")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1024}, size_t{1} << 30));
  app.add_option("--max-json-depth", c.max_json_depth,
                 "deepest JSON nesting accepted in a request body")
      ->capture_default_str()
      ->check(CLI::Range(16, 2000));  // Deeper would strain the recursive validators.
  app.add_option(
         "--max-connections", c.max_connections,
         "HTTPS connections served at once (one thread and ~0.4 MiB each); more wait in line")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{100000}));
  app.add_option("--listen-backlog", c.listen_backlog, "listen queue length of both ports")
      ->capture_default_str()
      ->check(CLI::Range(1, 65535));
  DurationFlag(app, "--shutdown-delay", &c.shutdown_delay,
               "on SIGTERM, keep serving (while /readyz fails) this long before closing the "
               "port, so that endpoints are updated first");
  DurationFlag(app, "--shutdown-timeout", &c.shutdown_timeout,
               "longest wait for in-flight requests after the port is closed; exit 1 beyond");
  app.add_flag("--version", version, "print the version and exit");
  std::ostringstream out_stream, err_stream;
  try {
    // --version needs no certificate.
    for (int i = 1; i < argc; ++i) {
      if (std::string_view(argv[i]) == "--version") {
        *out = std::string("jobset-webhook ") + JOBSET_VERSION + "\n";
        return FlagsResult::kExitOk;
      }
    }
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e, out_stream, err_stream);
    *out = out_stream.str();
    *err = err_stream.str();
    return code == 0 ? FlagsResult::kExitOk : FlagsResult::kUsageError;
  }
  std::string error;
  if (!gates.empty() && !ParseFeatureGates(gates, &c.gates, &error)) {
    *err = "error: --feature-gates: " + error + "\n";
    return FlagsResult::kUsageError;
  }
  if (!ParseChildObjects(child_objects, &c.child_objects)) {
    *err = "error: --child-objects must be warn or deny, got " + child_objects + "\n";
    return FlagsResult::kUsageError;
  }
  if (!ParseTlsVersion(tls_min, &c.tls.min_version)) {
    *err = "error: --tls-min-version must be VersionTLS12 or VersionTLS13, got " + tls_min + "\n";
    return FlagsResult::kUsageError;
  }
  if (c.cert_poll_interval < std::chrono::milliseconds(100) ||
      c.cert_poll_interval > std::chrono::minutes(10)) {
    *err = "error: --cert-poll-interval must be between 100ms and 10m\n";
    return FlagsResult::kUsageError;
  }
  for (auto [name, value] :
       {std::pair{"--read-timeout", c.read_timeout}, std::pair{"--write-timeout", c.write_timeout},
        std::pair{"--keep-alive-timeout", c.keep_alive_timeout}}) {
    if (value < std::chrono::milliseconds(100)) {
      *err = std::string("error: ") + name + " must be at least 100ms\n";
      return FlagsResult::kUsageError;
    }
  }
  return FlagsResult::kRun;
}

}  // namespace jobset::webhook
