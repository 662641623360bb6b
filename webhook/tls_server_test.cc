// TlsServer over real TLS on loopback, driven by a raw OpenSSL client that controls how the
// request is cut into records and counts the records of each reply.
#include "webhook/tls_server.h"

#include <doctest/doctest.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>

#include "webhook/listener.h"
#include "webhook/test_certs.h"

namespace jobset::webhook {
namespace {

// Loads a PEM certificate and key into `ctx`.
bool UsePem(SSL_CTX* ctx, const testing::PemPair& pair) {
  std::unique_ptr<BIO, decltype(&BIO_free)> cert(BIO_new_mem_buf(pair.cert.data(), -1), &BIO_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> key(BIO_new_mem_buf(pair.key.data(), -1), &BIO_free);
  std::unique_ptr<X509, decltype(&X509_free)> x509(
      PEM_read_bio_X509(cert.get(), nullptr, nullptr, nullptr), &X509_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> pkey(
      PEM_read_bio_PrivateKey(key.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
  return x509 && pkey && SSL_CTX_use_certificate(ctx, x509.get()) == 1 &&
         SSL_CTX_use_PrivateKey(ctx, pkey.get()) == 1;
}

// A TlsServer on a free loopback port with three routes: POST /echo answers the body,
// GET /big answers 100,000 bytes, GET /peer answers the client's address as the library saw it.
struct Fixture {
  testing::TestCa ca;
  std::unique_ptr<Listener> listener;

  explicit Fixture(size_t keep_alive_max = 100, time_t read_timeout = 10, time_t keep_alive = 5) {
    testing::PemPair pair = ca.Issue("localhost", "DNS:localhost,IP:127.0.0.1", 3);
    auto server = std::make_unique<TlsServer>([&](SSL_CTX& ctx) { return UsePem(&ctx, pair); });
    REQUIRE(server->is_valid());
    server->set_keep_alive_max_count(keep_alive_max);
    server->set_keep_alive_timeout(keep_alive);
    // By default longer than the client's: a stall fails the client.
    server->set_read_timeout(read_timeout, 0);
    server->Post("/echo", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(req.body, "text/plain");
    });
    server->Get("/big", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(100'000, 'b'), "text/plain");
    });
    server->Get("/peer", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(req.remote_addr + " " + std::to_string(req.remote_port), "text/plain");
    });
    listener = std::make_unique<Listener>(std::move(server), "127.0.0.1", 0, 16, nullptr);
    std::string error;
    REQUIRE_MESSAGE(listener->Bind(&error), error);
    listener->Start();
  }
  ~Fixture() { listener->Stop(); }
};

// A blocking TLS client. Each Send() call is one SSL_write, so one TLS record per call (up to
// 16 KiB); the records of application data received are counted.
class Client {
 public:
  explicit Client(int port) : ctx_(SSL_CTX_new(TLS_client_method())) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    timeval tv{3, 0};  // A test that would hang fails instead.
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    SSL_CTX_set_msg_callback(ctx_, &Client::OnMessage);
    ssl_ = SSL_new(ctx_);
    SSL_set_msg_callback_arg(ssl_, this);
    SSL_set_fd(ssl_, fd_);
    REQUIRE(SSL_connect(ssl_) == 1);
  }
  ~Client() {
    SSL_free(ssl_);
    SSL_CTX_free(ctx_);
    ::close(fd_);
  }

  void Send(const std::string& bytes) {
    REQUIRE(SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size())) ==
            static_cast<int>(bytes.size()));
  }

  /// Reads one reply: the status line and headers, then Content-Length bytes of body.
  /// Empty when the connection ended first.
  std::string ReadReply() {
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill()) return "";
    }
    size_t length = 0;
    size_t at = buffer_.find("Content-Length: ");
    if (at != std::string::npos && at < end) length = std::stoul(buffer_.substr(at + 16));
    while (buffer_.size() < end + 4 + length) {
      if (!Fill()) return "";
    }
    std::string reply = buffer_.substr(0, end + 4 + length);
    buffer_.erase(0, reply.size());
    return reply;
  }

  /// True when the server closed the connection (and nothing more came).
  bool Closed() { return buffer_.empty() && !Fill(); }

  /// Waits up to 3 s for the server to end the connection: true when it said so first with
  /// a TLS close_notify.
  bool ClosedGracefully() {
    char byte;
    int n = SSL_read(ssl_, &byte, 1);
    return n == 0 && SSL_get_error(ssl_, n) == SSL_ERROR_ZERO_RETURN;
  }

  int records_received() const { return records_; }

 private:
  bool Fill() {
    char buf[16384];
    int n = SSL_read(ssl_, buf, sizeof buf);
    if (n <= 0) return false;
    buffer_.append(buf, static_cast<size_t>(n));
    return true;
  }

  static void OnMessage(int write_p, int /*version*/, int content_type, const void* buf, size_t len,
                        SSL* /*ssl*/, void* arg) {
    // Every record's 5-byte header is reported; type 23 is application data.
    if (!write_p && content_type == SSL3_RT_HEADER && len >= 1 &&
        static_cast<const unsigned char*>(buf)[0] == SSL3_RT_APPLICATION_DATA) {
      ++static_cast<Client*>(arg)->records_;
    }
  }

  SSL_CTX* ctx_;
  SSL* ssl_ = nullptr;
  int fd_ = -1;
  std::string buffer_;
  int records_ = 0;
};

