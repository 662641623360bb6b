// jobset-webhook: the admission webhook server. See README.md.
#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#ifdef JOBSET_MIMALLOC
#include <mimalloc.h>
#endif

#include "validation/jobset/feature_gates.h"
#include "webhook/cert_store.h"
#include "webhook/flags.h"
#include "webhook/logger.h"
#include "webhook/metrics.h"
#include "webhook/server.h"

namespace jobset::webhook {
namespace {

// Which malloc serves the requests (mimalloc unless built with sanitizers), for the start-up log.
std::string AllocatorName() {
#ifdef JOBSET_MIMALLOC
  const int v = mi_version();  // e.g. 209 for 2.0.9
  return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
         std::to_string(v % 10);
#else
  return "glibc";
#endif
}

int Run(const WebhookConfig& config) {
  // SIGTERM and SIGINT are blocked in every thread (threads inherit the mask) and taken
  // synchronously by sigtimedwait below: no signal handler, no global flag. SIGPIPE (a peer
  // that closed mid-write) must not kill the process.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  Logger log;
  Metrics metrics;
  CertificateStore store(config.cert_file, config.key_file);
  auto report = [&](ReloadResult result, const CertificatePair* pair, const std::string& error) {
    if (result == ReloadResult::kLoaded && pair) {
      metrics.CountCertificateReload(true);
      metrics.SetCertificateExpiry(pair->not_after());
      log.Info("serving certificate loaded", {{"serial", pair->serial()},
                                              {"subject", pair->subject()},
                                              {"notAfter", pair->not_after()},
                                              {"certFile", config.cert_file}});
    } else if (result == ReloadResult::kFailed) {
      metrics.CountCertificateReload(false);
      log.Error(pair ? "cannot load the new certificate; keeping the current one"
                     : "cannot load a serving certificate; not ready until one loads",
                {{"error", error}, {"certFile", config.cert_file}, {"keyFile", config.key_file}});
    }
  };
  std::string error;
  ReloadResult first = store.Reload(&error);
  report(first, store.Current().get(), error);
  store.StartPolling(config.cert_poll_interval, report);

  WebhookServer server(config, &store, &log, &metrics);
  if (!server.Bind(&error)) {
    log.Error("cannot start", {{"error", error}});
    return 1;
  }
  server.Start();
  log.Info("serving", {{"version", JOBSET_VERSION},
                       {"allocator", AllocatorName()},
                       {"address", config.bind_address},
                       {"port", server.port()},
                       {"healthAddress", config.health_bind_address},
                       {"healthPort", server.health_port()},
                       {"featureGates", FormatFeatureGates(config.gates)},
                       {"tlsMinVersion", config.tls.min_version == TLS1_3_VERSION ? "1.3" : "1.2"},
                       {"clientCertificates", !config.tls.client_ca_file.empty()}});

  int sig = -1;
  while (sig <= 0) {
    timespec wait{1, 0};
    sig = sigtimedwait(&signals, nullptr, &wait);
  }
  log.Info("shutting down",
           {{"signal", strsignal(sig)}, {"delayMs", config.shutdown_delay.count()}});
  server.BeginDrain();
  if (config.shutdown_delay.count() > 0) std::this_thread::sleep_for(config.shutdown_delay);

  // A worker stuck on a client that trickles bytes could hold the shutdown forever: bound it.
  std::mutex mu;
  std::condition_variable cv;
  bool stopped = false;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(mu);
    if (!cv.wait_for(lock, config.shutdown_timeout, [&] { return stopped; })) {
      log.Error("requests still in flight after the shutdown timeout; exiting",
                {{"timeoutMs", config.shutdown_timeout.count()}});
      log.Flush();
      std::_Exit(1);
    }
  });
  server.Stop();
  {
    std::lock_guard<std::mutex> lock(mu);
    stopped = true;
  }
  cv.notify_all();
  watchdog.join();
  store.StopPolling();
  log.Info("stopped");
  return 0;
}

}  // namespace
}  // namespace jobset::webhook

int main(int argc, char** argv) {
  jobset::webhook::WebhookConfig config;
  std::string out, err;
  switch (jobset::webhook::ParseFlags(argc, argv, &config, &out, &err)) {
    case jobset::webhook::FlagsResult::kExitOk:
      std::fputs(out.c_str(), stdout);
      return 0;
    case jobset::webhook::FlagsResult::kUsageError:
      std::fputs(out.c_str(), stdout);
      std::fputs(err.c_str(), stderr);
      return 2;
    case jobset::webhook::FlagsResult::kRun:
      break;
  }
  return jobset::webhook::Run(config);
}
