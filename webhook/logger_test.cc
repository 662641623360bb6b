#include "webhook/logger.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
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

}  // namespace
}  // namespace jobset::webhook
