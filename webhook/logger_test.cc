#include "webhook/logger.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace jobset::webhook {
namespace {

// Everything a Logger wrote to a pipe, as text.
std::string Drain(int fd) {
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  return out;
}

TEST_CASE("logger: a request line is one JSON object, fields in order, text escaped") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  {
    Logger log(fds[1]);
    LogFields fields;
    fields.Add("path", "/validate")
        .Add("name", std::string("a\"b\\c\nd\x01") + "\xff")  // quote, escapes, bad UTF-8
        .Add("code", 422)
        .Add("warnings", size_t{3})
        .Add("latency_ms", 1.0)
        .Add("fraction", 0.25)
        .Add("nan", std::nan(""))
        .Add("dryRun", true);
    log.Info("admission", fields);
    log.Warn("request refused", LogFields().Add("error", "too large"));
  }
  ::close(fds[1]);
  std::string text = Drain(fds[0]);
  ::close(fds[0]);
  REQUIRE(std::count(text.begin(), text.end(), '\n') == 2);
  std::string first = text.substr(0, text.find('\n'));
  auto line = nlohmann::ordered_json::parse(first);
  std::vector<std::string> keys;
  for (auto it = line.begin(); it != line.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"ts", "level", "msg", "path", "name", "code", "warnings",
                                         "latency_ms", "fraction", "nan", "dryRun"});
  CHECK(line["level"] == "info");
  CHECK(line["msg"] == "admission");
  CHECK(line["name"] == "a\"b\\c\nd\x01\xEF\xBF\xBD");
  CHECK(line["code"] == 422);
  CHECK(line["warnings"] == 3);
  CHECK(line["latency_ms"].is_number_float());  // 1.0 stays a float, as nlohmann writes it
  CHECK(first.find("\"latency_ms\":1.0,") != std::string::npos);
  CHECK(line["fraction"] == 0.25);
  CHECK(line["nan"].is_null());
  CHECK(line["dryRun"] == true);
  auto second = nlohmann::json::parse(text.substr(text.find('\n') + 1));
  CHECK(second["level"] == "warn");
  CHECK(second["error"] == "too large");
}

TEST_CASE("logger: lines from many threads arrive whole, in each thread's order, all of them") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::string text;
  std::thread reader([&] { text = Drain(fds[0]); });
  constexpr int kThreads = 8, kLines = 3000;
  {
    Logger log(fds[1]);
    std::vector<std::thread> writers;
    for (int t = 0; t < kThreads; ++t) {
      writers.emplace_back([&log, t] {
        for (int i = 0; i < kLines; ++i) {
          // Some lines longer than PIPE_BUF, to show that lines never mix.
          std::string pad(i % 500 == 0 ? 6000 : 40, 'x');
          log.Info("admission", LogFields().Add("thread", t).Add("seq", i).Add("pad", pad));
        }
      });
    }
    for (std::thread& w : writers) w.join();
    log.Flush();
    // Flush has written everything so far; the destructor writes nothing more.
  }
  ::close(fds[1]);
  reader.join();
  ::close(fds[0]);
  std::vector<int> next(kThreads, 0);
  size_t lines = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    REQUIRE(end != std::string::npos);
    auto line = nlohmann::json::parse(text.substr(start, end - start));
    int t = line["thread"].get<int>();
    CHECK(line["seq"].get<int>() == next[t]);
    ++next[t];
    ++lines;
    start = end + 1;
  }
  CHECK(lines == size_t{kThreads} * kLines);
}

TEST_CASE("logger: what is logged before destruction is written by the destructor") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  {
    Logger log(fds[1]);
    for (int i = 0; i < 100; ++i) log.Info("line", LogFields().Add("i", i));
  }
  ::close(fds[1]);
  std::string text = Drain(fds[0]);
  ::close(fds[0]);
  CHECK(std::count(text.begin(), text.end(), '\n') == 100);
  CHECK(text.find("\"i\":99}") != std::string::npos);
}

}  // namespace
}  // namespace jobset::webhook
