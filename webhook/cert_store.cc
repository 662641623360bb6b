#include "webhook/cert_store.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include <ctime>
#include <fstream>
#include <sstream>
#include <utility>

namespace jobset::webhook {
namespace {

constexpr size_t kMaxPemBytes = 1 << 20;

// The oldest OpenSSL error queued on this thread, as text; clears the queue.
std::string OpenSslError(const std::string& what) {
  unsigned long code = ERR_get_error();  // NOLINT(runtime/int): OpenSSL's type.
  ERR_clear_error();
  if (code == 0) return what;
  char buf[256];
  ERR_error_string_n(code, buf, sizeof buf);
  return what + ": " + buf;
}

bool ReadSmallFile(const std::string& path, std::string* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  if (out->size() > kMaxPemBytes) {
    *error = path + " is larger than 1 MiB";
    return false;
  }
  return true;
}

std::unique_ptr<BIO, decltype(&BIO_free)> MemBio(const std::string& text) {
  return {BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), &BIO_free};
}

int64_t ToUnix(const ASN1_TIME* t) {
  std::tm tm{};
  if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return 0;
  return static_cast<int64_t>(timegm(&tm));
}

std::string SerialHex(X509* cert) {
  BIGNUM* bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), nullptr);
  if (!bn) return "";
  char* hex = BN_bn2hex(bn);
  std::string out = hex ? hex : "";
  OPENSSL_free(hex);
  BN_free(bn);
  return out;
}

std::string SubjectText(X509* cert) {
  char buf[512];
  X509_NAME_oneline(X509_get_subject_name(cert), buf, sizeof buf);
  return buf;
}

}  // namespace

std::shared_ptr<const CertificatePair> CertificatePair::Parse(const std::string& cert_pem,
                                                              const std::string& key_pem,
                                                              std::string* error) {
  ERR_clear_error();
  std::shared_ptr<CertificatePair> pair(new CertificatePair());
  auto cert_bio = MemBio(cert_pem);
  pair->leaf_ = PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr);
  if (!pair->leaf_) {
    *error = OpenSslError("no PEM certificate in the certificate file");
    return nullptr;
  }
  pair->chain_ = sk_X509_new_null();
  while (X509* extra = PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr)) {
    sk_X509_push(pair->chain_, extra);
  }
  // The loop ends on "no start line" at the end of the file; anything else is an error.
  unsigned long last = ERR_peek_last_error();  // NOLINT(runtime/int): OpenSSL's type.
  if (last != 0 &&
      !(ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE)) {
    *error = OpenSslError("bad certificate in the certificate file");
    return nullptr;
  }
  ERR_clear_error();
  auto key_bio = MemBio(key_pem);
  // A null password callback with an empty password: an encrypted key fails instead of
  // prompting on the terminal.
  pair->key_ = PEM_read_bio_PrivateKey(
      key_bio.get(), nullptr, [](char*, int, int, void*) { return 0; }, nullptr);
  if (!pair->key_) {
    *error = OpenSslError("no usable PEM private key in the key file");
    return nullptr;
  }
  if (X509_check_private_key(pair->leaf_, pair->key_) != 1) {
    *error = OpenSslError("the private key does not match the certificate");
    return nullptr;
  }
  pair->not_after_ = ToUnix(X509_get0_notAfter(pair->leaf_));
  pair->serial_ = SerialHex(pair->leaf_);
  pair->subject_ = SubjectText(pair->leaf_);
  return pair;
}

CertificatePair::~CertificatePair() {
  X509_free(leaf_);
  if (chain_) sk_X509_pop_free(chain_, X509_free);
  EVP_PKEY_free(key_);
}

CertificateStore::CertificateStore(std::string cert_file, std::string key_file)
    : cert_file_(std::move(cert_file)), key_file_(std::move(key_file)) {}

CertificateStore::~CertificateStore() { StopPolling(); }

ReloadResult CertificateStore::Reload(std::string* error) {
  std::lock_guard<std::mutex> reload_lock(reload_mu_);
  std::string cert_pem, key_pem;
  if (!ReadSmallFile(cert_file_, &cert_pem, error) || !ReadSmallFile(key_file_, &key_pem, error)) {
    // A missing file is reported once, not at every poll.
    if (*error == last_read_error_) return ReloadResult::kUnchanged;
    last_read_error_ = *error;
    return ReloadResult::kFailed;
  }
  last_read_error_.clear();
  // Nothing new: skip, whether that content was served or already refused (a broken pair is
  // reported once, not at every poll).
  if (tried_ && cert_pem == last_cert_pem_ && key_pem == last_key_pem_) {
    return ReloadResult::kUnchanged;
  }
  tried_ = true;
  last_cert_pem_ = cert_pem;
  last_key_pem_ = key_pem;
  std::shared_ptr<const CertificatePair> pair = CertificatePair::Parse(cert_pem, key_pem, error);
  if (!pair) return ReloadResult::kFailed;
  std::lock_guard<std::mutex> lock(mu_);
  current_ = std::move(pair);
  return ReloadResult::kLoaded;
}

std::shared_ptr<const CertificatePair> CertificateStore::Current() const {
  std::lock_guard<std::mutex> lock(mu_);
  return current_;
}

void CertificateStore::StartPolling(std::chrono::milliseconds interval, Observer observer) {
  StopPolling();
  {
    std::lock_guard<std::mutex> lock(poll_mu_);
    stop_ = false;
  }
  poller_ = std::thread([this, interval, observer = std::move(observer)] {
    std::unique_lock<std::mutex> lock(poll_mu_);
    for (;;) {
      if (poll_cv_.wait_for(lock, interval, [this] { return stop_; })) return;
      lock.unlock();
      std::string error;
      ReloadResult result = Reload(&error);
      if (result != ReloadResult::kUnchanged && observer) {
        std::shared_ptr<const CertificatePair> now = Current();
        observer(result, now.get(), error);
      }
      lock.lock();
    }
  });
}

void CertificateStore::StopPolling() {
  {
    std::lock_guard<std::mutex> lock(poll_mu_);
    stop_ = true;
  }
  poll_cv_.notify_all();
  if (poller_.joinable()) poller_.join();
}

}  // namespace jobset::webhook
