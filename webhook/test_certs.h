// Test-only: a throw-away CA and certificates it signs, made with OpenSSL in memory.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string>

namespace jobset::webhook::testing {

/// PEM texts of one certificate (leaf first, then its issuer unless self-signed) and its key.
struct PemPair {
  std::string cert, key;
};

/// A CA that issues P-256 certificates valid for `days` days.
class TestCa {
 public:
  /// A self-signed CA named `cn`.
  explicit TestCa(const std::string& cn = "test-ca")
      : key_(EVP_EC_gen("P-256")), cert_(X509_new()) {
    Fill(cert_.get(), cn, 1, 3650, key_.get());
    X509_set_issuer_name(cert_.get(), X509_get_subject_name(cert_.get()));
    AddExt(cert_.get(), cert_.get(), NID_basic_constraints, "critical,CA:TRUE");
    AddExt(cert_.get(), cert_.get(), NID_key_usage, "critical,keyCertSign,cRLSign");
    X509_sign(cert_.get(), key_.get(), EVP_sha256());
  }

  /// The CA certificate as PEM.
  std::string CertPem() const { return Pem(cert_.get()); }

  /// A leaf for `cn` with subjectAltName `sans` (e.g. "DNS:localhost,IP:127.0.0.1"),
  /// valid from now - 1 min to now + `days`. `client` adds clientAuth usage instead of
  /// serverAuth.
  PemPair Issue(const std::string& cn, const std::string& sans, long serial,  // NOLINT
                int days = 30, bool client = false) const {
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
    std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), &X509_free);
    Fill(cert.get(), cn, serial, days, key.get());
    X509_set_issuer_name(cert.get(), X509_get_subject_name(cert_.get()));
    if (!sans.empty()) AddExt(cert_.get(), cert.get(), NID_subject_alt_name, sans);
    AddExt(cert_.get(), cert.get(), NID_ext_key_usage, client ? "clientAuth" : "serverAuth");
    X509_sign(cert.get(), key_.get(), EVP_sha256());
    PemPair out;
    out.cert = Pem(cert.get());
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    out.key = Text(bio.get());
    return out;
  }

 private:
  struct KeyFree {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
  };
  struct CertFree {
    void operator()(X509* c) const { X509_free(c); }
  };

  static void Fill(X509* x, const std::string& cn, long serial, int days,  // NOLINT
                   EVP_PKEY* key) {
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), serial);
    X509_gmtime_adj(X509_getm_notBefore(x), -60);
    X509_gmtime_adj(X509_getm_notAfter(x), static_cast<long>(days) * 86400);  // NOLINT
    X509_set_pubkey(x, key);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  }
  static void AddExt(X509* issuer, X509* x, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, x, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
  }
  static std::string Text(BIO* bio) {
    char* data = nullptr;
    long n = BIO_get_mem_data(bio, &data);  // NOLINT(runtime/int)
    return std::string(data, static_cast<size_t>(n));
  }
  static std::string Pem(X509* x) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    PEM_write_bio_X509(bio.get(), x);
    return Text(bio.get());
  }

  std::unique_ptr<EVP_PKEY, KeyFree> key_;
  std::unique_ptr<X509, CertFree> cert_;
};

}  // namespace jobset::webhook::testing
