#include "webhook/listener.h"

#include <sys/socket.h>

#include <chrono>
#include <utility>

namespace jobset::webhook {
namespace {

// cpp-httplib keeps the listening socket in a protected member: reach it from a subclass.
class SocketAccess : public httplib::Server {
 public:
  static socket_t ListeningSocket(httplib::Server& server) {
    return (server.*(&SocketAccess::svr_sock_)).load();
  }
};

}  // namespace

Listener::Listener(std::unique_ptr<httplib::Server> server, std::string address, int port,
                   int backlog, std::function<void(const std::string&)> on_error)
    : server_(std::move(server)),
      address_(std::move(address)),
      port_(port),
      backlog_(backlog),
      on_error_(std::move(on_error)) {
  server_->set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
}

Listener::~Listener() { Stop(); }

bool Listener::BindOnce(std::string* error) {
  if (port_ == 0) {
    int bound = server_->bind_to_any_port(address_);
    if (bound <= 0) {
      *error = "cannot listen on " + address_ + " (any port)";
      return false;
    }
    port_ = bound;
  } else if (!server_->bind_to_port(address_, port_)) {
    *error = "cannot listen on " + address_ + ":" + std::to_string(port_);
    return false;
  }
  socket_t sock = SocketAccess::ListeningSocket(*server_);
  if (sock != INVALID_SOCKET) ::listen(sock, backlog_);
  return true;
}

bool Listener::Bind(std::string* error) { return BindOnce(error); }

void Listener::Start() {
  thread_ = std::thread([this] { Run(); });
}

void Listener::Run() {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) break;
    }
    server_->listen_after_bind();
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) break;
    }
    // The accept loop gave up on an accept(2) error: serve again on a fresh socket.
    if (on_error_) on_error_("accept loop ended unexpectedly; binding the port again");
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (stopping_) break;
      }
      std::string error;
      if (BindOnce(&error)) break;
      if (on_error_) on_error_(error);
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  finished_ = true;
  cv_.notify_all();
}

void Listener::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  if (!thread_.joinable()) return;
  // Not httplib's stop(): it marks the listening socket invalid, and each worker checks that
  // mark before reading a request, so a connection accepted just before the stop would be
  // closed unanswered (its client already sent the request). Shutting the listening socket
  // down instead ends the accept loop (accept fails; httplib then closes the socket) while
  // accepted connections are still served to the end; cpp-httplib then joins its workers.
  // The loop may not be running yet: act once it is, and wait until the thread is done.
  bool signalled = false;
  std::unique_lock<std::mutex> lock(mu_);
  while (!finished_) {
    if (!signalled && server_->is_running()) {
      socket_t sock = SocketAccess::ListeningSocket(*server_);
      if (sock != INVALID_SOCKET) ::shutdown(sock, SHUT_RDWR);
      signalled = true;
    }
    cv_.wait_for(lock, std::chrono::milliseconds(10));
  }
  lock.unlock();
  thread_.join();
}

}  // namespace jobset::webhook
