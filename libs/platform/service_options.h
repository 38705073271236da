// The options every service shares, declared once so all mains agree:
//
//   --listen            <PREFIX>_LISTEN            gRPC address, "0.0.0.0:<port>"
//   --metrics-port      <PREFIX>_METRICS_PORT      Prometheus port (0 = any free, -1 = off)
//   --log-level         <PREFIX>_LOG_LEVEL         debug | info | warn | error
//   --drain             <PREFIX>_DRAIN             NOT_SERVING period before stopping
//   --shutdown-timeout  <PREFIX>_SHUTDOWN_TIMEOUT  time in-flight calls get at stop
//   --readiness-interval <PREFIX>_READINESS_INTERVAL how often readiness probes run
//   --max-handler-threads <PREFIX>_MAX_HANDLER_THREADS idle gRPC handler threads kept
//
// The prefix (e.g. "DRAUGHTS_RATING") keeps env vars of services that share
// a shell or a pod apart.
#ifndef DRAUGHTS_PLATFORM_SERVICE_OPTIONS_H_
#define DRAUGHTS_PLATFORM_SERVICE_OPTIONS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/config.h"
#include "platform/serve.h"

namespace draughts::platform {

void AddStandardServiceOptions(ConfigSpec& spec, std::string_view env_prefix, int default_port,
                               int default_metrics_port);

// Builds ServeOptions from the standard options (validating ranges).
absl::StatusOr<ServeOptions> ServeOptionsFromConfig(const Config& config);

// InitLogging(service, --log-level).
absl::Status InitLoggingFromConfig(const Config& config, std::string service);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_SERVICE_OPTIONS_H_
