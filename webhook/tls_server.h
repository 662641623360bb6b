// The HTTPS server: cpp-httplib's accept loop, threads, HTTP parsing, routing and replies, over
// a TLS transport of our own that reads and writes whole records.
#pragma once

#include <httplib.h>
#include <openssl/ssl.h>

#include <functional>

namespace jobset::webhook {

/// An httplib::Server whose connections speak TLS through a buffered OpenSSL stream instead
/// of cpp-httplib 0.11.4's SSLServer, which
/// - reads the request line and headers one byte per SSL_read call, polling first whenever
///   the TLS buffer is empty, and reads each record with two recv(2) calls;
/// - writes the status line and headers, then the body, as two TLS records in two send(2)
///   calls, each after a poll(2) for writability and one for a peer close;
/// - waits for the next kept-alive request in 10 ms polls;
/// - calls getpeername(2) and getsockname(2) again for every request.
/// Here a connection reads records ahead into one buffer (SSL read-ahead, one recv(2) each),
/// serves the library's reads from it, collects the reply and sends it as one record once the
/// library has written it (or earlier, before the stream has to wait for input, so that an
/// interim "100 Continue" goes out), and waits for the next request with one poll(2), or,
/// when the keep-alive timeout equals the read timeout (the defaults), by reading at once.
/// Per request that is 2 or 3 system calls instead of about 10 (bench/WEBHOOK.md).
///
/// Everything else is the library's: the accept loop and task queue, the keep-alive rules
/// (keep_alive_max_count, keep_alive_timeout), the read and write timeouts (SO_RCVTIMEO and
/// SO_SNDTIMEO, set by the library on each accepted socket, bound every blocking call; the
/// handshake is bounded by the read timeout as a whole), and process_request() itself.
class TlsServer : public httplib::Server {
 public:
  /// Creates the SSL_CTX (TLS_server_method) and lets `setup` configure it; is_valid() is
  /// false when either fails.
  explicit TlsServer(const std::function<bool(SSL_CTX&)>& setup);
  ~TlsServer() override;
  TlsServer(const TlsServer&) = delete;
  TlsServer& operator=(const TlsServer&) = delete;

  /// True once the SSL_CTX exists and `setup` accepted it.
  bool is_valid() const override { return ctx_ != nullptr; }

 private:
  bool process_and_close_socket(socket_t sock) override;
  bool ServeConnection(SSL* ssl, socket_t sock);

  SSL_CTX* ctx_ = nullptr;
};

}  // namespace jobset::webhook
