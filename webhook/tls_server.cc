#include "webhook/tls_server.h"

#include <fcntl.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <memory>
#include <string>

#include "webhook/socket_address.h"

namespace jobset::webhook {
namespace {

using Clock = std::chrono::steady_clock;

// The largest TLS record payload: one read fills at most this much, and a reply up to this
// size goes out as one record.
constexpr size_t kRecordBytes = 16 * 1024;

// poll(2) for `events` on `fd`, up to `timeout`. True when ready (or when the peer hung up or
// failed, which the next read or write then reports).
bool WaitFor(int fd, short events, std::chrono::milliseconds timeout) {  // NOLINT(runtime/int)
  pollfd p{fd, events, 0};
  const int ms = static_cast<int>(std::clamp<int64_t>(timeout.count(), 0, INT_MAX));
  for (;;) {
    int n = ::poll(&p, 1, ms);
    if (n > 0) return true;
    if (n == 0 || errno != EINTR) return false;
  }
}

std::chrono::milliseconds ToMillis(time_t sec, time_t usec) {
  return std::chrono::milliseconds(sec * 1000 + usec / 1000);
}

// The TLS handshake on a blocking socket, bounded as a whole by `timeout`: the socket is made
// non-blocking for its duration.
bool Handshake(SSL* ssl, int fd, std::chrono::milliseconds timeout) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return false;
  const Clock::time_point deadline = Clock::now() + timeout;
  bool done = false;
  for (;;) {
    ERR_clear_error();
    int ret = SSL_accept(ssl);
    if (ret == 1) {
      done = true;
      break;
    }
    int err = SSL_get_error(ssl, ret);
    if (err != SSL_ERROR_WANT_READ && err != SSL_ERROR_WANT_WRITE) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) break;
    if (!WaitFor(fd, err == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, left)) break;
  }
  ERR_clear_error();
  return fcntl(fd, F_SETFL, flags) == 0 && done;
}

// One TLS connection as cpp-httplib's Stream. Reads are served from a buffer that one
// SSL_read fills; writes are collected and sent by Flush(), which runs after each request and
// before any read that would have to wait for the peer.
class TlsStream : public httplib::Stream {
 public:
  TlsStream(SSL* ssl, int fd, std::chrono::milliseconds read_timeout,
            std::chrono::milliseconds write_timeout)
      : ssl_(ssl),
        fd_(fd),
        read_timeout_(read_timeout),
        write_timeout_(write_timeout),
        in_(new char[kRecordBytes]),
        remote_(PeerEndpoint(fd)),
        local_(LocalEndpoint(fd)) {}

  /// True when input is buffered here or in OpenSSL, or the socket becomes readable within
  /// the read timeout.
  bool is_readable() const override { return Buffered() || WaitFor(fd_, POLLIN, read_timeout_); }
  bool is_writable() const override { return WaitFor(fd_, POLLOUT, write_timeout_); }

  ssize_t read(char* ptr, size_t size) override {
    // The library reads the request line and headers one byte per call.
    if (size == 1 && in_pos_ < in_len_) {
      *ptr = in_[in_pos_++];
      return 1;
    }
    if (size == 0) return 0;
    if (in_pos_ == in_len_) {
      if (!Flush()) return -1;
      // A read as large as a record goes straight to the caller.
      if (size >= kRecordBytes) return Receive(ptr, size);
      ssize_t n = Receive(in_.get(), kRecordBytes);
      if (n <= 0) return n;
      in_pos_ = 0;
      in_len_ = static_cast<size_t>(n);
    }
    size_t n = std::min(size, in_len_ - in_pos_);
    std::memcpy(ptr, in_.get() + in_pos_, n);
    in_pos_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (out_.size() + size > kRecordBytes) {
      if (!Flush()) return -1;
      if (size > kRecordBytes) return Send(ptr, size) ? static_cast<ssize_t>(size) : -1;
    }
    out_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = remote_.ip;
    port = remote_.port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = local_.ip;
    port = local_.port;
  }
  socket_t socket() const override { return fd_; }

  /// Sends what the library wrote. False when the peer is gone or the write timed out.
  bool Flush() {
    if (out_.empty()) return true;
    bool ok = Send(out_.data(), out_.size());
    out_.clear();
    return ok;
  }

