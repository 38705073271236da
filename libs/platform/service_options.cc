#include "platform/service_options.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/status_macros.h"

namespace draughts::platform {

void AddStandardServiceOptions(ConfigSpec& spec, std::string_view env_prefix, int default_port,
                               int default_metrics_port) {
  std::string prefix(env_prefix);
  spec.AddString("listen", prefix + "_LISTEN", absl::StrCat("0.0.0.0:", default_port),
                 "gRPC listen address host:port (port 0 picks a free port)");
  spec.AddInt("metrics-port", prefix + "_METRICS_PORT", default_metrics_port,
              "Prometheus /metrics port (0 picks a free port, -1 disables)");
  spec.AddString("log-level", prefix + "_LOG_LEVEL", "info", "debug, info, warn or error");
  spec.AddDuration("drain", prefix + "_DRAIN", absl::Seconds(5),
                   "after SIGTERM: report NOT_SERVING and keep serving this long");
  spec.AddDuration("shutdown-timeout", prefix + "_SHUTDOWN_TIMEOUT", absl::Seconds(10),
                   "after the drain: time in-flight calls get before being cancelled");
  spec.AddDuration("readiness-interval", prefix + "_READINESS_INTERVAL", absl::Seconds(2),
                   "how often dependencies (Redis, PostgreSQL) are probed for the health service");
  spec.AddInt("max-handler-threads", prefix + "_MAX_HANDLER_THREADS", kDefaultIdleHandlerThreads,
              "idle gRPC handler threads kept alive (a synchronous call holds one while it runs)");
}

absl::StatusOr<ServeOptions> ServeOptionsFromConfig(const Config& config) {
  ServeOptions options;
  DRAUGHTS_ASSIGN_OR_RETURN(options.address, config.GetString("listen"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t metrics_port, config.GetInt("metrics-port"));
  if (metrics_port < -1 || metrics_port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--metrics-port ", metrics_port, " is not a port (0-65535, or -1 for none)"));
  }
  options.metrics_port = static_cast<int>(metrics_port);
  DRAUGHTS_ASSIGN_OR_RETURN(options.drain, config.GetDuration("drain"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.shutdown_timeout, config.GetDuration("shutdown-timeout"));
  if (options.drain < absl::ZeroDuration() || options.shutdown_timeout < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--drain and --shutdown-timeout must not be negative");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(options.readiness_interval, config.GetDuration("readiness-interval"));
  if (options.readiness_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--readiness-interval must be positive");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t handler_threads, config.GetInt("max-handler-threads"));
  if (handler_threads < 2 || handler_threads > 4096) {
    return absl::InvalidArgumentError("--max-handler-threads must be 2-4096");
  }
  options.max_idle_handler_threads = static_cast<int>(handler_threads);
  return options;
}

absl::Status InitLoggingFromConfig(const Config& config, std::string service) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::string text, config.GetString("log-level"));
  DRAUGHTS_ASSIGN_OR_RETURN(LogLevel level, ParseLogLevel(text));
  InitLogging(std::move(service), level);
  return absl::OkStatus();
}

}  // namespace draughts::platform
