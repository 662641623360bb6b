#include "webhook/logger.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace jobset::webhook {

std::string Logger::Timestamp() {
  using std::chrono::system_clock;
  auto now = system_clock::now();
  std::time_t secs = system_clock::to_time_t(now);
  auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(millis));
  return buf;
}

void Logger::Log(std::string_view level, std::string_view msg,
                 const nlohmann::ordered_json& fields) {
  nlohmann::ordered_json line = {{"ts", Timestamp()}, {"level", level}, {"msg", msg}};
  if (fields.is_object()) {
    for (auto it = fields.begin(); it != fields.end(); ++it) line[it.key()] = it.value();
  }
  std::string text = line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  text += '\n';
  std::lock_guard<std::mutex> lock(mu_);
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // Nowhere to report a failing log stream.
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace jobset::webhook
