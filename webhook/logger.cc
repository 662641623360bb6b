#include "webhook/logger.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "validation/core/json_node.h"

namespace jobset::webhook {

void LogFields::Key(std::string_view key) {
  text_ += ',';
  AppendJsonString(key, &text_);
  text_ += ':';
}

LogFields& LogFields::Add(std::string_view key, std::string_view value) {
  Key(key);
  AppendJsonString(value, &text_);
  return *this;
}

LogFields& LogFields::Add(std::string_view key, int64_t value) {
  Key(key);
  text_ += std::to_string(value);
  return *this;
}

LogFields& LogFields::Add(std::string_view key, size_t value) {
  Key(key);
  text_ += std::to_string(value);
  return *this;
}

LogFields& LogFields::Add(std::string_view key, double value) {
  Key(key);
  if (!std::isfinite(value)) {
    text_ += "null";
    return *this;
  }
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  std::string_view number(buf, static_cast<size_t>(end - buf));
  text_ += number;
  if (number.find_first_of(".en") == std::string_view::npos) text_ += ".0";
  return *this;
}

LogFields& LogFields::Add(std::string_view key, bool value) {
  Key(key);
  text_ += value ? "true" : "false";
  return *this;
}

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
  Write(text);
}

void Logger::Log(std::string_view level, std::string_view msg, const LogFields& fields) {
  std::string text = "{\"ts\":\"" + Timestamp() + "\",\"level\":";
  AppendJsonString(level, &text);
  text += ",\"msg\":";
  AppendJsonString(msg, &text);
  text += fields.text();
  text += "}\n";
  Write(text);
}

Logger::Logger(int fd) : fd_(fd), writer_([this] { Drain(); }) {}

Logger::~Logger() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_one();
  writer_.join();
}

void Logger::Write(const std::string& text) {
  std::unique_lock<std::mutex> lock(mu_);
  written_.wait(lock, [&] { return pending_.size() < kMaxPending; });
  pending_ += text;
  // The writer looks every kWriteInterval anyway: waking it for each line cost a futex call
  // and a context switch per request. Only a large backlog wakes it early.
  if (pending_.size() >= kWakeBytes && !writing_) wake_.notify_one();
}

void Logger::Flush() {
  std::unique_lock<std::mutex> lock(mu_);
  flush_ = true;
  wake_.notify_one();
  written_.wait(lock, [&] { return pending_.empty() && !writing_; });
}

void Logger::Drain() {
  std::string batch;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait_for(lock, kWriteInterval,
                   [&] { return stop_ || flush_ || pending_.size() >= kWakeBytes; });
    flush_ = false;
    if (pending_.empty()) {
      if (stop_) return;  // Stopped, and everything is written.
      continue;
    }
    batch.swap(pending_);  // pending_ keeps the old batch's capacity.
    writing_ = true;
    lock.unlock();
    const char* p = batch.data();
    size_t left = batch.size();
    while (left > 0) {
      ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        break;  // Nowhere to report a failing log stream.
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
    batch.clear();
    lock.lock();
    writing_ = false;
    written_.notify_all();
  }
}

}  // namespace jobset::webhook
