// Structured logs: one JSON object per line on standard error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

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
/// to a file descriptor. Thread-safe: each line is written whole, with one write call.
class Logger {
 public:
  /// Logs to `fd` (standard error by default). The descriptor is not owned.
  explicit Logger(int fd = 2) : fd_(fd) {}

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

  /// The current time as RFC 3339 UTC with milliseconds, e.g. "2026-01-02T03:04:05.678Z".
  static std::string Timestamp();

 private:
  /// Writes one whole line.
  void Write(const std::string& line);

  int fd_;
  std::mutex mu_;
};

}  // namespace jobset::webhook
