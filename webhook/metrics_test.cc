// Tests of the Prometheus rendering.
#include "webhook/metrics.h"

#include <doctest/doctest.h>

namespace jobset::webhook {

TEST_CASE("metrics: counters, gauges and a cumulative histogram") {
  Metrics m;
  m.ObserveRequest("/validate", "allowed", 200, 0.0003);
  m.ObserveRequest("/validate", "allowed", 200, 0.002);
  m.ObserveRequest("/validate", "denied", 200, 10);
  m.CountHandshakeError();
  m.CountCertificateReload(true);
  m.CountCertificateReload(false);
  m.SetCertificateExpiry(1700000000);
  m.AddInFlight(2);
  m.AddInFlight(-1);
  std::string text = m.Render();
  CHECK(text.find("jobset_webhook_requests_total{path=\"/validate\",verdict=\"allowed\","
                  "code=\"200\"} 2\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_requests_total{path=\"/validate\",verdict=\"denied\","
                  "code=\"200\"} 1\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_request_duration_seconds_bucket{path=\"/validate\","
                  "le=\"0.00025\"} 0\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_request_duration_seconds_bucket{path=\"/validate\","
                  "le=\"0.0005\"} 1\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_request_duration_seconds_bucket{path=\"/validate\","
                  "le=\"0.0025\"} 2\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_request_duration_seconds_bucket{path=\"/validate\","
                  "le=\"2.5\"} 2\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_request_duration_seconds_bucket{path=\"/validate\","
                  "le=\"+Inf\"} 3\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_request_duration_seconds_count{path=\"/validate\"} 3\n") !=
        std::string::npos);
  CHECK(text.find("jobset_webhook_tls_handshake_errors_total 1\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_certificate_reloads_total 1\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_certificate_read_errors_total 1\n") != std::string::npos);
  CHECK(text.find("jobset_webhook_certificate_expiry_timestamp_seconds 1700000000\n") !=
        std::string::npos);
  CHECK(text.find("jobset_webhook_requests_in_flight 1\n") != std::string::npos);
  CHECK(text.find("# TYPE jobset_webhook_request_duration_seconds histogram\n") !=
        std::string::npos);
  CHECK(m.handshake_errors() == 1);
}

}  // namespace jobset::webhook
