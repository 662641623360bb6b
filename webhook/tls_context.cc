#include "webhook/tls_context.h"

#include <openssl/err.h>

#include <memory>
#include <utility>

#include "webhook/socket_address.h"

namespace jobset::webhook {
namespace {

constexpr unsigned char kSessionContext[] = "jobset-webhook";

std::string PeerOf(const SSL* ssl) {
  SocketEndpoint peer = PeerEndpoint(SSL_get_fd(ssl));
  return peer.ip.empty() ? "" : peer.ip + ":" + std::to_string(peer.port);
}

std::string OpenSslError(const std::string& what) {
  unsigned long code = ERR_get_error();  // NOLINT(runtime/int): OpenSSL's type.
  ERR_clear_error();
  if (code == 0) return what;
  char buf[256];
  ERR_error_string_n(code, buf, sizeof buf);
  return what + ": " + buf;
}

}  // namespace

// What we know about one connection's first handshake.
struct TlsServerHooks::Connection {
  TlsServerHooks* hooks;
  std::string peer;
  std::string reason = "connection closed or timed out before the handshake completed";
  bool done = false;
};

TlsServerHooks::TlsServerHooks(CertificateStore* store, HandshakeErrorFn on_handshake_error)
    : store_(store), on_handshake_error_(std::move(on_handshake_error)) {}

// OpenSSL's ex_data indexes: allocated once per process (thread-safe static initialisation)
// and constant afterwards.
int TlsServerHooks::ContextIndex() {
  static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
  return index;
}

int TlsServerHooks::ConnectionIndex() {
  static const int index =
      SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, &TlsServerHooks::FreeConnection);
  return index;
}

bool TlsServerHooks::Configure(SSL_CTX* ctx, const TlsOptions& options, std::string* error) {
  ERR_clear_error();
  if (SSL_CTX_set_min_proto_version(ctx, options.min_version) != 1) {
    *error = OpenSslError("cannot set the minimum TLS version");
    return false;
  }
  SSL_CTX_set_options(
      ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  if (SSL_CTX_set_cipher_list(ctx, kTls12Ciphers) != 1) {
    *error = OpenSslError("cannot set the TLS 1.2 cipher list");
    return false;
  }
  if (SSL_CTX_set1_groups_list(ctx, "X25519:P-256:P-384") != 1) {
    *error = OpenSslError("cannot set the key exchange groups");
    return false;
  }
  SSL_CTX_set_session_id_context(ctx, kSessionContext, sizeof kSessionContext - 1);
  SSL_CTX_set_cert_cb(ctx, &TlsServerHooks::CertCallback, store_);
  SSL_CTX_set_ex_data(ctx, ContextIndex(), this);
  (void)ConnectionIndex();
  SSL_CTX_set_info_callback(ctx, &TlsServerHooks::InfoCallback);
  if (!options.client_ca_file.empty()) {
    const char* file = options.client_ca_file.c_str();
    if (SSL_CTX_load_verify_locations(ctx, file, nullptr) != 1) {
      *error = OpenSslError("cannot load the client CA file " + options.client_ca_file);
      return false;
    }
    STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(file);
    if (!names) {
      *error = OpenSslError("no certificates in the client CA file " + options.client_ca_file);
      return false;
    }
    SSL_CTX_set_client_CA_list(ctx, names);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  }
  return true;
}

int TlsServerHooks::CertCallback(SSL* ssl, void* arg) {
  auto* store = static_cast<CertificateStore*>(arg);
  std::shared_ptr<const CertificatePair> pair = store->Current();
  auto* conn = static_cast<Connection*>(SSL_get_ex_data(ssl, ConnectionIndex()));
  if (!pair) {
    if (conn) conn->reason = "no serving certificate loaded yet";
    return 0;
  }
  // Takes its own references: the pair may be swapped out while this connection lives.
  if (SSL_use_cert_and_key(ssl, pair->leaf(), pair->key(), pair->chain(), 1) != 1) {
    if (conn) conn->reason = OpenSslError("cannot use the serving certificate");
    return 0;
  }
  return 1;
}

void TlsServerHooks::InfoCallback(const SSL* ssl, int where, int ret) {
  auto* conn = static_cast<Connection*>(SSL_get_ex_data(ssl, ConnectionIndex()));
  if (where & SSL_CB_HANDSHAKE_START) {
    // Only the first handshake counts (TLS 1.3 post-handshake messages start again).
    if (conn) return;
    auto* hooks =
        static_cast<TlsServerHooks*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), ContextIndex()));
    if (!hooks) return;
    auto owned = std::make_unique<Connection>();
    owned->hooks = hooks;
    owned->peer = PeerOf(ssl);
    // OpenSSL hands the callback a const SSL, but ex_data is per connection state it owns.
    if (SSL_set_ex_data(const_cast<SSL*>(ssl), ConnectionIndex(), owned.get()) == 1) {
      owned.release();
    }
    return;
  }
  if (!conn) return;
  if (where & SSL_CB_HANDSHAKE_DONE) {
    conn->done = true;
  } else if ((where & SSL_CB_ALERT) && !conn->done &&
             std::string(SSL_alert_type_string(ret)) == "F") {
    conn->reason = std::string((where & SSL_CB_READ) ? "received" : "sent") +
                   " TLS alert: " + SSL_alert_desc_string_long(ret);
  }
}

void TlsServerHooks::FreeConnection(void* /*parent*/, void* ptr, CRYPTO_EX_DATA* /*ad*/,
                                    int /*idx*/, long /*argl*/,  // NOLINT(runtime/int)
                                    void* /*argp*/) {
  std::unique_ptr<Connection> conn(static_cast<Connection*>(ptr));
  if (conn && !conn->done && conn->hooks->on_handshake_error_) {
    conn->hooks->on_handshake_error_(conn->peer, conn->reason);
  }
}

}  // namespace jobset::webhook
