// The calls of the clock service (and of matchmaking, for a player who
// leaves the table): PlayAutomaticMove when a deadline passed,
// RecordPresence when a player's connection comes or goes, DeclareAbandoned
// after the 2-minute rule. None of them takes a player token.
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "game_state/game_change.h"
#include "game_state/game_id.h"
#include "game_state/game_service.h"
#include "game_state/proto_convert.h"
#include "game_state/request_checks.h"
#include "platform/idempotency.h"
#include "platform/proto_time.h"
#include "platform/status.h"
#include "platform/status_macros.h"

namespace draughts::game_state {
namespace {

using platform::ToGrpcStatus;
using Decision = absl::StatusOr<std::optional<Change>>;

// The 2-minute rule (PRODUCT.md): a player away longer loses.
constexpr absl::Duration kAbandonAfter = absl::Minutes(2);
// RecordPresence keys remembered per game.
constexpr int kPresenceKeysKept = 32;

absl::Status SeatIsBot(const v1::GameState& state, v1::Color color) {
  return absl::FailedPreconditionError(
      absl::StrCat(ColorName(state, color), "'s seat is a bot: it is always present"));
}

}  // namespace

// --- PlayAutomaticMove ---------------------------------------------------------

grpc::Status GameServiceImpl::PlayAutomaticMove(grpc::ServerContext*,
                                                const v1::PlayAutomaticMoveRequest* request,
                                                v1::PlayAutomaticMoveResponse* response) {
  return ToGrpcStatus(DoPlayAutomaticMove(*request, *response));
}

absl::Status GameServiceImpl::DoPlayAutomaticMove(const v1::PlayAutomaticMoveRequest& request,
                                                  v1::PlayAutomaticMoveResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameAndPly(request.game_id(), request.expected_ply()));
  DRAUGHTS_RETURN_IF_ERROR(CheckColor(request.color()));
  std::optional<v1::MovePlayed> played;
  auto decide = [&](const StoredGame& game, rules::GameRecord& record) -> Decision {
    const v1::GameState& state = game.state();
    played.reset();
    // The player moved in time, or this is a retry: nothing to play. The
    // same holds for a ply ahead of the game (moves were taken back since
    // the deadline was armed: it belongs to a position that is gone).
    if (state.ply() != request.expected_ply()) return std::nullopt;
    DRAUGHTS_RETURN_IF_ERROR(CheckOngoing(state));
    if (state.side_to_move() != request.color()) {
      return absl::FailedPreconditionError(
          absl::StrCat("at ply ", state.ply(), " ", ColorName(state, state.side_to_move()),
                       " is to move, not ", ColorName(state, request.color())));
    }
    // A deadline armed for this ply that is still ahead (the clock's alarm
    // is older than an undo that re-armed it) has not run out.
    if (state.has_move_deadline() &&
        Now() + options_.deadline_tolerance < platform::FromProtoTime(state.move_deadline())) {
      return std::nullopt;
    }
    const rules::MoveList& legal = record.legal_moves();
    if (legal.empty()) return absl::InternalError("an ongoing game has no legal move");
    const rules::Move move = legal[deps_.random_index(legal.size())];
    GameChange change(game, Now());
    played = change.PlayMove(record, move, /*automatic=*/true);
    change.QueueBotJobIfComputerToMove();
    return change.Build();
  };
  DRAUGHTS_ASSIGN_OR_RETURN(*response.mutable_game(), Mutate(request.game_id(), decide));
  response.set_played(played.has_value());
  if (played.has_value()) *response.mutable_move() = *std::move(played);
  return absl::OkStatus();
}

// --- RecordPresence ----------------------------------------------------------

grpc::Status GameServiceImpl::RecordPresence(grpc::ServerContext*,
                                             const v1::RecordPresenceRequest* request,
                                             v1::RecordPresenceResponse* response) {
  return ToGrpcStatus(DoRecordPresence(*request, *response));
}

