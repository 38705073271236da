#include "platform/metrics.h"

#include <exception>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "prometheus/exposer.h"

namespace draughts::platform {
namespace {

struct ExposerState {
  std::mutex mu;
  std::unique_ptr<prometheus::Exposer> exposer;
  int port = 0;
};

ExposerState& Exposer() {
  static auto* state = new ExposerState();
  return *state;
}

}  // namespace

std::shared_ptr<prometheus::Registry> MetricsRegistry() {
  static auto* registry =
      new std::shared_ptr<prometheus::Registry>(std::make_shared<prometheus::Registry>());
  return *registry;
}

absl::StatusOr<int> StartMetricsExposer(const std::string& host, int port) {
  if (port < 0 || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("metrics port ", port, " is out of range"));
  }
  ExposerState& state = Exposer();
  std::lock_guard<std::mutex> lock(state.mu);
  if (state.exposer != nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("the metrics exposer is already running on port ", state.port));
  }
  std::string bind = absl::StrCat(host, ":", port);
  try {
    // civetweb binds port 0 to a kernel-chosen port; GetListeningPorts tells which.
    auto exposer = std::make_unique<prometheus::Exposer>(bind, /*num_threads=*/2);
    std::vector<int> ports = exposer->GetListeningPorts();
    if (ports.empty() || ports.front() <= 0) {
      return absl::UnavailableError(absl::StrCat("metrics exposer on ", bind, " has no port"));
    }
    exposer->RegisterCollectable(MetricsRegistry());
    state.port = ports.front();
    state.exposer = std::move(exposer);
    return state.port;
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot start the metrics exposer on ", bind, ": ", e.what()));
  }
}

int MetricsExposerPort() {
  ExposerState& state = Exposer();
  std::lock_guard<std::mutex> lock(state.mu);
  return state.port;
}

void StopMetricsExposer() {
  ExposerState& state = Exposer();
  std::lock_guard<std::mutex> lock(state.mu);
  state.exposer.reset();
  state.port = 0;
}

}  // namespace draughts::platform
