// The gRPC server every service main runs:
//
//   ServeOptions options = ...;   // e.g. from ServeOptionsFromConfig
//   GameServiceImpl game(...);
//   absl::Status status = Serve(options, {&game});
//   return status.ok() ? 0 : 1;
//
// It listens on options.address (port 0 picks a free one), registers the
// services plus grpc.health.v1 health checking and server reflection,
// records per-method RPC metrics, and reports SERVING. On SIGTERM/SIGINT it
// reports NOT_SERVING, keeps serving for the drain period (so load balancers
// notice and stop routing), then shuts down giving in-flight calls up to
// shutdown_timeout, and returns OK. A second signal during the drain skips
// the rest of it.
//
// Readiness: with readiness_probes (see readiness.h), a background checker
// runs them every readiness_interval and reports NOT_SERVING (the server
// "" and every service) while any fails, SERVING when all answer again.
// Draining wins: once SIGTERM arrived, nothing reports SERVING again.
#ifndef DRAUGHTS_PLATFORM_SERVE_H_
#define DRAUGHTS_PLATFORM_SERVE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/readiness.h"
#include "platform/shutdown_signal.h"
#include "prometheus/registry.h"

namespace draughts::platform {

// 32 still let game_state create a thread for a seventh of its CPU at 2,000
// tables, where the calls in flight outnumber it; 256 idle threads cost it
// about 40 MB (docs/BENCHMARKS.md, "Per process tuning").
inline constexpr int kDefaultIdleHandlerThreads = 256;

struct ServeOptions {
  std::string address = "0.0.0.0:0";
  absl::Duration drain = absl::Seconds(5);
  absl::Duration shutdown_timeout = absl::Seconds(10);
  // Registry for RPC metrics; null means the process-wide MetricsRegistry().
  std::shared_ptr<prometheus::Registry> metrics_registry;
  // When >= 0, Serve also starts the process-wide metrics exposer on
  // metrics_host:metrics_port (0 = any free port) unless one is running.
  int metrics_port = -1;
  std::string metrics_host = "0.0.0.0";
  // The synchronous server ends a handler thread once more than this many
  // are idle and starts new ones under load; gRPC's default (2) makes a
  // service with many calls in flight create and destroy a thread for most
  // of them (measured on the clock's heartbeats: thread creation and
  // teardown led its profile).
  int max_idle_handler_threads = kDefaultIdleHandlerThreads;
  // Extra builder settings (message sizes, keepalive...), applied last.
  std::function<void(grpc::ServerBuilder&)> configure_builder;
  // Called once the server accepts calls, with the bound ports (metrics 0
  // when not started): start background work that needs the server, print
  // the port (PrintListeningPort) for scripts that started us on port 0.
  std::function<void(int grpc_port, int metrics_port)> on_started;
  // Called once when the shutdown signal arrives, before the drain: tell
  // streams to resume elsewhere, stop consumers (their entries stay pending
  // for another replica) while calls in flight still finish.
  std::function<void()> on_shutdown_requested;
  // What ends Serve. Null: Serve installs SIGTERM/SIGINT handlers itself.
  ShutdownSignal* shutdown_signal = nullptr;
  // Dependencies the service cannot answer without (Redis, PostgreSQL).
  std::vector<ReadinessProbe> readiness_probes;
  absl::Duration readiness_interval = absl::Seconds(2);
};

// A started server. Serve() is Start + wait for a signal + DrainAndStop;
// tests use the pieces directly.
class RunningServer {
 public:
  static absl::StatusOr<std::unique_ptr<RunningServer>> Start(
      const ServeOptions& options, const std::vector<grpc::Service*>& services);
  ~RunningServer();

  int port() const { return port_; }
  grpc::Server& server() { return *server_; }

  // Reports NOT_SERVING, waits `drain` (cut short when `interrupt` fires),
  // then shuts down with `timeout` for in-flight calls and waits for the
  // server threads. Idempotent.
  void DrainAndStop(absl::Duration drain, absl::Duration timeout,
                    ShutdownSignal* interrupt = nullptr);

 private:
  RunningServer(std::unique_ptr<grpc::Server> server, int port);

  std::unique_ptr<grpc::Server> server_;
  int port_;
  std::unique_ptr<ReadinessChecker> readiness_;
  bool stopped_ = false;
};

absl::Status Serve(const ServeOptions& options, const std::vector<grpc::Service*>& services);

// Prints "LISTENING <port>" on stdout and flushes: the line scripts and tests
// read to find a service started on port 0.
void PrintListeningPort(int grpc_port);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_SERVE_H_
