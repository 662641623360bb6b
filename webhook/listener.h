// One cpp-httplib server bound to a port and served on its own thread, with the 0.11.4
// work-arounds that concern the listening socket.
#pragma once

#include <httplib.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace jobset::webhook {

/// Runs `server` (already configured with its routes) on `address:port`.
///
/// Work-arounds for cpp-httplib 0.11.4 (Debian builds it as a shared library, so its
/// compile-time defaults cannot be changed by #defines in our code):
/// - the listen backlog is 5 (CPPHTTPLIB_LISTEN_BACKLOG, baked into the library): after
///   binding, listen(2) is called again on the socket with `backlog` (Linux updates the
///   queue length of a listening socket in place);
/// - the default socket option is SO_REUSEPORT, which lets a second process bind the same
///   port and silently take half the connections: replaced with SO_REUSEADDR;
/// - any accept(2) error other than EMFILE ends the accept loop for good: the listener then
///   binds again (after a pause) and keeps serving, unless it is being stopped.
class Listener {
 public:
  /// Takes `server`; `on_error` is told (from the listener thread) when the accept loop
  /// died and the port is being bound again.
  Listener(std::unique_ptr<httplib::Server> server, std::string address, int port, int backlog,
           std::function<void(const std::string&)> on_error);
  /// Stops first.
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  /// Binds the port (port 0: any free port). Gives false and a message on failure.
  bool Bind(std::string* error);
  /// The bound port.
  int port() const { return port_; }
  /// Starts serving on a thread.
  void Start();
  /// Stops accepting connections and returns once every accepted connection has been served
  /// and closed (cpp-httplib joins its workers): requests already sent on accepted
  /// connections are answered; idle kept-alive connections end when their client closes
  /// them or after the keep-alive timeout. Idempotent.
  void Stop();

  /// The server being run.
  httplib::Server& server() { return *server_; }

 private:
  bool BindOnce(std::string* error);
  void Run();

  std::unique_ptr<httplib::Server> server_;
  const std::string address_;
  int port_;
  const int backlog_;
  std::function<void(const std::string&)> on_error_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  bool finished_ = false;
};

}  // namespace jobset::webhook
