#include "webhook/server.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <utility>
#include <vector>

#include "validation/schema/schema.h"
#include "webhook/review.h"
#include "webhook/task_queue.h"
#include "webhook/tls_server.h"

namespace jobset::webhook {
namespace {

using Clock = std::chrono::steady_clock;

// Threads of the health port: probes and scrapes are few and short.
constexpr size_t kHealthThreads = 4;

std::string ReasonFor(int status) {
  switch (status) {
    case 400:
      return "BadRequest";
    case 404:
      return "NotFound";
    case 405:
      return "MethodNotAllowed";
    case 413:
      return "RequestEntityTooLarge";
    case 500:
      return "InternalError";
    case 501:
      return "NotImplemented";
    case 503:
      return "ServiceUnavailable";
    default:
      return "Failure";
  }
}

// Metrics label for a path: the served ones, else "other" (bounded cardinality).
const char* PathLabel(const std::string& path) {
  for (const KindAdmission& kind : KindAdmissions()) {
    for (AdmissionVerb verb : {AdmissionVerb::kMutate, AdmissionVerb::kValidate}) {
      const char* known = AdmissionPath(kind, verb);
      if (known && path == known) return known;
    }
  }
  for (const char* known : {"/healthz", "/readyz", "/metrics"}) {
    if (path == known) return known;
  }
  return "other";
}

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// How reading a request body went.
enum class BodyRead {
  kOk,
  kTooLarge,        // Larger than the limit; read to the end and dropped (connection usable).
  kTooLargeUnread,  // Far larger: not read to the end (the connection must close).
  kFailed,          // The client went away or broke the framing (the connection must close).
};

// Reads the body through cpp-httplib's content reader, keeping at most `max` bytes. 0.11.4
// applies its payload limit only to bodies with a Content-Length; a chunked body would be
// read whole into memory. Here bytes beyond `max` are counted and dropped, up to 4 x `max`
// (so that the connection stays in step for the next request); beyond that, or when the
// declared length is already beyond it, reading stops.
BodyRead ReadBody(const httplib::Request& req, const httplib::ContentReader& reader, size_t max,
                  std::string* body) {
  const uint64_t drop_limit = static_cast<uint64_t>(max) * 4;
  if (req.has_header("Content-Length")) {
    uint64_t declared = std::strtoull(req.get_header_value("Content-Length").c_str(), nullptr, 10);
    if (declared > drop_limit) return BodyRead::kTooLargeUnread;
    body->reserve(static_cast<size_t>(std::min<uint64_t>(declared, max)));
  }
  uint64_t total = 0;
  bool ok = reader([&](const char* data, size_t len) {
    total += len;
    if (total > drop_limit) return false;
    if (total <= max) body->append(data, len);
    return true;
  });
  if (total > max) return ok ? BodyRead::kTooLarge : BodyRead::kTooLargeUnread;
  return ok ? BodyRead::kOk : BodyRead::kFailed;
}

template <class Duration>
void SplitDuration(Duration d, time_t* sec, time_t* usec) {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  *sec = static_cast<time_t>(us / 1'000'000);
  *usec = static_cast<time_t>(us % 1'000'000);
}

}  // namespace

WebhookServer::WebhookServer(const WebhookConfig& config, CertificateStore* store, Logger* log,
                             Metrics* metrics)
    : config_(config),
      store_(store),
      log_(log),
      metrics_(metrics),
      hooks_(store, [this](const std::string& peer, const std::string& reason) {
        metrics_->CountHandshakeError();
        log_->Warn("TLS handshake failed", {{"remote", peer}, {"reason", reason}});
      }) {
  options_.lint.gates = config.gates;
  options_.child_objects = config.child_objects;
  options_.lint.schema = BuiltinJobSetSchema();
  options_.json.max_depth = config.max_json_depth;
}

WebhookServer::~WebhookServer() { Stop(); }

void WebhookServer::Configure(httplib::Server& server, bool https) {
  time_t sec, usec;
  SplitDuration(config_.read_timeout, &sec, &usec);
  server.set_read_timeout(sec, usec);
  SplitDuration(config_.write_timeout, &sec, &usec);
  server.set_write_timeout(sec, usec);
  // 0.11.4 closes a connection after 5 requests and 5 idle seconds; the API server keeps its
  // connections for reuse.
  server.set_keep_alive_max_count(config_.keep_alive_max_requests);
  server.set_keep_alive_timeout(std::max<time_t>(
      1, std::chrono::duration_cast<std::chrono::seconds>(config_.keep_alive_timeout).count()));
  // Nagle's algorithm with delayed ACKs stalls kept-alive request/response pairs by ~40 ms.
  server.set_tcp_nodelay(true);
  // 0.11.4 has no body limit at all. kube-apiserver objects are at most ~3 MiB; a review
  // holds two. The admission handlers enforce --max-body-bytes themselves (ReadBody); the
  // library's own check (Content-Length only) is a backstop at 4x.
  server.set_payload_max_length(config_.max_body_bytes * 4);
  size_t threads = https ? config_.max_connections : kHealthThreads;
  auto idle = std::max(std::chrono::milliseconds(60'000), config_.keep_alive_timeout);
  server.new_task_queue = [threads, idle] { return new ConnectionTaskQueue(threads, idle); };
  // Never compress. 0.11.4 (Debian builds it with zlib and brotli) gzips any JSON reply whose
  // request sent Accept-Encoding, as Go's transport, and so kube-apiserver, always does: for a
  // reply of a few hundred bytes that costs CPU and latency and saves nothing. The library
  // reads the header when it writes the reply and has no switch for it, so drop it before
  // routing. The Request is the library's own non-const local; only the handler type is const.
  server.set_pre_routing_handler([](const httplib::Request& req, httplib::Response&) {
    const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.set_exception_handler(
      [this](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown exception";
        try {
          if (ep) std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        res.status = 500;
        res.set_content(StatusDocument(500, "InternalError", "internal error: " + what),
                        "application/json");
        LogHttpError(req, res, what);
      });
  // Replies cpp-httplib makes on its own (404, 413, 400 for a broken request line...) get a
  // metav1.Status body too.
  server.set_error_handler(httplib::Server::HandlerWithResponse([this](const httplib::Request& req,
                                                                       httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    std::string message;
    switch (res.status) {
      case 404:
        message = "no handler for " + req.path;
        break;
      case 413:
        message = "request body larger than " + std::to_string(config_.max_body_bytes) + " bytes";
        break;
      default:
        message = "cannot serve this request (HTTP " + std::to_string(res.status) + ")";
    }
    res.set_content(StatusDocument(res.status, ReasonFor(res.status), message), "application/json");
    LogHttpError(req, res, message);
    return httplib::Server::HandlerResponse::Handled;
  }));
}

void WebhookServer::LogHttpError(const httplib::Request& req, const httplib::Response& res,
                                 const std::string& message) {
  metrics_->ObserveRequest(PathLabel(req.path), res.status >= 500 ? "error" : "bad_request",
                           res.status, 0);
  log_->Warn("request refused", {{"path", req.path},
                                 {"method", req.method},
                                 {"code", res.status},
                                 {"remote", req.remote_addr},
                                 {"error", message}});
}

void WebhookServer::ServeAdmission(Endpoint endpoint, const char* path, const httplib::Request& req,
                                   const httplib::ContentReader& reader, httplib::Response& res) {
  metrics_->AddInFlight(1);
  std::string body;
  BodyRead read = ReadBody(req, reader, config_.max_body_bytes, &body);
  Clock::time_point start = Clock::now();
  HttpReply reply;
  switch (read) {
    case BodyRead::kOk:
#ifdef JOBSET_BENCH_NOOP_HANDLER
      // bench/WEBHOOK.md's ceiling build (target jobset-webhook-noop, never deployed): every
      // admission request is answered with a fixed review of the benchmark's reply size, so
      // that what the server costs around the handler is measured alone.
      static_cast<void>(endpoint);
      reply.status = 200;
      reply.verdict = "allowed";
      reply.body = R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",)"
                   R"("response":{"uid":"00000000-0000-0000-0000-000000000000","allowed":true}})";
#else
      reply = HandleAdmission(endpoint, req.get_header_value("Content-Type"), body, options_);
#endif
      break;
    case BodyRead::kTooLarge:
    case BodyRead::kTooLargeUnread:
      reply.status = 413;
      reply.verdict = "too_large";
      reply.error = "request body larger than " + std::to_string(config_.max_body_bytes) + " bytes";
      reply.body = StatusDocument(413, "RequestEntityTooLarge", reply.error);
      break;
    case BodyRead::kFailed:
      reply.status = 400;
      reply.verdict = "bad_request";
      reply.error = "cannot read the request body";
      reply.body = StatusDocument(400, "BadRequest", reply.error);
      break;
  }
  double seconds = Seconds(start);
  res.status = reply.status;
  res.set_content(std::move(reply.body), "application/json");
  // Draining, or a body left half-read: ask the client to go away.
  if (draining_ || read == BodyRead::kTooLargeUnread || read == BodyRead::kFailed) {
    res.set_header("Connection", "close");
  }
  metrics_->ObserveRequest(path, reply.verdict, reply.status, seconds);
  metrics_->AddInFlight(-1);
  LogFields fields;
  fields.Add("path", path)
      .Add("uid", reply.uid)
      .Add("kind", reply.kind)
      .Add("name", reply.name)
      .Add("namespace", reply.namespace_name)
      .Add("operation", reply.operation)
      .Add("verdict", reply.verdict)
      .Add("code", reply.status)
      .Add("latency_ms", seconds * 1000)
      .Add("remote", req.remote_addr);
  if (reply.review_code) fields.Add("reviewCode", reply.review_code);
  if (reply.dry_run) fields.Add("dryRun", true);
  if (reply.warnings) fields.Add("warnings", reply.warnings);
  if (!reply.api_version.empty()) fields.Add("apiVersion", reply.api_version);
  if (!reply.error.empty()) fields.Add("error", reply.error);
  if (reply.status >= 400) {
    log_->Warn("request refused", fields);
  } else {
    log_->Info("admission", fields);
  }
}

void WebhookServer::AddAdmissionRoutes(httplib::Server& server) {
  // Routing is on the path alone: the API server appends "?timeout=10s", which cpp-httplib
  // parses into parameters.
  std::vector<const char*> paths;
  for (const KindAdmission& kind : KindAdmissions()) {
    for (AdmissionVerb verb : {AdmissionVerb::kMutate, AdmissionVerb::kValidate}) {
      const char* path = AdmissionPath(kind, verb);
      if (!path) continue;
      Endpoint endpoint{kind.kind, verb};
      server.Post(path, [this, endpoint, path](const httplib::Request& req, httplib::Response& res,
                                               const httplib::ContentReader& reader) {
        ServeAdmission(endpoint, path, req, reader, res);
      });
      paths.push_back(path);
    }
  }
  for (const char* path : paths) {
    server.Get(path, [this, path](const httplib::Request& req, httplib::Response& res) {
      res.status = 405;
      res.set_header("Allow", "POST");
      res.set_content(StatusDocument(405, "MethodNotAllowed",
                                     std::string("use POST with an AdmissionReview on ") + path),
                      "application/json");
      LogHttpError(req, res, "method not allowed");
    });
  }
}

void WebhookServer::AddFallbackRoutes(httplib::Server& server) {
  // Without a handler, cpp-httplib reads the body of a POST, PUT, PATCH or DELETE to an
  // unknown path whole (a chunked one without any limit) before answering 404. These
  // catch-alls, registered last, read it through ReadBody instead.
  auto not_found = [this](const httplib::Request& req, httplib::Response& res,
                          const httplib::ContentReader& reader) {
    std::string ignored;
    BodyRead read = ReadBody(req, reader, config_.max_body_bytes, &ignored);
    res.status = 404;
    std::string message = "no handler for " + req.method + " " + req.path;
    res.set_content(StatusDocument(404, "NotFound", message), "application/json");
    if (draining_ || read == BodyRead::kTooLargeUnread || read == BodyRead::kFailed) {
      res.set_header("Connection", "close");
    }
    LogHttpError(req, res, message);
  };
  server.Post(".*", not_found);
  server.Put(".*", not_found);
  server.Patch(".*", not_found);
  server.Delete(".*", not_found);
}

void WebhookServer::AddHealthRoutes(httplib::Server& server) {
  server.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok\n", "text/plain");
  });
  server.Get("/readyz", [this](const httplib::Request&, httplib::Response& res) {
    if (draining_) {
      res.status = 503;
      res.set_content("shutting down\n", "text/plain");
    } else if (!store_->Current()) {
      res.status = 503;
      res.set_content("no serving certificate loaded yet\n", "text/plain");
    } else {
      res.set_content("ok\n", "text/plain");
    }
  });
  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics_->Render(), "text/plain; version=0.0.4; charset=utf-8");
  });
}

bool WebhookServer::Bind(std::string* error) {
  std::string tls_error;
  auto https = std::make_unique<TlsServer>(
      [&](SSL_CTX& ctx) { return hooks_.Configure(&ctx, config_.tls, &tls_error); });
  if (!https->is_valid()) {
    *error =
        "TLS setup failed: " + (tls_error.empty() ? "cannot create an SSL context" : tls_error);
    return false;
  }
  Configure(*https, true);
  AddAdmissionRoutes(*https);
  AddFallbackRoutes(*https);
  auto on_listener_error = [this](const std::string& message) {
    log_->Error("listener error", {{"error", message}});
  };
  https_ = std::make_unique<Listener>(std::move(https), config_.bind_address, config_.port,
                                      config_.listen_backlog, on_listener_error);
  if (!https_->Bind(error)) return false;

  auto health = std::make_unique<httplib::Server>();
  Configure(*health, false);
  AddHealthRoutes(*health);
  AddFallbackRoutes(*health);
  health_ =
      std::make_unique<Listener>(std::move(health), config_.health_bind_address,
                                 config_.health_port, config_.listen_backlog, on_listener_error);
  return health_->Bind(error);
}

void WebhookServer::Start() {
  if (https_) https_->Start();
  if (health_) health_->Start();
}

void WebhookServer::Stop() {
  draining_ = true;
  if (https_) https_->Stop();
  if (health_) health_->Stop();
}

}  // namespace jobset::webhook
