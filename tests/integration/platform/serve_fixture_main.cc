// A tiny service run through platform::Serve, for the Node contract test
// (tests/contract/platform_serve.test.mjs): health, reflection, metrics and
// the test-only EchoService. It is also the shortest example of a service
// main. Prints "PORT=<grpc> METRICS_PORT=<metrics>" once serving.
// --unready-file PATH adds a readiness probe that fails while PATH exists,
// a dependency the contract test can take down and bring back.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

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
  spec.AddString("unready-file", "DRAUGHTS_FIXTURE_UNREADY_FILE", "",
                 "report NOT_SERVING while this file exists (a fake dependency)");
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
  absl::StatusOr<std::string> unready_file = config->GetString("unready-file");
  if (unready_file.ok() && !unready_file->empty()) {
    options->readiness_probes.push_back({"unready-file", [path = *unready_file]() -> absl::Status {
                                           std::error_code error;
                                           if (std::filesystem::exists(path, error)) {
                                             return absl::UnavailableError(path + " exists");
                                           }
                                           return absl::OkStatus();
                                         }});
  }
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
