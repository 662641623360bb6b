#include "webhook/metrics.h"

#include <charconv>
#include <cstdio>

namespace jobset::webhook {
namespace {

std::string Number(double v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// Bucket bounds as people write them ("0.0005", not "5e-04").
std::string Bound(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Label values are ours (paths, fixed words), but escape them as the format requires anyway.
std::string Label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

void Metrics::ObserveRequest(std::string_view path, std::string_view verdict, int code,
                             double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++requests_[{std::string(path), std::string(verdict), code}];
  Histogram& h = latency_[std::string(path)];
  ++h.count;
  h.sum += seconds;
  for (size_t i = 0; i < kLatencyBuckets.size(); ++i) {
    if (seconds <= kLatencyBuckets[i]) {
      ++h.buckets[i];
      break;
    }
  }
}

std::string Metrics::Render() const {
  std::string out;
  out +=
      "# HELP jobset_webhook_requests_total Admission requests answered, by path, verdict and "
      "HTTP status.\n"
      "# TYPE jobset_webhook_requests_total counter\n";
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [key, count] : requests_) {
    const auto& [path, verdict, code] = key;
    out += "jobset_webhook_requests_total{path=\"" + Label(path) + "\",verdict=\"" +
           Label(verdict) + "\",code=\"" + std::to_string(code) + "\"} " + std::to_string(count) +
           "\n";
  }
  out +=
      "# HELP jobset_webhook_request_duration_seconds Time to decide on a request, from the "
      "body read to the reply.\n"
      "# TYPE jobset_webhook_request_duration_seconds histogram\n";
  for (const auto& [path, h] : latency_) {
    uint64_t cumulative = 0;
    std::string p = Label(path);
    for (size_t i = 0; i < kLatencyBuckets.size(); ++i) {
      cumulative += h.buckets[i];
      out += "jobset_webhook_request_duration_seconds_bucket{path=\"" + p + "\",le=\"" +
             Bound(kLatencyBuckets[i]) + "\"} " + std::to_string(cumulative) + "\n";
    }
    out += "jobset_webhook_request_duration_seconds_bucket{path=\"" + p + "\",le=\"+Inf\"} " +
           std::to_string(h.count) + "\n";
    out +=
        "jobset_webhook_request_duration_seconds_sum{path=\"" + p + "\"} " + Number(h.sum) + "\n";
    out += "jobset_webhook_request_duration_seconds_count{path=\"" + p + "\"} " +
           std::to_string(h.count) + "\n";
  }
  out +=
      "# HELP jobset_webhook_requests_in_flight Admission requests being handled.\n"
      "# TYPE jobset_webhook_requests_in_flight gauge\n"
      "jobset_webhook_requests_in_flight " +
      std::to_string(in_flight_.load()) +
      "\n"
      "# HELP jobset_webhook_tls_handshake_errors_total TLS handshakes that did not complete.\n"
      "# TYPE jobset_webhook_tls_handshake_errors_total counter\n"
      "jobset_webhook_tls_handshake_errors_total " +
      std::to_string(handshake_errors_.load()) +
      "\n"
      "# HELP jobset_webhook_certificate_reloads_total Serving certificate pairs loaded from "
      "disk.\n"
      "# TYPE jobset_webhook_certificate_reloads_total counter\n"
      "jobset_webhook_certificate_reloads_total " +
      std::to_string(cert_reloads_.load()) +
      "\n"
      "# HELP jobset_webhook_certificate_read_errors_total Certificate files that could not be "
      "used (the previous pair is kept).\n"
      "# TYPE jobset_webhook_certificate_read_errors_total counter\n"
      "jobset_webhook_certificate_read_errors_total " +
      std::to_string(cert_errors_.load()) +
      "\n"
      "# HELP jobset_webhook_certificate_expiry_timestamp_seconds notAfter of the serving "
      "certificate (Unix time; 0 before one is loaded).\n"
      "# TYPE jobset_webhook_certificate_expiry_timestamp_seconds gauge\n"
      "jobset_webhook_certificate_expiry_timestamp_seconds " +
      std::to_string(cert_expiry_.load()) + "\n";
  return out;
}

}  // namespace jobset::webhook
