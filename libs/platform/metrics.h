// Prometheus metrics: one registry and one HTTP exposer per process. The
// exposer listens on its own port (separate from gRPC) and serves /metrics.
#ifndef DRAUGHTS_PLATFORM_METRICS_H_
#define DRAUGHTS_PLATFORM_METRICS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "prometheus/registry.h"

namespace draughts::platform {

// The process-wide registry. Every metric of a service is added here so one
// scrape sees all of them. Never null; lives until exit.
std::shared_ptr<prometheus::Registry> MetricsRegistry();

// Starts the process-wide exposer on host:port serving MetricsRegistry() at
// /metrics. Port 0 picks a free port. Returns the bound port. A second call
// returns FAILED_PRECONDITION (one exposer per process); binding errors are
// UNAVAILABLE.
absl::StatusOr<int> StartMetricsExposer(const std::string& host, int port);

// The port of the running exposer, or 0 when none was started.
int MetricsExposerPort();

// Stops the exposer (tests, and orderly shutdown). Safe when not started.
void StopMetricsExposer();

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_METRICS_H_