  /// Waits up to `timeout` for the next request: true when one has (begun to) arrive, or the
  /// peer closed or failed (reading then tells); false when nothing came in time.
  bool WaitForRequest(std::chrono::milliseconds timeout) {
    if (Buffered()) return true;
    if (timeout != read_timeout_) return WaitFor(fd_, POLLIN, timeout);
    // The socket's receive timeout (the read timeout) bounds a read just as the wait would
    // (the defaults are equal): read at once, one system call fewer per request.
    ssize_t n = Receive(in_.get(), kRecordBytes);
    if (n <= 0) return !timed_out_;
    in_pos_ = 0;
    in_len_ = static_cast<size_t>(n);
    return true;
  }

 private:
  bool Buffered() const { return in_pos_ < in_len_ || SSL_has_pending(ssl_) == 1; }

  // One SSL_read: > 0 bytes, 0 when the peer closed, -1 on error or timeout (SO_RCVTIMEO).
  // OpenSSL's error queue is emptied after each failure rather than before each call (that
  // cost ~900 instructions per call): a stale entry could only make a clean close or a
  // timeout look like an error here, and each of them ends the connection.
  ssize_t Receive(char* ptr, size_t size) {
    int n = SSL_read(ssl_, ptr, static_cast<int>(std::min<size_t>(size, INT_MAX)));
    if (n > 0) return n;
    int err = SSL_get_error(ssl_, n);
    ERR_clear_error();
    // SO_RCVTIMEO expired: recv(2) said EAGAIN, which OpenSSL reports as "want read".
    timed_out_ = err == SSL_ERROR_WANT_READ;
    return err == SSL_ERROR_ZERO_RETURN ? 0 : -1;
  }

  bool Send(const char* ptr, size_t size) {
    while (size > 0) {
      int chunk = static_cast<int>(std::min<size_t>(size, INT_MAX / 2));
      int n = SSL_write(ssl_, ptr, chunk);
      if (n <= 0) {
        ERR_clear_error();
        return false;
      }
      ptr += n;
      size -= static_cast<size_t>(n);
    }
    return true;
  }

  SSL* ssl_;
  int fd_;
  std::chrono::milliseconds read_timeout_, write_timeout_;
  std::unique_ptr<char[]> in_;
  size_t in_pos_ = 0, in_len_ = 0;
  bool timed_out_ = false;  // The last failed read ended on the receive timeout.
  std::string out_;
  const SocketEndpoint remote_, local_;  // Read once per connection.
};

}  // namespace

TlsServer::TlsServer(const std::function<bool(SSL_CTX&)>& setup)
    : ctx_(SSL_CTX_new(TLS_server_method())) {
  if (!ctx_) return;
  // Records are read whole with one recv(2), together with whatever follows them; TlsStream
  // looks at SSL_has_pending() before it waits on the socket, so nothing read ahead is missed.
  SSL_CTX_set_read_ahead(ctx_, 1);
  if (!setup(*ctx_)) {
    SSL_CTX_free(ctx_);
    ctx_ = nullptr;
  }
}

TlsServer::~TlsServer() {
  if (ctx_) SSL_CTX_free(ctx_);
}

bool TlsServer::process_and_close_socket(socket_t sock) {
  bool ret = false;
  if (SSL* ssl = SSL_new(ctx_)) {
    if (SSL_set_fd(ssl, sock) == 1 &&
        Handshake(ssl, sock, ToMillis(read_timeout_sec_, read_timeout_usec_))) {
      ret = ServeConnection(ssl, sock);
      // A close_notify only when the conversation ended well; a peer already gone would get
      // nothing from it.
      if (ret) SSL_shutdown(ssl);
    }
    ERR_clear_error();
    SSL_free(ssl);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ret;
}

// cpp-httplib's keep-alive loop (process_server_socket_core), over a TlsStream.
bool TlsServer::ServeConnection(SSL* ssl, socket_t sock) {
  TlsStream stream(ssl, sock, ToMillis(read_timeout_sec_, read_timeout_usec_),
                   ToMillis(write_timeout_sec_, write_timeout_usec_));
  const std::chrono::milliseconds keep_alive(keep_alive_timeout_sec_ * 1000);
  bool ret = false;
  for (size_t left = keep_alive_max_count_;
       svr_sock_ != INVALID_SOCKET && left > 0 && stream.WaitForRequest(keep_alive); --left) {
    bool connection_closed = false;
    ret = process_request(stream, left == 1, connection_closed,
                          [ssl](httplib::Request& req) { req.ssl = ssl; });
    if (!stream.Flush()) ret = false;
    if (!ret || connection_closed) break;
  }
  return ret;
}

}  // namespace jobset::webhook
