// TLS for the HTTPS server: the SSL_CTX settings, the certificate picked per handshake from the
// CertificateStore, and the detection of failed handshakes.
#pragma once

#include <openssl/ssl.h>

#include <functional>
#include <string>

#include "webhook/cert_store.h"

namespace jobset::webhook {

/// The TLS settings that come from flags.
struct TlsOptions {
  /// TLS1_2_VERSION or TLS1_3_VERSION (--tls-min-version VersionTLS12|VersionTLS13).
  int min_version = TLS1_2_VERSION;
  /// PEM bundle of the CAs that sign client certificates; when set, a client must present a
  /// certificate that verifies against it (--client-ca-file). Read once, at start.
  std::string client_ca_file;
};

/// The AEAD, forward-secret TLS 1.2 cipher list (Mozilla "intermediate"); TLS 1.3 keeps
/// OpenSSL's defaults, which are all modern.
inline constexpr char kTls12Ciphers[] =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

/// Installs itself into an SSL_CTX (through cpp-httplib's setup-callback SSLServer
/// constructor): each handshake takes the pair the CertificateStore holds at that moment
/// (SSL_CTX_set_cert_cb + SSL_use_cert_and_key), so a rotated certificate reaches new
/// connections while established ones carry on; and a handshake that never completes (bad or
/// missing client certificate, protocol error, silence until the read timeout) is reported
/// through `on_handshake_error` when its SSL object is freed.
///
/// Must outlive the SSL_CTX and every connection made from it.
class TlsServerHooks {
 public:
  /// Reports a failed handshake: the peer ("ip:port") and what went wrong, as far as known.
  using HandshakeErrorFn = std::function<void(const std::string& peer, const std::string& reason)>;

  /// `store` must outlive this object.
  TlsServerHooks(CertificateStore* store, HandshakeErrorFn on_handshake_error);
  TlsServerHooks(const TlsServerHooks&) = delete;
  TlsServerHooks& operator=(const TlsServerHooks&) = delete;

  /// Configures `ctx`: minimum version, ciphers and groups, no compression or renegotiation,
  /// the certificate callback, handshake tracking and, when asked, client certificate
  /// verification. Gives false and a message (e.g. an unreadable client CA file).
  bool Configure(SSL_CTX* ctx, const TlsOptions& options, std::string* error);

 private:
  struct Connection;
  static int CertCallback(SSL* ssl, void* arg);
  static void InfoCallback(const SSL* ssl, int where, int ret);
  static void FreeConnection(void* parent, void* ptr, CRYPTO_EX_DATA* ad, int idx, long argl,
                             void* argp);  // NOLINT(runtime/int): OpenSSL's type.
  static int ContextIndex();
  static int ConnectionIndex();

  CertificateStore* store_;
  HandshakeErrorFn on_handshake_error_;
};

}  // namespace jobset::webhook
