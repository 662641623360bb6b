// Tests of the command line.
#include "webhook/flags.h"

#include <doctest/doctest.h>

#include <vector>

namespace jobset::webhook {
namespace {

FlagsResult Parse(std::vector<const char*> args, WebhookConfig* c, std::string* err) {
  args.insert(args.begin(), "jobset-webhook");
  std::string out;
  return ParseFlags(static_cast<int>(args.size()), args.data(), c, &out, err);
}

}  // namespace

TEST_CASE("flags: durations in Go's syntax") {
  std::chrono::milliseconds d;
  REQUIRE(ParseDuration("10s", &d));
  CHECK(d.count() == 10000);
  REQUIRE(ParseDuration("500ms", &d));
  CHECK(d.count() == 500);
  REQUIRE(ParseDuration("1m30s", &d));
  CHECK(d.count() == 90000);
  REQUIRE(ParseDuration("1.5s", &d));
  CHECK(d.count() == 1500);
  REQUIRE(ParseDuration("2h", &d));
  CHECK(d.count() == 7200000);
  REQUIRE(ParseDuration("3", &d));
  CHECK(d.count() == 3000);
  CHECK_FALSE(ParseDuration("", &d));
  CHECK_FALSE(ParseDuration("s", &d));
  CHECK_FALSE(ParseDuration("10x", &d));
  CHECK_FALSE(ParseDuration("-1s", &d));
  CHECK_FALSE(ParseDuration("1..2s", &d));
}

TEST_CASE("flags: TLS versions") {
  int v = 0;
  REQUIRE(ParseTlsVersion("VersionTLS12", &v));
  CHECK(v == TLS1_2_VERSION);
  REQUIRE(ParseTlsVersion("VersionTLS13", &v));
  CHECK(v == TLS1_3_VERSION);
  CHECK_FALSE(ParseTlsVersion("VersionTLS11", &v));
}

TEST_CASE("flags: defaults and the contract's flags") {
  WebhookConfig c;
  std::string err;
  REQUIRE(Parse({"--tls-cert-file", "c.pem", "--tls-private-key-file", "k.pem"}, &c, &err) ==
          FlagsResult::kRun);
  CHECK(c.port == 9443);
  CHECK(c.health_port == 8081);
  CHECK(c.tls.min_version == TLS1_2_VERSION);
  CHECK(c.tls.client_ca_file.empty());
  CHECK(c.max_body_bytes == 7u << 20);
  CHECK(c.keep_alive_max_requests > 5);
  CHECK(c.child_objects == ChildObjects::kWarn);

  WebhookConfig d;
  REQUIRE(Parse({"--tls-cert-file",
                 "c",
                 "--tls-private-key-file",
                 "k",
                 "--port",
                 "0",
                 "--health-port",
                 "0",
                 "--feature-gates",
                 "RestartJob=true,ElasticJobSet=true",
                 "--client-ca-file",
                 "ca.pem",
                 "--tls-min-version",
                 "VersionTLS13",
                 "--cert-poll-interval",
                 "1s",
                 "--read-timeout",
                 "2s",
                 "--keep-alive-timeout",
                 "3s",
                 "--shutdown-delay",
                 "250ms",
                 "--child-objects",
                 "deny"},
                &d, &err) == FlagsResult::kRun);
  CHECK(d.port == 0);
  CHECK(d.gates.restart_job);
  CHECK(d.gates.elastic_jobset);
  CHECK_FALSE(d.gates.in_place_restart);
  CHECK(d.tls.client_ca_file == "ca.pem");
  CHECK(d.tls.min_version == TLS1_3_VERSION);
  CHECK(d.cert_poll_interval.count() == 1000);
  CHECK(d.read_timeout.count() == 2000);
  CHECK(d.keep_alive_timeout.count() == 3000);
  CHECK(d.shutdown_delay.count() == 250);
  CHECK(d.child_objects == ChildObjects::kDeny);
}

TEST_CASE("flags: usage errors") {
  WebhookConfig c;
  std::string err;
  CHECK(Parse({}, &c, &err) == FlagsResult::kUsageError);
  CHECK(err.find("--tls-cert-file") != std::string::npos);
  err.clear();
  CHECK(
      Parse({"--tls-cert-file", "c", "--tls-private-key-file", "k", "--feature-gates", "Nope=true"},
            &c, &err) == FlagsResult::kUsageError);
  CHECK(err.find("--feature-gates") != std::string::npos);
  err.clear();
  CHECK(Parse({"--tls-cert-file", "c", "--tls-private-key-file", "k", "--child-objects", "block"},
              &c, &err) == FlagsResult::kUsageError);
  CHECK(err == "error: --child-objects must be warn or deny, got block\n");
  err.clear();
  CHECK(Parse({"--tls-cert-file", "c", "--tls-private-key-file", "k", "--tls-min-version", "1.1"},
              &c, &err) == FlagsResult::kUsageError);
  err.clear();
  CHECK(Parse({"--tls-cert-file", "c", "--tls-private-key-file", "k", "--read-timeout", "soon"}, &c,
              &err) == FlagsResult::kUsageError);
  CHECK(Parse({"--version"}, &c, &err) == FlagsResult::kExitOk);
}

TEST_CASE("flags: --help names both kinds served; a flag given twice takes the last value") {
  WebhookConfig c;
  std::vector<const char*> help = {"jobset-webhook", "--help"};
  std::string out, err;
  CHECK(ParseFlags(2, help.data(), &c, &out, &err) == FlagsResult::kExitOk);
  CHECK(out.find("JobSets and Volcano Jobs") != std::string::npos);
  CHECK(Parse({"--tls-cert-file", "c", "--tls-private-key-file", "k", "--port", "1", "--port", "2",
               "--tls-cert-file", "d"},
              &c, &err) == FlagsResult::kRun);
  CHECK(c.port == 2);
  CHECK(c.cert_file == "d");
}

}  // namespace jobset::webhook
