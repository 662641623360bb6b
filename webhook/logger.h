// Structured logs: one JSON object per line on standard error.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>

namespace jobset::webhook {

/// The fields of one log record, written as JSON text as they are added: the line logged for
/// every request is built without a JSON document (that cost ~5% of a request).
class LogFields {
 public:
  LogFields& Add(std::string_view key, std::string_view value);
  LogFields& Add(std::string_view key, const char* value) {
    return Add(key, std::string_view(value));
  }
  LogFields& Add(std::string_view key, const std::string& value) {
    return Add(key, std::string_view(value));
  }
  LogFields& Add(std::string_view key, int64_t value);
  LogFields& Add(std::string_view key, int value) { return Add(key, int64_t{value}); }
  LogFields& Add(std::string_view key, size_t value);
  /// Finite numbers as the shortest text that reads back the same (1.0 as "1.0"); others as
  /// null.
  LogFields& Add(std::string_view key, double value);
  LogFields& Add(std::string_view key, bool value);

  /// `,"key":value` for each field, in the order added.
  const std::string& text() const { return text_; }

 private:
  void Key(std::string_view key);
  std::string text_;
};

/// Writes log records as single JSON lines ({"ts": ..., "level": ..., "msg": ..., fields...})
/// to a file descriptor. Thread-safe, and lines are never mixed: callers append whole lines to
/// a buffer and one writer thread writes it out, many lines per write call. Connection threads
/// used to write under a mutex held across the write(2), and waited on each other for it: that
/// lock was 96% of the server's futex calls under load. The writer writes every 10 ms (sooner
/// when 64 KiB are waiting, at Flush, or at destruction), so a line reaches the log within
/// about 10 ms.
class Logger {
 public:
  /// Logs to `fd` (standard error by default). The descriptor is not owned.
  explicit Logger(int fd = 2);
  /// Writes every line logged so far, then stops the writer.
  ~Logger();
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  /// Writes one record; `fields` (an object, possibly empty) follow the fixed keys.
  void Log(std::string_view level, std::string_view msg,
           const nlohmann::ordered_json& fields = nlohmann::ordered_json::object());
  /// The same with fields built as text.
  void Log(std::string_view level, std::string_view msg, const LogFields& fields);
  /// Shorthands for the levels in use.
  void Info(std::string_view msg,
            const nlohmann::ordered_json& fields = nlohmann::ordered_json::object()) {
    Log("info", msg, fields);
  }
  void Warn(std::string_view msg,
            const nlohmann::ordered_json& fields = nlohmann::ordered_json::object()) {
    Log("warn", msg, fields);
  }
  void Error(std::string_view msg,
             const nlohmann::ordered_json& fields = nlohmann::ordered_json::object()) {
    Log("error", msg, fields);
  }

  void Info(std::string_view msg, const LogFields& fields) { Log("info", msg, fields); }
  void Warn(std::string_view msg, const LogFields& fields) { Log("warn", msg, fields); }

  /// Returns once every line logged before the call has been written (before an exit that
  /// skips destructors).
  void Flush();

  /// The current time as RFC 3339 UTC with milliseconds, e.g. "2026-01-02T03:04:05.678Z".
  static std::string Timestamp();

 private:
  /// Bytes waiting beyond which callers wait for the writer (a stalled log reader slows the
  /// server down, as a blocking write did, rather than growing memory without bound).
  static constexpr size_t kMaxPending = 4 << 20;
  /// How long a line waits at most before it is written.
  static constexpr std::chrono::milliseconds kWriteInterval{10};
  /// Bytes waiting that wake the writer before its interval is up.
  static constexpr size_t kWakeBytes = 64 << 10;

  /// Queues one whole line.
  void Write(const std::string& line);
  /// The writer thread: writes out what is pending until stopped and empty.
  void Drain();

  int fd_;
  std::mutex mu_;
  std::condition_variable wake_;     ///< The writer waits here for lines.
  std::condition_variable written_;  ///< Callers wait here for room, Flush for the end.
  std::string pending_;              ///< Lines not yet handed to the writer.
  bool writing_ = false;             ///< The writer is writing a batch (outside the lock).
  bool stop_ = false;
  bool flush_ = false;  ///< Flush asks for a write now.
  std::thread writer_;
};

}  // namespace jobset::webhook