absl::Status GameServiceImpl::DoRecordPresence(const v1::RecordPresenceRequest& request,
                                               v1::RecordPresenceResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(ValidateGameId(request.game_id()));
  DRAUGHTS_RETURN_IF_ERROR(platform::ValidateIdempotencyKey(request.idempotency_key()));
  DRAUGHTS_RETURN_IF_ERROR(CheckColor(request.color()));
  bool changed = false;
  auto decide = [&](const StoredGame& game, rules::GameRecord&) -> Decision {
    const v1::GameState& state = game.state();
    for (const PresenceKey& seen : game.presence_keys()) {
      if (seen.key() != request.idempotency_key()) continue;
      if (seen.color() != request.color() || seen.connected() != request.connected()) {
        return absl::InvalidArgumentError(
            "idempotency_key was already used with a different request (color or connected)");
      }
      changed = seen.changed();
      return std::nullopt;
    }
    changed = false;
    DRAUGHTS_RETURN_IF_ERROR(CheckOngoing(state));
    const v1::PlayerState& player = PlayerOf(state, request.color());
    if (player.seat().kind() == v1::SEAT_KIND_BOT) return SeatIsBot(state, request.color());
    if (player.connected() == request.connected()) return std::nullopt;

    changed = true;
    GameChange change(game, Now());
    v1::PlayerState& after = PlayerOf(change.state(), request.color());
    after.set_connected(request.connected());
    v1::GameEvent& event = change.AddEvent();
    if (request.connected()) {
      event.mutable_seat_connected()->set_color(request.color());
      if (player.computer_playing()) change.SetComputerPlaying(request.color(), false);
    } else {
      v1::SeatDisconnected& gone = *event.mutable_seat_disconnected();
      gone.set_color(request.color());
      if (state.options().computer_plays_for_absent()) {
        change.SetComputerPlaying(request.color(), true);
        gone.set_computer_playing(true);
      } else {
        *gone.mutable_abandon_deadline() = platform::ToProtoTime(change.now() + kAbandonAfter);
      }
    }
    auto& keys = *change.game().mutable_presence_keys();
    PresenceKey& remembered = *keys.Add();
    remembered.set_key(request.idempotency_key());
    remembered.set_changed(true);
    remembered.set_color(request.color());
    remembered.set_connected(request.connected());
    if (keys.size() > kPresenceKeysKept) keys.DeleteSubrange(0, keys.size() - kPresenceKeysKept);
    change.QueueBotJobIfComputerToMove();
    return change.Build();
  };
  DRAUGHTS_RETURN_IF_ERROR(Mutate(request.game_id(), decide).status());
  response.set_changed(changed);
  return absl::OkStatus();
}

// --- DeclareAbandoned --------------------------------------------------------

grpc::Status GameServiceImpl::DeclareAbandoned(grpc::ServerContext*,
                                               const v1::DeclareAbandonedRequest* request,
                                               v1::DeclareAbandonedResponse* response) {
  return ToGrpcStatus(DoDeclareAbandoned(*request, *response));
}

absl::Status GameServiceImpl::DoDeclareAbandoned(const v1::DeclareAbandonedRequest& request,
                                                 v1::DeclareAbandonedResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameAndPly(request.game_id(), request.expected_ply()));
  DRAUGHTS_RETURN_IF_ERROR(CheckColor(request.color()));
  auto decide = [&](const StoredGame& game, rules::GameRecord&) -> Decision {
    const v1::GameState& state = game.state();
    const v1::Color color = request.color();
    const v1::PlayerState& player = PlayerOf(state, color);
    // Retries: the game already ended this way, or the computer already
    // plays for the absent player.
    if (state.reason() == v1::RESULT_REASON_ABANDONED &&
        state.result() == WinFor(OpponentOf(color))) {
      return std::nullopt;
    }
    if (!IsOver(state) && player.computer_playing()) return std::nullopt;
    DRAUGHTS_RETURN_IF_ERROR(CheckOngoing(state));
    if (player.seat().kind() == v1::SEAT_KIND_BOT) return SeatIsBot(state, color);
    DRAUGHTS_RETURN_IF_ERROR(CheckPly(state, request.expected_ply()));
    GameChange change(game, Now());
    if (state.options().computer_plays_for_absent()) {
      change.SetComputerPlaying(color, true);
      v1::ChatNotice& notice = *change.AddEvent().mutable_chat_notice();
      notice.set_kind(v1::ChatNotice::KIND_PLAYER_LEFT);
      notice.set_color(color);
      notice.set_text(absl::StrCat(ColorName(state, color),
                                   " left; the computer plays for them until they come back"));
      change.QueueBotJobIfComputerToMove();
    } else {
      change.EndGame(WinFor(OpponentOf(color)), v1::RESULT_REASON_ABANDONED, color);
    }
    return change.Build();
  };
  DRAUGHTS_ASSIGN_OR_RETURN(*response.mutable_game(), Mutate(request.game_id(), decide));
  return absl::OkStatus();
}

}  // namespace draughts::game_state
