#include "clock/clock_requests.h"

#include "absl/strings/str_cat.h"
#include "platform/proto_time.h"

namespace draughts::clock {
namespace {

// A deadline further ahead is a mistake (the longest time per move is
// minutes).
constexpr absl::Duration kMaxAhead = absl::Hours(24);
constexpr std::size_t kMaxGameIdBytes = 64;

template <typename Message>
absl::StatusOr<ArmCommand> Common(const Message& message, absl::Time now) {
  if (absl::Status status = CheckGameId(message.game_id()); !status.ok()) return status;
  if (message.expected_ply() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected_ply is negative (", message.expected_ply(), ")"));
  }
  if (message.game_version() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("game_version is negative (", message.game_version(), ")"));
  }
  if (message.color() != v1::COLOR_WHITE && message.color() != v1::COLOR_BLACK) {
    return absl::InvalidArgumentError("color must be WHITE or BLACK (the side to move)");
  }
  ArmCommand command;
  command.game_id = message.game_id();
  command.game_version = message.game_version();
  command.expected_ply = message.expected_ply();
  command.color = message.color();
  if (message.has_deadline()) {
    const google::protobuf::Timestamp& deadline = message.deadline();
    if (deadline.nanos() < 0 || deadline.nanos() >= 1000000000) {
      return absl::InvalidArgumentError("deadline is not a valid timestamp");
    }
    const absl::Time at = platform::FromProtoTime(deadline);
    if (at > now + kMaxAhead) {
      return absl::InvalidArgumentError("deadline is more than 1 day ahead");
    }
    command.deadline = at;
  }
  for (int color : message.human_seats()) {
    if (color != v1::COLOR_WHITE && color != v1::COLOR_BLACK) {
      return absl::InvalidArgumentError("human_seats may only hold WHITE and BLACK");
    }
    command.human_seats.push_back(static_cast<v1::Color>(color));
  }
  return command;
}

}  // namespace

absl::Status CheckGameId(std::string_view game_id) {
  if (game_id.empty()) return absl::InvalidArgumentError("game_id is empty");
  if (game_id.size() > kMaxGameIdBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("game_id is longer than ", kMaxGameIdBytes, " bytes"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ArmCommand> ArmCommandFrom(const v1::ArmDeadlineRequest& request, absl::Time now) {
  return Common(request, now);
}

absl::StatusOr<std::optional<ArmCommand>> ArmCommandFrom(const v1::ClockUpdate& update,
                                                         absl::Time now) {
  if (update.game_over()) {
    if (absl::Status status = CheckGameId(update.game_id()); !status.ok()) return status;
    return std::optional<ArmCommand>();
  }
  absl::StatusOr<ArmCommand> command = Common(update, now);
  if (!command.ok()) return command.status();
  return std::optional<ArmCommand>(*std::move(command));
}

}  // namespace draughts::clock
