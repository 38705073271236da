#include "gateway/clock_backend.h"

#include <utility>

namespace draughts::gateway {
namespace {

platform::CallOptions Repeatable() {
  platform::CallOptions options;
  options.safe_to_retry = true;
  return options;
}

}  // namespace

ClockBackend::ClockBackend(std::unique_ptr<ClockClient> client) : client_(std::move(client)) {}

absl::StatusOr<v1::GetClockResponse> ClockBackend::GetClock(const std::string& game_id) {
  v1::GetClockRequest request;
  request.set_game_id(game_id);
  return client_->Call(&ClockClient::Stub::GetClock, request, Repeatable());
}

void ClockBackend::GetClockAsync(const std::string& game_id,
                                 std::function<void(absl::StatusOr<v1::GetClockResponse>)> done) {
  v1::GetClockRequest request;
  request.set_game_id(game_id);
  client_->CallAsync(&ClockClient::Stub::async_interface::GetClock, std::move(request),
                     Repeatable(), std::move(done));
}

absl::StatusOr<v1::HeartbeatResponse> ClockBackend::Heartbeat(const v1::HeartbeatRequest& request) {
  return client_->Call(&ClockClient::Stub::Heartbeat, request, Repeatable());
}

void ClockBackend::HeartbeatAsync(v1::HeartbeatRequest request,
                                  std::function<void(absl::StatusOr<v1::HeartbeatResponse>)> done) {
  client_->CallAsync(&ClockClient::Stub::async_interface::Heartbeat, std::move(request),
                     Repeatable(), std::move(done));
}

}  // namespace draughts::gateway
