// Tests of certificate loading and reloading.
#include "webhook/cert_store.h"

#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "webhook/test_certs.h"

namespace jobset::webhook {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/jobset-webhook-test-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string Write(const std::string& name, const std::string& text) const {
    // Replace atomically, as kubelet and cert-manager do.
    fs::path tmp = path / (name + ".tmp");
    std::ofstream(tmp, std::ios::binary) << text;
    fs::rename(tmp, path / name);
    return (path / name).string();
  }
};

}  // namespace

TEST_CASE("certs: a pair is parsed with its chain, expiry and serial") {
  testing::TestCa ca;
  testing::PemPair leaf = ca.Issue("localhost", "DNS:localhost,IP:127.0.0.1", 0x1234, 10);
  std::string error;
  auto pair = CertificatePair::Parse(leaf.cert + ca.CertPem(), leaf.key, &error);
  REQUIRE_MESSAGE(pair, error);
  CHECK(sk_X509_num(pair->chain()) == 1);
  CHECK(pair->serial() == "1234");
  CHECK(pair->subject() == "/CN=localhost");
  int64_t now = time(nullptr);
  CHECK(pair->not_after() > now + 9 * 86400);
  CHECK(pair->not_after() < now + 11 * 86400);
}

TEST_CASE("certs: broken and mismatched pairs are refused") {
  testing::TestCa ca;
  testing::PemPair a = ca.Issue("a", "DNS:a", 1);
  testing::PemPair b = ca.Issue("b", "DNS:b", 2);
  std::string error;
  CHECK_FALSE(CertificatePair::Parse("", a.key, &error));
  CHECK(error.find("no PEM certificate") == 0);
  CHECK_FALSE(CertificatePair::Parse(a.cert, "garbage", &error));
  CHECK(error.find("no usable PEM private key") == 0);
  CHECK_FALSE(CertificatePair::Parse(a.cert, b.key, &error));
  CHECK(error.find("the private key does not match the certificate") == 0);
  std::string truncated = a.cert + a.cert.substr(0, a.cert.size() / 2);
  CHECK_FALSE(CertificatePair::Parse(truncated, a.key, &error));
  CHECK(error.find("bad certificate") == 0);
}

TEST_CASE("certs: the store reloads changed files and keeps the old pair on error") {
  testing::TestCa ca;
  testing::PemPair first = ca.Issue("localhost", "DNS:localhost", 1);
  testing::PemPair second = ca.Issue("localhost", "DNS:localhost", 2);
  TempDir dir;
  std::string cert = dir.Write("tls.crt", first.cert);
  std::string key = dir.Write("tls.key", first.key);
  CertificateStore store(cert, key);
  CHECK_FALSE(store.Current());
  std::string error;
  CHECK(store.Reload(&error) == ReloadResult::kLoaded);
  REQUIRE(store.Current());
  CHECK(store.Current()->serial() == "01");
  CHECK(store.Reload(&error) == ReloadResult::kUnchanged);

  // Half-written rotation: new certificate, old key. Refused once, then quiet.
  dir.Write("tls.crt", second.cert);
  CHECK(store.Reload(&error) == ReloadResult::kFailed);
  CHECK(error.find("does not match") != std::string::npos);
  CHECK(store.Reload(&error) == ReloadResult::kUnchanged);
  CHECK(store.Current()->serial() == "01");
  dir.Write("tls.key", second.key);
  CHECK(store.Reload(&error) == ReloadResult::kLoaded);
  CHECK(store.Current()->serial() == "02");

  // A vanished file: reported once; the pair stays.
  std::filesystem::remove(cert);
  CHECK(store.Reload(&error) == ReloadResult::kFailed);
  CHECK(store.Reload(&error) == ReloadResult::kUnchanged);
  CHECK(store.Current()->serial() == "02");
  dir.Write("tls.crt", second.cert);
  CHECK(store.Reload(&error) == ReloadResult::kUnchanged);  // Same content as served.
}

TEST_CASE("certs: the poller reports what changed") {
  testing::TestCa ca;
  TempDir dir;
  testing::PemPair first = ca.Issue("localhost", "DNS:localhost", 1);
  std::string cert = dir.Write("tls.crt", first.cert);
  std::string key = dir.Write("tls.key", first.key);
  CertificateStore store(cert, key);
  std::string error;
  REQUIRE(store.Reload(&error) == ReloadResult::kLoaded);
  std::atomic<int> loaded{0}, failed{0};
  store.StartPolling(20ms, [&](ReloadResult r, const CertificatePair* pair, const std::string&) {
    if (r == ReloadResult::kLoaded && pair && pair->serial() == "03") ++loaded;
    if (r == ReloadResult::kFailed) ++failed;
  });
  testing::PemPair third = ca.Issue("localhost", "DNS:localhost", 3);
  // Key first, then certificate: in between the pair does not match.
  dir.Write("tls.key", third.key);
  for (int i = 0; i < 100 && failed == 0; ++i) std::this_thread::sleep_for(10ms);
  dir.Write("tls.crt", third.cert);
  for (int i = 0; i < 200 && loaded == 0; ++i) std::this_thread::sleep_for(10ms);
  store.StopPolling();
  CHECK(loaded == 1);
  CHECK(failed <= 1);
  CHECK(store.Current()->serial() == "03");
}

}  // namespace jobset::webhook
