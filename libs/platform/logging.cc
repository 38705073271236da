#include "platform/logging.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>
#include <utility>

#include "absl/strings/ascii.h"
#include "platform/absl_compat.h"

namespace draughts::platform {
namespace {

struct LogState {
  std::mutex mu;
  std::string service = "draughts";
  std::function<void(std::string_view)> sink;
};

LogState& State() {
  static auto* state = new LogState();  // never destroyed: logging may run during exit
  return *state;
}

std::atomic<int> g_min_level{static_cast<int>(LogLevel::kInfo)};

bool NeedsQuotes(std::string_view value) {
  if (value.empty()) return true;
  for (char c : value) {
    if (c == ' ' || c == '"' || c == '=' || c == '\\' || static_cast<unsigned char>(c) < 0x20) {
      return true;
    }
  }
  return false;
}

void AppendValue(std::string& out, std::string_view value) {
  if (!NeedsQuotes(value)) {
    out.append(value);
    return;
  }
  out.push_back('"');
  for (char c : value) {
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out.append("\\x");
          out.push_back(kHex[(c >> 4) & 0xf]);
          out.push_back(kHex[c & 0xf]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

// Keys come from code, but keep them token-like so lines stay parseable.
void AppendKey(std::string& out, std::string_view key) {
  if (key.empty()) {
    out.append("_");
    return;
  }
  for (char c : key) {
    out.push_back(absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
                          c == '-'
                      ? c
                      : '_');
  }
}

void WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // nowhere left to report a failing stderr
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace

absl::StatusOr<LogLevel> ParseLogLevel(std::string_view text) {
  std::string lower = absl::AsciiStrToLower(ToAbsl(text));
  if (lower == "debug") return LogLevel::kDebug;
  if (lower == "info") return LogLevel::kInfo;
  if (lower == "warn" || lower == "warning") return LogLevel::kWarn;
  if (lower == "error") return LogLevel::kError;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown log level \"", ToAbsl(text), "\"; use debug, info, warn or error"));
}

std::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO";
    case LogLevel::kWarn:
      return "WARN";
    case LogLevel::kError:
      return "ERROR";
  }
  return "?";
}

std::string FormatLogLine(absl::Time when, LogLevel level, std::string_view service,
                          std::string_view message, std::initializer_list<LogField> fields) {
  std::string line = absl::FormatTime("%Y-%m-%dT%H:%M:%E6SZ", when, absl::UTCTimeZone());
  line.push_back(' ');
  line.append(LogLevelName(level));
  line.push_back(' ');
  AppendValue(line, service);
  line.append(" msg=");
  AppendValue(line, message);
  for (const LogField& field : fields) {
    line.push_back(' ');
    AppendKey(line, field.key);
    line.push_back('=');
    AppendValue(line, field.value);
  }
  line.push_back('\n');
  return line;
}

void InitLogging(std::string service, LogLevel min_level) {
  LogState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  state.service = std::move(service);
  g_min_level.store(static_cast<int>(min_level), std::memory_order_relaxed);
}

LogLevel MinLogLevel() {
  return static_cast<LogLevel>(g_min_level.load(std::memory_order_relaxed));
}

void SetLogSinkForTesting(std::function<void(std::string_view line)> sink) {
  LogState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  state.sink = std::move(sink);
}

void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields) {
  if (static_cast<int>(level) < g_min_level.load(std::memory_order_relaxed)) return;
  LogState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  std::string line = FormatLogLine(absl::Now(), level, state.service, message, fields);
  if (state.sink) {
    state.sink(line);
  } else {
    WriteAll(STDERR_FILENO, line);
  }
}

}  // namespace draughts::platform
