// An in-process smoke test of the server over real TLS on loopback (the full behaviour is
// tested by tests/webhook_test.sh against the binary).
#include "webhook/server.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "webhook/test_certs.h"

namespace jobset::webhook {
namespace {

namespace fs = std::filesystem;

struct Fixture {
  fs::path dir;
  testing::TestCa ca;
  int null_fd = open("/dev/null", O_WRONLY);
  Logger log{null_fd};
  Metrics metrics;
  std::unique_ptr<CertificateStore> store;
  std::unique_ptr<WebhookServer> server;

  Fixture() {
    char tmpl[] = "/tmp/jobset-webhook-server-XXXXXX";
    dir = mkdtemp(tmpl);
    testing::PemPair pair = ca.Issue("localhost", "DNS:localhost,IP:127.0.0.1", 7);
    std::ofstream(dir / "tls.crt") << pair.cert;
    std::ofstream(dir / "tls.key") << pair.key;
    std::ofstream(dir / "ca.crt") << ca.CertPem();
    WebhookConfig config;
    config.cert_file = (dir / "tls.crt").string();
    config.key_file = (dir / "tls.key").string();
    config.bind_address = config.health_bind_address = "127.0.0.1";
    config.port = config.health_port = 0;
    store = std::make_unique<CertificateStore>(config.cert_file, config.key_file);
    std::string error;
    REQUIRE(store->Reload(&error) == ReloadResult::kLoaded);
    server = std::make_unique<WebhookServer>(config, store.get(), &log, &metrics);
    REQUIRE_MESSAGE(server->Bind(&error), error);
    server->Start();
  }
  ~Fixture() {
    server->Stop();
    fs::remove_all(dir);
    close(null_fd);
  }
  std::unique_ptr<httplib::SSLClient> Client() {
    auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", server->port());
    c->set_ca_cert_path((dir / "ca.crt").c_str());
    c->enable_server_certificate_verification(true);
    c->set_keep_alive(true);
    return c;
  }
};

constexpr char kReview[] =
    R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u1",
    "kind":{"group":"jobset.x-k8s.io","version":"v1alpha2","kind":"JobSet"},"operation":"CREATE",
    "object":{"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet","metadata":{"name":"js"},
    "spec":{"replicatedJobs":[{"name":"w","template":{"spec":{"template":{"spec":{
    "containers":[{"name":"c","image":"i"}]}}}}}]}}}})";

}  // namespace

TEST_CASE("server: admission over TLS, routing on the path, health and metrics") {
  Fixture f;
  std::unique_ptr<httplib::SSLClient> owned = f.Client();
  httplib::SSLClient& client = *owned;
  auto res = client.Post((std::string(kValidateJobSetPath) + "?timeout=10s").c_str(), kReview,
                         "application/json");
  REQUIRE_MESSAGE(res, httplib::to_string(res.error()));
  CHECK(res->status == 200);
  auto j = nlohmann::json::parse(res->body);
  CHECK(j["response"]["uid"] == "u1");
  CHECK(j["response"]["allowed"] == true);
  // Several requests on the same connection (0.11.4 would close it after 5).
  for (int i = 0; i < 12; ++i) {
    auto again = client.Post(kMutateJobSetPath, kReview, "application/json");
    REQUIRE(again);
    CHECK(again->status == 200);
    CHECK(again->get_header_value("Connection") != "close");
  }
  // No compression, even when asked for, as kube-apiserver's Go client always does.
  client.set_decompress(false);
  auto plain = client.Post(kValidateJobSetPath, {{"Accept-Encoding", "gzip, deflate, br"}}, kReview,
                           "application/json");
  REQUIRE(plain);
  CHECK(plain->status == 200);
  CHECK(plain->get_header_value("Content-Encoding").empty());
  CHECK(nlohmann::json::parse(plain->body)["response"]["uid"] == "u1");
  client.set_decompress(true);
  // The Volcano paths are served too: a review gets a review back (a JobSet sent there is
  // not theirs to judge), a body that is none gets 400.
  for (const char* path : {kValidateVolcanoPath, kMutateVolcanoPath}) {
    auto volcano = client.Post(path, kReview, "application/json");
    REQUIRE(volcano);
    CHECK(volcano->status == 200);
    CHECK(nlohmann::json::parse(volcano->body)["response"]["allowed"] == true);
    auto not_review = client.Post(path, "{}", "application/json");
    REQUIRE(not_review);
    CHECK(not_review->status == 400);
  }
  auto get = client.Get(kValidateJobSetPath);
  REQUIRE(get);
  CHECK(get->status == 405);
  auto missing = client.Post("/nope", "{}", "application/json");
  REQUIRE(missing);
  CHECK(missing->status == 404);
  CHECK(nlohmann::json::parse(missing->body)["code"] == 404);
  auto not_review = client.Post(kValidateJobSetPath, "{}", "application/json");
  REQUIRE(not_review);
  CHECK(not_review->status == 400);

  httplib::Client health("127.0.0.1", f.server->health_port());
  CHECK(health.Get("/healthz")->status == 200);
  CHECK(health.Get("/readyz")->status == 200);
  auto metrics = health.Get("/metrics");
  REQUIRE(metrics);
  CHECK(metrics->body.find("jobset_webhook_requests_total{path=\"" +
                           std::string(kMutateJobSetPath) +
                           "\",verdict=\"patched\",code=\"200\"} 12") != std::string::npos);
  f.server->BeginDrain();
  CHECK(health.Get("/readyz")->status == 503);
  auto draining = client.Post(kValidateJobSetPath, kReview, "application/json");
  REQUIRE(draining);
  CHECK(draining->get_header_value("Connection") == "close");
}

}  // namespace jobset::webhook
