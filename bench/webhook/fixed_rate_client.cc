// fixed_rate_client: open-loop HTTPS load at a fixed request rate (what wrk2's -R does; the
// Debian wrk has no -R). Used by bench/webhook_bench.sh.
//
// C kept-alive TLS connections (one thread each) share a schedule: request k is due at
// start + k/RATE and goes out on connection k mod C. Latency is measured from the due time,
// not from when the request actually left, so a stalled server is charged for the requests
// that queued behind the stall (no "coordinated omission"); the time from the actual send is
// reported too, as service time. A request counts as an error unless the reply is HTTP 200
// with exactly the expected body.
//
// Build (bench/webhook_bench.sh does this when BUILD_DIR has no fixed_rate_client):
//   g++ -O2 -std=c++20 fixed_rate_client.cc $(pkg-config --cflags --libs cpp-httplib)
//       -lssl -lcrypto -pthread -o fixed_rate_client
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string ca, path = "/", body_file, expect_file, label = "target";
  double rate = 1000;
  double duration = 15;  // seconds measured
  double warmup = 2;     // seconds sent but not measured
  int connections = 8;
};

struct Sample {
  double latency_us;  // due time -> reply
  double service_us;  // actual send -> reply
};

struct Worker {
  std::vector<Sample> samples;
  long errors = 0;
  long sent = 0;
  std::string first_error;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fixed_rate_client: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "fixed_rate_client: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--host")
      o->host = next();
    else if (a == "--port")
      o->port = std::atoi(next().c_str());
    else if (a == "--cacert")
      o->ca = next();
    else if (a == "--path")
      o->path = next();
    else if (a == "--body")
      o->body_file = next();
    else if (a == "--expect-body")
      o->expect_file = next();
    else if (a == "--label")
      o->label = next();
    else if (a == "--rate")
      o->rate = std::atof(next().c_str());
    else if (a == "--duration")
      o->duration = std::atof(next().c_str());
    else if (a == "--warmup")
      o->warmup = std::atof(next().c_str());
    else if (a == "--connections")
      o->connections = std::atoi(next().c_str());
    else
      return false;
  }
  return o->port > 0 && !o->ca.empty() && !o->body_file.empty() && o->rate > 0 && o->duration > 0 &&
         o->warmup >= 0 && o->connections > 0;
}

double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(p * static_cast<double>(sorted.size()));
  return sorted[std::min(sorted.size() - 1, i)];
}

std::string Summary(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "{\"p50\":%.1f,\"p90\":%.1f,\"p99\":%.1f,\"p999\":%.1f,\"max\":%.1f}",
                Percentile(v, 0.50), Percentile(v, 0.90), Percentile(v, 0.99), Percentile(v, 0.999),
                v.empty() ? 0.0 : v.back());
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!ParseArgs(argc, argv, &o)) {
    std::fprintf(stderr,
                 "usage: fixed_rate_client --port P --cacert CA.pem --path /x --body FILE "
                 "[--expect-body FILE] [--host H] [--rate 1000] [--duration 15] [--warmup 2] "
                 "[--connections 8] [--label NAME]\n");
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);  // A server closing mid-write is an error, not a crash.
  const std::string body = ReadFile(o.body_file);
  const bool check_body = !o.expect_file.empty();
  const std::string expected = check_body ? ReadFile(o.expect_file) : "";
  const long warm = static_cast<long>(o.warmup * o.rate);
  const long total = warm + static_cast<long>(o.duration * o.rate);
  const auto interval = std::chrono::duration<double>(1.0 / o.rate);

  std::vector<Worker> workers(o.connections);
  std::vector<std::thread> threads;
  std::atomic<int> connected{0};
  std::atomic<bool> go{false};
  Clock::time_point start;

  for (int c = 0; c < o.connections; ++c) {
    threads.emplace_back([&, c] {
      Worker& w = workers[c];
      httplib::SSLClient client(o.host, o.port);
      client.set_ca_cert_path(o.ca.c_str());
      client.enable_server_certificate_verification(true);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);
      client.set_decompress(false);
      client.set_connection_timeout(std::chrono::seconds(5));
      client.set_read_timeout(std::chrono::seconds(5));
      client.set_write_timeout(std::chrono::seconds(5));
      // Open the connection (TCP + TLS handshake) before the clock starts.
      auto hello = client.Post(o.path.c_str(), body, "application/json");
      if (!hello || hello->status != 200) {
        w.first_error = hello ? "HTTP " + std::to_string(hello->status)
                              : "connect: " + httplib::to_string(hello.error());
      }
      ++connected;
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      w.samples.reserve(static_cast<size_t>(total / o.connections + 1));
      for (long k = c; k < total; k += o.connections) {
        const auto due =
            start + std::chrono::duration_cast<Clock::duration>(interval * static_cast<double>(k));
        std::this_thread::sleep_until(due);
        const auto sent = Clock::now();
        auto res = client.Post(o.path.c_str(), body, "application/json");
        const auto done = Clock::now();
        ++w.sent;
        bool ok = res && res->status == 200 && (!check_body || res->body == expected);
        if (!ok) {
          ++w.errors;
          if (w.first_error.empty()) {
            w.first_error = !res                 ? httplib::to_string(res.error())
                            : res->status != 200 ? "HTTP " + std::to_string(res->status)
                                                 : "unexpected body: " + res->body.substr(0, 200);
          }
          continue;
        }
        if (k >= warm) {
          w.samples.push_back({std::chrono::duration<double, std::micro>(done - due).count(),
                               std::chrono::duration<double, std::micro>(done - sent).count()});
        }
      }
    });
  }
  while (connected.load() < o.connections)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  start = Clock::now() + std::chrono::milliseconds(20);
  go.store(true, std::memory_order_release);
  for (auto& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

  std::vector<double> latency, service;
  long errors = 0, sent = 0;
  std::string first_error;
  for (const Worker& w : workers) {
    errors += w.errors;
    sent += w.sent;
    if (first_error.empty()) first_error = w.first_error;
    for (const Sample& s : w.samples) {
      latency.push_back(s.latency_us);
      service.push_back(s.service_us);
    }
  }
  for (char& ch : first_error) {
    if (ch == '"' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20) ch = ' ';
  }
  std::printf(
      "{\"label\":\"%s\",\"rate\":%.0f,\"connections\":%d,\"warmup_s\":%.1f,\"duration_s\":%.1f,"
      "\"sent\":%ld,\"measured\":%zu,\"errors\":%ld,\"achieved_rate\":%.1f,"
      "\"latency_us\":%s,\"service_us\":%s,\"first_error\":\"%s\"}\n",
      o.label.c_str(), o.rate, o.connections, o.warmup, o.duration, sent, latency.size(), errors,
      static_cast<double>(sent) / elapsed, Summary(latency).c_str(), Summary(service).c_str(),
      first_error.c_str());
  return errors == 0 ? 0 : 1;
}
