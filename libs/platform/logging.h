// Leveled, single-line, key=value logs on stderr:
//
//   2024-05-01T12:00:00.123456Z INFO game-state msg="move played" game=g42 ply=17
//
// One line per event (newlines inside values are escaped) so log shippers
// never split an event. Thread-safe: each line is written with one write().
#ifndef DRAUGHTS_PLATFORM_LOGGING_H_
#define DRAUGHTS_PLATFORM_LOGGING_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"

namespace draughts::platform {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

// Accepts debug, info, warn/warning, error (any case).
absl::StatusOr<LogLevel> ParseLogLevel(std::string_view text);
std::string_view LogLevelName(LogLevel level);

// One key=value pair. Converts from the common value types.
struct LogField {
  template <typename T>
  LogField(std::string_view k, const T& v) : key(k), value(ToText(v)) {}

  std::string key;
  std::string value;

 private:
  template <typename T>
  static std::string ToText(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
      return v ? "true" : "false";
    } else if constexpr (std::is_same_v<T, absl::Status>) {
      return v.ToString();
    } else if constexpr (std::is_same_v<T, absl::Duration>) {
      return absl::FormatDuration(v);
    } else if constexpr (std::is_same_v<T, std::string_view>) {
      return std::string(v);
    } else if constexpr (std::is_same_v<T, absl::string_view>) {
      return std::string(v);
    } else {
      return absl::StrCat(v);
    }
  }
};

// Builds a line without writing it (exposed for tests and custom sinks).
std::string FormatLogLine(absl::Time when, LogLevel level, std::string_view service,
                          std::string_view message, std::initializer_list<LogField> fields);

// Process-wide settings; call once from main after parsing the config.
void InitLogging(std::string service, LogLevel min_level);
LogLevel MinLogLevel();
// Replaces the stderr writer (tests). Pass nullptr to restore stderr.
void SetLogSinkForTesting(std::function<void(std::string_view line)> sink);

void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields = {});
inline void LogDebug(std::string_view m, std::initializer_list<LogField> f = {}) {
  Log(LogLevel::kDebug, m, f);
}
inline void LogInfo(std::string_view m, std::initializer_list<LogField> f = {}) {
  Log(LogLevel::kInfo, m, f);
}
inline void LogWarn(std::string_view m, std::initializer_list<LogField> f = {}) {
  Log(LogLevel::kWarn, m, f);
}
inline void LogError(std::string_view m, std::initializer_list<LogField> f = {}) {
  Log(LogLevel::kError, m, f);
}

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_LOGGING_H_
