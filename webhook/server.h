// The jobset-webhook server: HTTPS admission endpoints and the plain-HTTP health port.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "webhook/admission_handler.h"
#include "webhook/cert_store.h"
#include "webhook/flags.h"
#include "webhook/listener.h"
#include "webhook/logger.h"
#include "webhook/metrics.h"
#include "webhook/tls_context.h"

namespace jobset::webhook {

/// Both listeners, their routes, and the cpp-httplib settings that make 0.11.4 fit for an
/// admission webhook (see README.md): a thread per connection, bounded bodies, timeouts,
/// long keep-alive, TCP_NODELAY, a real listen backlog, certificates from the store.
class WebhookServer {
 public:
  /// `store`, `log` and `metrics` must outlive the server.
  WebhookServer(const WebhookConfig& config, CertificateStore* store, Logger* log,
                Metrics* metrics);
  /// Stops both listeners.
  ~WebhookServer();
  WebhookServer(const WebhookServer&) = delete;
  WebhookServer& operator=(const WebhookServer&) = delete;

  /// Builds the TLS context and binds both ports. Gives false and a message on failure.
  bool Bind(std::string* error);
  /// The bound ports (useful with port 0).
  int port() const { return https_ ? https_->port() : 0; }
  int health_port() const { return health_ ? health_->port() : 0; }
  /// Starts serving both ports on background threads.
  void Start();
  /// Graceful shutdown, first half: /readyz fails from now on and every response asks the
  /// client to close its connection ("Connection: close"); requests are still served.
  void BeginDrain() { draining_ = true; }
  /// Second half: stops accepting on the HTTPS port and returns once every accepted request
  /// has been answered and its connection closed (idle kept-alive connections close within
  /// --keep-alive-timeout); then stops the health port.
  void Stop();

 private:
  void AddAdmissionRoutes(httplib::Server& server);
  void AddHealthRoutes(httplib::Server& server);
  void AddFallbackRoutes(httplib::Server& server);
  void Configure(httplib::Server& server, bool https);
  void ServeAdmission(Endpoint endpoint, const char* path, const httplib::Request& req,
                      const httplib::ContentReader& reader, httplib::Response& res);
  void LogHttpError(const httplib::Request& req, const httplib::Response& res,
                    const std::string& message);

  const WebhookConfig config_;
  CertificateStore* store_;
  Logger* log_;
  Metrics* metrics_;
  AdmissionOptions options_;
  TlsServerHooks hooks_;  // Outlives https_ (declared before it).
  std::unique_ptr<Listener> https_;
  std::unique_ptr<Listener> health_;
  std::atomic<bool> draining_{false};
};

}  // namespace jobset::webhook
