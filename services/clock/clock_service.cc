#include "clock/clock_service.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "clock/clock_requests.h"
#include "platform/proto_time.h"
#include "platform/status.h"
#include "platform/status_macros.h"

namespace draughts::clock {
namespace {

using platform::ToGrpcStatus;

constexpr std::size_t kMaxConnectionIdBytes = 128;

}  // namespace

ClockServiceImpl::ClockServiceImpl(ClockServiceDeps deps) : deps_(std::move(deps)) {
  if (!deps_.now) deps_.now = [] { return absl::Now(); };
}

grpc::Status ClockServiceImpl::ArmDeadline(grpc::ServerContext*,
                                           const v1::ArmDeadlineRequest* request,
                                           v1::ArmDeadlineResponse*) {
  return ToGrpcStatus(DoArmDeadline(*request));
}

grpc::Status ClockServiceImpl::CancelDeadline(grpc::ServerContext*,
                                              const v1::CancelDeadlineRequest* request,
                                              v1::CancelDeadlineResponse*) {
  return ToGrpcStatus(DoCancelDeadline(*request));
}

grpc::Status ClockServiceImpl::GetClock(grpc::ServerContext*, const v1::GetClockRequest* request,
                                        v1::GetClockResponse* response) {
  return ToGrpcStatus(DoGetClock(*request, *response));
}

grpc::Status ClockServiceImpl::Heartbeat(grpc::ServerContext*, const v1::HeartbeatRequest* request,
                                         v1::HeartbeatResponse* response) {
  return ToGrpcStatus(DoHeartbeat(*request, *response));
}

absl::Status ClockServiceImpl::DoArmDeadline(const v1::ArmDeadlineRequest& request) {
  const absl::Time now = Now();
  DRAUGHTS_ASSIGN_OR_RETURN(ArmCommand command, ArmCommandFrom(request, now));
  DRAUGHTS_ASSIGN_OR_RETURN(ArmOutcome outcome, deps_.store->Arm(command, now));
  if (outcome == ArmOutcome::kArmed && deps_.metrics != nullptr) deps_.metrics->Armed("rpc");
  return absl::OkStatus();
}

absl::Status ClockServiceImpl::DoCancelDeadline(const v1::CancelDeadlineRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameId(request.game_id()));
  if (request.expected_ply() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected_ply is negative (", request.expected_ply(), ")"));
  }
  DRAUGHTS_RETURN_IF_ERROR(deps_.store->Cancel(request.game_id(), std::nullopt));
  if (deps_.metrics != nullptr) deps_.metrics->Cancelled();
  return absl::OkStatus();
}

absl::Status ClockServiceImpl::DoGetClock(const v1::GetClockRequest& request,
                                          v1::GetClockResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameId(request.game_id()));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<GameClock> game, deps_.store->Load(request.game_id()));
  if (!game.has_value()) {
    return absl::NotFoundError(
        absl::StrCat("the clock is not tracking game ", request.game_id(), " (over or unknown)"));
  }
  const absl::Time now = Now();
  response.set_armed(game->deadline.has_value());
  response.set_expected_ply(game->expected_ply);
  response.set_color(game->color);
  if (game->deadline.has_value()) {
    *response.mutable_deadline() = platform::ToProtoTime(*game->deadline);
    const absl::Duration remaining = std::max(*game->deadline - now, absl::ZeroDuration());
    *response.mutable_remaining() = platform::ToProtoDuration(remaining);
  }
  *response.mutable_server_time() = platform::ToProtoTime(now);
  for (const SeatPresenceState& seat : game->seats) {
    v1::SeatPresence& presence = *response.add_presence();
    presence.set_color(seat.color);
    presence.set_connected(SeatConnected(*game, seat.color, now, deps_.presence));
    if (seat.last_seen.has_value()) {
      *presence.mutable_last_seen_at() = platform::ToProtoTime(*seat.last_seen);
    }
    if (std::optional<absl::Time> abandon = AbandonDeadline(*game, seat, now, deps_.presence)) {
      *presence.mutable_abandon_deadline() = platform::ToProtoTime(*abandon);
    }
  }
  return absl::OkStatus();
}

absl::Status ClockServiceImpl::DoHeartbeat(const v1::HeartbeatRequest& request,
                                           v1::HeartbeatResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameId(request.game_id()));
  if (request.connection_id().empty()) {
    return absl::InvalidArgumentError("connection_id is empty");
  }
  if (request.connection_id().size() > kMaxConnectionIdBytes ||
      request.connection_id().find('|') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("connection_id must be 1-", kMaxConnectionIdBytes, " bytes without '|'"));
  }
  if (request.color() != v1::COLOR_WHITE && request.color() != v1::COLOR_BLACK) {
    return absl::InvalidArgumentError("color must be WHITE or BLACK (the seat)");
  }
  BeatCommand beat;
  beat.game_id = request.game_id();
  beat.color = request.color();
  beat.connection_id = request.connection_id();
  beat.closing = request.closing();
  beat.now = Now();
  beat.live_window = deps_.presence.LiveWindow();
  DRAUGHTS_ASSIGN_OR_RETURN(bool connected, deps_.store->Beat(beat));
  if (deps_.metrics != nullptr) deps_.metrics->Heartbeat();
  const absl::Duration interval = deps_.presence.heartbeat_interval;
  response.mutable_interval()->set_seconds(absl::ToInt64Seconds(interval));
  response.mutable_interval()->set_nanos(static_cast<int32_t>(
      absl::ToInt64Nanoseconds(interval - absl::Seconds(absl::ToInt64Seconds(interval)))));
  response.set_connected(connected);
  return absl::OkStatus();
}

}  // namespace draughts::clock
