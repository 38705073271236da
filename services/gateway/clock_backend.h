// The gateway's calls to the clock (draughts.v1.ClockService): the move
// timer a table page shows, and the heartbeats of a seated player's open
// socket (the 2-minute disconnect rule). Thread-safe (the client is).
#ifndef DRAUGHTS_GATEWAY_CLOCK_BACKEND_H_
#define DRAUGHTS_GATEWAY_CLOCK_BACKEND_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "draughts/v1/clock.grpc.pb.h"
#include "platform/grpc_client.h"

namespace draughts::gateway {

using ClockClient = platform::GrpcClient<v1::ClockService>;

class ClockBackend {
 public:
  explicit ClockBackend(std::unique_ptr<ClockClient> client);

  absl::StatusOr<v1::GetClockResponse> GetClock(const std::string& game_id);
  // The same without holding a thread (gRPC's callback API): `done` runs
  // once, on a gRPC thread.
  void GetClockAsync(const std::string& game_id,
                     std::function<void(absl::StatusOr<v1::GetClockResponse>)> done);
  // Both calls are reads or refreshes of one "last seen": safe to repeat.
  absl::StatusOr<v1::HeartbeatResponse> Heartbeat(const v1::HeartbeatRequest& request);
  void HeartbeatAsync(v1::HeartbeatRequest request,
                      std::function<void(absl::StatusOr<v1::HeartbeatResponse>)> done);

 private:
  std::unique_ptr<ClockClient> client_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_CLOCK_BACKEND_H_
