// Structured logs: one JSON object per line on standard error.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace jobset::webhook {

/// Writes log records as single JSON lines ({"ts": ..., "level": ..., "msg": ..., fields...})
/// to a file descriptor. Thread-safe: each line is written whole, with one write call.
class Logger {
 public:
  /// Logs to `fd` (standard error by default). The descriptor is not owned.
  explicit Logger(int fd = 2) : fd_(fd) {}

  /// Writes one record; `fields` (an object, possibly empty) follow the fixed keys.
  void Log(std::string_view level, std::string_view msg,
           const nlohmann::ordered_json& fields = nlohmann::ordered_json::object());
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

  /// The current time as RFC 3339 UTC with milliseconds, e.g. "2026-01-02T03:04:05.678Z".
  static std::string Timestamp();

 private:
  int fd_;
  std::mutex mu_;
};

}  // namespace jobset::webhook
