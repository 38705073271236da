// draughts.v1.ClockService: arming and cancelling deadlines (the same rules
// as the deadlines stream), the gateway's heartbeats, and GetClock for the
// countdown. Checks requests in the order clock.proto documents and maps
// the store's statuses to gRPC codes at the edge.
#ifndef DRAUGHTS_CLOCK_CLOCK_SERVICE_H_
#define DRAUGHTS_CLOCK_CLOCK_SERVICE_H_

#include <functional>

#include "absl/time/time.h"
#include "clock/clock_metrics.h"
#include "clock/clock_store.h"
#include "clock/presence_rules.h"
#include "draughts/v1/clock.grpc.pb.h"

namespace draughts::clock {

struct ClockServiceDeps {
  ClockStore* store = nullptr;
  ClockMetrics* metrics = nullptr;  // may be null
  PresenceSettings presence;
  // Null: the system clock.
  std::function<absl::Time()> now;
};

class ClockServiceImpl final : public v1::ClockService::Service {
 public:
  explicit ClockServiceImpl(ClockServiceDeps deps);

  grpc::Status ArmDeadline(grpc::ServerContext* context, const v1::ArmDeadlineRequest* request,
                           v1::ArmDeadlineResponse* response) override;
  grpc::Status CancelDeadline(grpc::ServerContext* context,
                              const v1::CancelDeadlineRequest* request,
                              v1::CancelDeadlineResponse* response) override;
  grpc::Status GetClock(grpc::ServerContext* context, const v1::GetClockRequest* request,
                        v1::GetClockResponse* response) override;
  grpc::Status Heartbeat(grpc::ServerContext* context, const v1::HeartbeatRequest* request,
                         v1::HeartbeatResponse* response) override;

  // The handlers' logic, with absl statuses (tests call these).
  absl::Status DoArmDeadline(const v1::ArmDeadlineRequest& request);
  absl::Status DoCancelDeadline(const v1::CancelDeadlineRequest& request);
  absl::Status DoGetClock(const v1::GetClockRequest& request, v1::GetClockResponse& response);
  absl::Status DoHeartbeat(const v1::HeartbeatRequest& request, v1::HeartbeatResponse& response);

 private:
  absl::Time Now() const { return deps_.now(); }

  ClockServiceDeps deps_;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_CLOCK_SERVICE_H_
