// The webhook's Prometheus metrics, rendered in the text exposition format.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>

namespace jobset::webhook {

/// Counters, gauges and a latency histogram, updated from any thread.
///
/// Label values are bounded by the callers: `path` is one of the served paths or "other",
/// `verdict` one of a handful of words, `code` an HTTP status.
class Metrics {
 public:
  /// Upper bounds (seconds) of the latency histogram buckets; +Inf is implicit.
  static constexpr std::array<double, 12> kLatencyBuckets = {
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5};

  /// One answered request: its path, verdict ("allowed", "patched", "denied", "invalid",
  /// "bad_request", ...), HTTP status and handling time.
  void ObserveRequest(std::string_view path, std::string_view verdict, int code, double seconds);
  /// A request started (+1) or finished (-1).
  void AddInFlight(int delta) { in_flight_ += delta; }
  /// A TLS handshake that did not complete (bad client certificate, protocol error, timeout).
  void CountHandshakeError() { ++handshake_errors_; }
  /// A certificate reload attempt that changed the serving pair (ok) or failed (!ok).
  void CountCertificateReload(bool ok) { ++(ok ? cert_reloads_ : cert_errors_); }
  /// The notAfter time of the serving certificate, as a Unix timestamp.
  void SetCertificateExpiry(int64_t unix_seconds) { cert_expiry_ = unix_seconds; }

  /// Value of the handshake error counter (for tests and logs).
  uint64_t handshake_errors() const { return handshake_errors_; }

  /// All metrics in the Prometheus text format (version 0.0.4).
  std::string Render() const;

 private:
  struct Histogram {
    std::array<uint64_t, kLatencyBuckets.size()> buckets{};  // Non-cumulative.
    uint64_t count = 0;
    double sum = 0;
  };

  mutable std::mutex mu_;
  std::map<std::tuple<std::string, std::string, int>, uint64_t> requests_;
  std::map<std::string, Histogram> latency_;
  std::atomic<int64_t> in_flight_{0};
  std::atomic<uint64_t> handshake_errors_{0};
  std::atomic<uint64_t> cert_reloads_{0};
  std::atomic<uint64_t> cert_errors_{0};
  std::atomic<int64_t> cert_expiry_{0};
};

}  // namespace jobset::webhook