std::string Post(const std::string& body, const std::string& extra_headers = "") {
  return "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n" + extra_headers +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string BodyOf(const std::string& reply) { return reply.substr(reply.find("\r\n\r\n") + 4); }

}  // namespace

TEST_CASE("tls server: each reply is one TLS record, and kept-alive requests are served") {
  Fixture f;
  Client c(f.listener->port());
  for (int i = 0; i < 20; ++i) {
    std::string body = "request " + std::to_string(i);
    int before = c.records_received();
    c.Send(Post(body));
    std::string reply = c.ReadReply();
    REQUIRE(reply.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
    CHECK(BodyOf(reply) == body);
    // The status line, headers and body were sent together, not as two records. (The first
    // read also takes the TLS 1.3 session tickets, records of the same outer type.)
    if (i > 0) CHECK(c.records_received() - before == 1);
  }
}

TEST_CASE("tls server: pipelined requests in one record are all answered, in order") {
  Fixture f;
  Client c(f.listener->port());
  c.Send(Post("first") + Post("second") + Post("third"));
  CHECK(BodyOf(c.ReadReply()) == "first");
  CHECK(BodyOf(c.ReadReply()) == "second");
  CHECK(BodyOf(c.ReadReply()) == "third");
}

TEST_CASE("tls server: a request cut into one-byte records is served") {
  Fixture f;
  Client c(f.listener->port());
  std::string request = Post("{\"trickled\":true}");
  for (char ch : request) c.Send(std::string(1, ch));
  CHECK(BodyOf(c.ReadReply()) == "{\"trickled\":true}");
}

TEST_CASE("tls server: Expect: 100-continue gets its interim reply before the body is sent") {
  Fixture f;
  Client c(f.listener->port());
  std::string request = Post("payload", "Expect: 100-continue\r\n");
  c.Send(request.substr(0, request.size() - 7));  // Headers only.
  // The interim reply must reach the client while the server waits for the body.
  CHECK(c.ReadReply() == "HTTP/1.1 100 Continue\r\n\r\n");
  c.Send("payload");
  std::string reply = c.ReadReply();
  CHECK(reply.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
  CHECK(BodyOf(reply) == "payload");
}

TEST_CASE("tls server: bodies and replies larger than a record arrive whole") {
  Fixture f;
  Client c(f.listener->port());
  std::string body;
  for (int i = 0; body.size() < 1'000'000; ++i) body += std::to_string(i) + ",";
  c.Send(Post(body).substr(0, 10'000));
  std::string rest = Post(body).substr(10'000);
  for (size_t at = 0; at < rest.size(); at += 16'000) c.Send(rest.substr(at, 16'000));
  CHECK(BodyOf(c.ReadReply()) == body);
  c.Send("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n");
  CHECK(BodyOf(c.ReadReply()) == std::string(100'000, 'b'));
}

TEST_CASE("tls server: the keep-alive limit closes the connection after its last reply") {
  Fixture f(3);
  Client c(f.listener->port());
  for (int i = 0; i < 3; ++i) {
    c.Send(Post("x"));
    std::string reply = c.ReadReply();
    REQUIRE(!reply.empty());
    CHECK((reply.find("Connection: close\r\n") != std::string::npos) == (i == 2));
  }
  CHECK(c.Closed());
}

TEST_CASE("tls server: an idle kept-alive connection ends after the keep-alive timeout") {
  // Both ways of waiting: a read bounded by the socket's receive timeout when the two timeouts
  // are equal, a poll otherwise.
  for (time_t read_timeout : {1, 10}) {
    CAPTURE(read_timeout);
    Fixture f(100, read_timeout, 1);
    Client c(f.listener->port());
    c.Send(Post("x"));
    REQUIRE(BodyOf(c.ReadReply()) == "x");
    auto start = std::chrono::steady_clock::now();
    CHECK(c.ClosedGracefully());
    auto waited = std::chrono::steady_clock::now() - start;
    CHECK(waited >= std::chrono::milliseconds(900));
    CHECK(waited < std::chrono::milliseconds(2900));
  }
}

TEST_CASE("tls server: handlers see the client's address") {
  Fixture f;
  Client c(f.listener->port());
  c.Send("GET /peer HTTP/1.1\r\nHost: localhost\r\n\r\n");
  std::string peer = BodyOf(c.ReadReply());
  CHECK(peer.rfind("127.0.0.1 ", 0) == 0);
  CHECK(std::stoi(peer.substr(10)) > 0);
}

}  // namespace jobset::webhook
