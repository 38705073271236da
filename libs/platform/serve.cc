#include "platform/serve.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/impl/server_builder_option.h>
#include <grpcpp/impl/server_builder_plugin.h>
#include <grpcpp/impl/server_initializer.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/support/channel_arguments.h>

#include <chrono>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/allocator_tuning.h"
#include "platform/grpc_log_bridge.h"
#include "platform/logging.h"
#include "platform/metrics.h"
#include "platform/rpc_metrics.h"

namespace draughts::platform {
namespace {

// grpc::Service does not expose its name, but builder plugins get the list
// of registered service names; this one copies it out so each service can
// be reported SERVING / NOT_SERVING by name, not only the server as a whole.
class ServiceNamesPlugin : public grpc::ServerBuilderPlugin {
 public:
  explicit ServiceNamesPlugin(std::shared_ptr<std::vector<std::string>> names)
      : names_(std::move(names)) {}
  std::string name() override { return "draughts_service_names"; }
  void InitServer(grpc::ServerInitializer*) override {}
  void Finish(grpc::ServerInitializer* initializer) override {
    if (const std::vector<std::string>* list = initializer->GetServiceList()) *names_ = *list;
  }
  void ChangeArguments(const std::string&, void*) override {}

 private:
  std::shared_ptr<std::vector<std::string>> names_;
};

class ServiceNamesOption : public grpc::ServerBuilderOption {
 public:
  explicit ServiceNamesOption(std::shared_ptr<std::vector<std::string>> names)
      : names_(std::move(names)) {}
  void UpdateArguments(grpc::ChannelArguments*) override {}
  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    plugins->push_back(std::make_unique<ServiceNamesPlugin>(names_));
  }

 private:
  std::shared_ptr<std::vector<std::string>> names_;
};

}  // namespace

RunningServer::RunningServer(std::unique_ptr<grpc::Server> server, int port)
    : server_(std::move(server)), port_(port) {}

RunningServer::~RunningServer() {
  DrainAndStop(absl::ZeroDuration(), absl::ZeroDuration());
}

absl::StatusOr<std::unique_ptr<RunningServer>> RunningServer::Start(
    const ServeOptions& options, const std::vector<grpc::Service*>& services) {
  for (grpc::Service* service : services) {
    if (service == nullptr) return absl::InvalidArgumentError("Serve: a service is null");
  }
  if (!options.readiness_probes.empty() && options.readiness_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("Serve: the readiness interval must be positive");
  }
  RouteGrpcLogsToLogging();
  // Both are process-wide switches read when the builder is created / built.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  std::shared_ptr<prometheus::Registry> registry =
      options.metrics_registry != nullptr ? options.metrics_registry : MetricsRegistry();
  auto interceptor = MakeRpcMetricsInterceptorFactory(registry);
  if (!interceptor.ok()) return interceptor.status();

  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(options.address, grpc::InsecureServerCredentials(), &port);
  // gRPC sets SO_REUSEPORT by default, which would let a second process
  // silently share a port; a clash must fail loudly instead.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // Accept the keepalive pings of GrpcClient (every 30 s, also on idle
  // connections); gRPC's default (one per 5 min, only during calls) would
  // answer them with GOAWAY "too_many_pings".
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 10000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  auto service_names = std::make_shared<std::vector<std::string>>();
  builder.SetOption(std::make_unique<ServiceNamesOption>(service_names));
  for (grpc::Service* service : services) builder.RegisterService(service);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> creators;
  creators.push_back(std::move(interceptor).value());
  builder.experimental().SetInterceptorCreators(std::move(creators));
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS,
                              options.max_idle_handler_threads);
  if (options.configure_builder) options.configure_builder(builder);

  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    if (server != nullptr) server->Shutdown();
    return absl::UnavailableError(
        absl::StrCat("cannot serve gRPC on \"", options.address,
                     "\" (address in use, malformed, or a service registered twice)"));
  }
  if (grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService()) {
    for (const std::string& name : *service_names) health->SetServingStatus(name, true);
    health->SetServingStatus(true);  // "" (the whole server) and every name above
  }
  std::unique_ptr<RunningServer> running(new RunningServer(std::move(server), port));
  if (!options.readiness_probes.empty()) {
    grpc::HealthCheckServiceInterface* health = running->server_->GetHealthCheckService();
    running->readiness_ = std::make_unique<ReadinessChecker>(
        options.readiness_probes, options.readiness_interval, [health](bool ready) {
          // SetServingStatus(bool) covers "" and every service name; after
          // the health service's Shutdown (draining) it is ignored.
          if (health != nullptr) health->SetServingStatus(ready);
        });
    running->readiness_->Start();
  }
  return running;
}

void RunningServer::DrainAndStop(absl::Duration drain, absl::Duration timeout,
                                 ShutdownSignal* interrupt) {
  if (stopped_) return;
  stopped_ = true;
  if (readiness_ != nullptr) readiness_->Stop();
  // Shutdown() of the health service sets every service NOT_SERVING and
  // freezes it there, so nothing can flip it back during the drain.
  if (grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService()) {
    health->Shutdown();
  }
  if (drain > absl::ZeroDuration()) {
    if (interrupt != nullptr) {
      if (std::optional<int> again = interrupt->WaitFor(drain)) {
        LogWarn("second shutdown signal: skipping the rest of the drain", {{"signal", *again}});
      }
    } else {
      absl::SleepFor(drain);
    }
  }
  server_->Shutdown(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(timeout));
  server_->Wait();
}

absl::Status Serve(const ServeOptions& options, const std::vector<grpc::Service*>& services) {
  std::unique_ptr<ShutdownSignal> own_signal;
  ShutdownSignal* signal = options.shutdown_signal;
  if (signal == nullptr) {
    // Installed before any server thread exists, so no signal is missed.
    auto installed = ShutdownSignal::Install();
    if (!installed.ok()) return installed.status();
    own_signal = std::move(installed).value();
    signal = own_signal.get();
  }

  int metrics_port = 0;
  bool own_metrics_exposer = false;
  if (options.metrics_port >= 0) {
    metrics_port = MetricsExposerPort();
    if (metrics_port == 0) {
      auto started = StartMetricsExposer(options.metrics_host, options.metrics_port);
      if (!started.ok()) return started.status();
      metrics_port = *started;
      own_metrics_exposer = true;
    }
  }

  auto running = RunningServer::Start(options, services);
  if (!running.ok()) return running.status();
  LogInfo("serving", {{"address", options.address},
                      {"port", (*running)->port()},
                      {"metrics_port", metrics_port},
                      {"malloc", MallocProvider()}});
  if (options.on_started) options.on_started((*running)->port(), metrics_port);

  int signal_number = signal->Wait();
  LogInfo("shutdown requested: NOT_SERVING, draining",
          {{"signal", signal_number}, {"drain", options.drain}});
  if (options.on_shutdown_requested) options.on_shutdown_requested();
  (*running)->DrainAndStop(options.drain, options.shutdown_timeout, signal);
  if (own_metrics_exposer) StopMetricsExposer();
  LogInfo("server stopped");
  return absl::OkStatus();
}

void PrintListeningPort(int grpc_port) {
  std::printf("LISTENING %d\n", grpc_port);
  std::fflush(stdout);
}

}  // namespace draughts::platform
