// A tiny service run through platform::Serve, for the Node contract test
// (tests/contract/platform_serve.test.mjs): health, reflection, metrics and
// the test-only EchoService. It is also the shortest example of a service
// main. Prints "PORT=<grpc> METRICS_PORT=<metrics>" once serving.
#include <cstdio>
#include <iostream>

#include "platform/config.h"
#include "platform/logging.h"
#include "platform/serve.h"
#include "platform/service_options.h"
#include "platform/testing/echo_service.h"

namespace {

int Run(int argc, char** argv) {
  using namespace draughts::platform;
  ConfigSpec spec("serve_fixture", "Serves EchoService with health, reflection and metrics.");
  AddStandardServiceOptions(spec, "DRAUGHTS_FIXTURE", /*default_port=*/0,
                            /*default_metrics_port=*/-1);
  absl::StatusOr<Config> config = ParseConfig(spec, argc, argv);
  if (!config.ok()) {
    std::cerr << "serve_fixture: " << config.status().message() << "\n";
    return 2;
  }
  if (config->help_requested()) return 0;
  if (absl::Status status = InitLoggingFromConfig(*config, "serve_fixture"); !status.ok()) {
    std::cerr << "serve_fixture: " << status.message() << "\n";
    return 2;
  }
  absl::StatusOr<ServeOptions> options = ServeOptionsFromConfig(*config);
  if (!options.ok()) {
    LogError("bad options", {{"status", options.status()}});
    return 2;
  }
  options->on_started = [](int grpc_port, int metrics_port) {
    std::printf("PORT=%d METRICS_PORT=%d\n", grpc_port, metrics_port);
    std::fflush(stdout);
  };
  testing::EchoServiceImpl echo;
  absl::Status status = Serve(*options, {&echo});
  if (!status.ok()) {
    LogError("serve failed", {{"status", status}});
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return Run(argc, argv);
}
