// The players' acting calls: SubmitMove, Resign, OfferDraw, RespondDraw and
// UndoMove. Each checks in the order game.proto prescribes (malformed,
// unknown game, token, recognised retry, game over, stale ply, not allowed
// now, illegal move) and commits one change.
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "game_state/game_change.h"
#include "game_state/game_service.h"
#include "game_state/proto_convert.h"
#include "game_state/request_checks.h"
#include "platform/status.h"
#include "platform/status_macros.h"
#include "rules/fen.h"
#include "rules/move_notation.h"

namespace draughts::game_state {
namespace {

using platform::ToGrpcStatus;
using Decision = absl::StatusOr<std::optional<Change>>;

bool WasAutomatic(const StoredGame& game, int ply) {
  for (int automatic : game.automatic_plies()) {
    if (automatic == ply) return true;
  }
  return false;
}

// A retry of a move this seat already played at `ply`: the same text names
// the move recorded there. Returns that move as it was played.
std::optional<v1::MovePlayed> FindRetriedMove(const StoredGame& game,
                                              const rules::GameRecord& record, v1::Color color,
                                              int ply, const std::string& text) {
  const v1::GameState& state = game.state();
  if (ply >= state.ply() || WasAutomatic(game, ply)) return std::nullopt;
  const std::vector<rules::Position> positions = record.positions();
  const rules::Position& before = positions[static_cast<std::size_t>(ply)];
  if (ToProto(before.side_to_move()) != color) return std::nullopt;
  rules::Result<rules::MoveText> written = rules::ParseMoveText(text);
  if (!written.ok()) return std::nullopt;
  const rules::MoveList legal = rules::LegalMoves(record.variant(), before);
  rules::Result<rules::Move> move = rules::MatchMove(record.variant().board, legal, *written);
  const rules::Move& played = record.moves()[static_cast<std::size_t>(ply)];
  if (!move.ok() || !(*move == played)) return std::nullopt;
  if (ply + 1 == state.ply()) return state.last_move();
  return DescribeMove(legal, played, before.side_to_move(),
                      positions[static_cast<std::size_t>(ply) + 1]);
}

absl::Status NotYourTurn(const v1::GameState& state) {
  return absl::FailedPreconditionError(
      absl::StrCat("it is not your turn: ", ColorName(state, state.side_to_move()), " is to move"));
}

}  // namespace

// --- SubmitMove --------------------------------------------------------------

grpc::ServerUnaryReactor* GameServiceImpl::SubmitMove(grpc::CallbackServerContext* context,
                                                      const v1::SubmitMoveRequest* request,
                                                      v1::SubmitMoveResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (absl::Status checked = CheckSubmitMove(*request); !checked.ok()) {
    reactor->Finish(ToGrpcStatus(checked));
    return reactor;
  }
  // Filled by whichever decision is committed; lives until the answer.
  auto played = std::make_shared<v1::MovePlayed>();
  MutateAsync(request->game_id(), DecideSubmitMove(*request, *played),
              [this, reactor, request, response, played](absl::StatusOr<v1::GameState> state) {
                if (!state.ok()) {
                  reactor->Finish(ToGrpcStatus(state.status()));
                  return;
                }
                if (request->include_legal_moves()) {
                  // The record of the state just committed is in the cache.
                  const absl::Status listed =
                      ListEveryMoveOf(*state, request->game_id(), *response->mutable_legal_moves());
                  if (!listed.ok()) {
                    reactor->Finish(ToGrpcStatus(listed));
                    return;
                  }
                }
                *response->mutable_game() = *std::move(state);
                *response->mutable_move() = std::move(*played);
                reactor->Finish(grpc::Status::OK);
              });
  return reactor;
}

absl::Status GameServiceImpl::CheckSubmitMove(const v1::SubmitMoveRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameAndPly(request.game_id(), request.expected_ply()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTokenPresent(request.player_token()));
  return CheckMoveText(request.move());
}

GameServiceImpl::DecideFn GameServiceImpl::DecideSubmitMove(const v1::SubmitMoveRequest& request,
                                                            v1::MovePlayed& played) {
  // `request` and `played` outlive every call of the decision: both live
  // until the call is answered.
  return [this, &request, &played](const StoredGame& game, rules::GameRecord& record) -> Decision {
    const v1::GameState& state = game.state();
    DRAUGHTS_ASSIGN_OR_RETURN(v1::Color color, AuthenticateSeat(game, request.player_token()));
    if (std::optional<v1::MovePlayed> earlier =
            FindRetriedMove(game, record, color, request.expected_ply(), request.move())) {
      played = *std::move(earlier);
      return std::nullopt;
    }
    DRAUGHTS_RETURN_IF_ERROR(CheckOngoing(state));
    DRAUGHTS_RETURN_IF_ERROR(CheckPly(state, request.expected_ply()));
    if (state.side_to_move() != color) return NotYourTurn(state);
    rules::Result<rules::MoveText> text = rules::ParseMoveText(request.move());
    if (!text.ok()) return absl::InvalidArgumentError(text.error().ToString());
    rules::Result<rules::Move> move =
        rules::MatchMove(record.variant().board, record.legal_moves(), *text);
    if (!move.ok()) return absl::InvalidArgumentError(move.error().ToString());
    GameChange change(game, Now());
    played = change.PlayMove(record, *move, /*automatic=*/false);
    change.QueueBotJobIfComputerToMove();
    return change.Build();
  };
}

// --- Resign ------------------------------------------------------------------

grpc::Status GameServiceImpl::Resign(grpc::ServerContext*, const v1::ResignRequest* request,
                                     v1::ResignResponse* response) {
  return ToGrpcStatus(DoResign(*request, *response));
}

absl::Status GameServiceImpl::DoResign(const v1::ResignRequest& request,
                                       v1::ResignResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameAndPly(request.game_id(), request.expected_ply()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTokenPresent(request.player_token()));
  auto decide = [&](const StoredGame& game, rules::GameRecord&) -> Decision {
    const v1::GameState& state = game.state();
    DRAUGHTS_ASSIGN_OR_RETURN(v1::Color color, AuthenticateSeat(game, request.player_token()));
    if (state.reason() == v1::RESULT_REASON_RESIGNATION &&
        state.result() == WinFor(OpponentOf(color))) {
      return std::nullopt;  // this seat's resignation, retried
    }
    DRAUGHTS_RETURN_IF_ERROR(CheckOngoing(state));
    DRAUGHTS_RETURN_IF_ERROR(CheckPly(state, request.expected_ply()));
    GameChange change(game, Now());
    change.EndGame(WinFor(OpponentOf(color)), v1::RESULT_REASON_RESIGNATION, color);
    return change.Build();
  };
  DRAUGHTS_ASSIGN_OR_RETURN(*response.mutable_game(), Mutate(request.game_id(), decide));
  return absl::OkStatus();
}

// --- OfferDraw / RespondDraw -------------------------------------------------

grpc::Status GameServiceImpl::OfferDraw(grpc::ServerContext*, const v1::OfferDrawRequest* request,
                                        v1::OfferDrawResponse* response) {
  return ToGrpcStatus(DoOfferDraw(*request, *response));
}

absl::Status GameServiceImpl::DoOfferDraw(const v1::OfferDrawRequest& request,
                                          v1::OfferDrawResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameAndPly(request.game_id(), request.expected_ply()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTokenPresent(request.player_token()));
  bool declined = false;
  auto decide = [&](const StoredGame& game, rules::GameRecord&) -> Decision {
    const v1::GameState& state = game.state();
    DRAUGHTS_ASSIGN_OR_RETURN(v1::Color color, AuthenticateSeat(game, request.player_token()));
    declined = false;
    if (!IsOver(state) && state.draw_offered_by() == color) return std::nullopt;  // retry
    DRAUGHTS_RETURN_IF_ERROR(CheckOngoing(state));
    DRAUGHTS_RETURN_IF_ERROR(CheckPly(state, request.expected_ply()));
    const v1::Color opponent = OpponentOf(color);
    if (state.draw_offered_by() == opponent) {
      return absl::FailedPreconditionError(
          "your opponent's draw offer is pending: answer it with RespondDraw");
    }
    if (game.refused_offer_by() == color && game.refused_offer_ply() == state.ply()) {
      return absl::FailedPreconditionError(
          "your draw offer was refused at this ply: offer again once a move has been played");
    }
    GameChange change(game, Now());
    change.AddEvent().mutable_draw_offered()->set_by(color);
    if (IsComputerControlled(PlayerOf(state, opponent))) {
      // The computer never accepts a draw (PRODUCT.md): refused at once.
      change.AddEvent().mutable_draw_declined()->set_by(opponent);
      change.game().set_refused_offer_by(color);
      change.game().set_refused_offer_ply(state.ply());
      declined = true;
    } else {
      change.state().set_draw_offered_by(color);
    }
    return change.Build();
  };
  DRAUGHTS_ASSIGN_OR_RETURN(*response.mutable_game(), Mutate(request.game_id(), decide));
  response.set_declined(declined);
  return absl::OkStatus();
}

grpc::Status GameServiceImpl::RespondDraw(grpc::ServerContext*,
                                          const v1::RespondDrawRequest* request,
                                          v1::RespondDrawResponse* response) {
  return ToGrpcStatus(DoRespondDraw(*request, *response));
}

absl::Status GameServiceImpl::DoRespondDraw(const v1::RespondDrawRequest& request,
                                            v1::RespondDrawResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameAndPly(request.game_id(), request.expected_ply()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTokenPresent(request.player_token()));
  auto decide = [&](const StoredGame& game, rules::GameRecord&) -> Decision {
    const v1::GameState& state = game.state();
    DRAUGHTS_ASSIGN_OR_RETURN(v1::Color color, AuthenticateSeat(game, request.player_token()));
    const v1::Color opponent = OpponentOf(color);
    // Retries of an answer already given.
    if (request.accept() && state.reason() == v1::RESULT_REASON_DRAW_AGREED) {
      return std::nullopt;
    }
    if (!request.accept() && !IsOver(state) && state.draw_offered_by() == v1::COLOR_UNSPECIFIED &&
        game.refused_offer_by() == opponent && game.refused_offer_ply() == state.ply() &&
        request.expected_ply() == state.ply()) {
      return std::nullopt;
    }
    DRAUGHTS_RETURN_IF_ERROR(CheckOngoing(state));
    DRAUGHTS_RETURN_IF_ERROR(CheckPly(state, request.expected_ply()));
    if (state.draw_offered_by() != opponent) {
      return absl::FailedPreconditionError(
          state.draw_offered_by() == color
              ? "the pending draw offer is your own: your opponent answers it"
              : "no draw offer from your opponent is pending");
    }
    GameChange change(game, Now());
    if (request.accept()) {
      change.EndGame(v1::GAME_RESULT_DRAW, v1::RESULT_REASON_DRAW_AGREED, color);
    } else {
      change.AddEvent().mutable_draw_declined()->set_by(color);
      change.state().set_draw_offered_by(v1::COLOR_UNSPECIFIED);
      change.game().set_refused_offer_by(opponent);
      change.game().set_refused_offer_ply(state.ply());
    }
    return change.Build();
  };
  DRAUGHTS_ASSIGN_OR_RETURN(*response.mutable_game(), Mutate(request.game_id(), decide));
  return absl::OkStatus();
}

// --- UndoMove ----------------------------------------------------------------

grpc::Status GameServiceImpl::UndoMove(grpc::ServerContext*, const v1::UndoMoveRequest* request,
                                       v1::UndoMoveResponse* response) {
  return ToGrpcStatus(DoUndoMove(*request, *response));
}

absl::Status GameServiceImpl::DoUndoMove(const v1::UndoMoveRequest& request,
                                         v1::UndoMoveResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(CheckGameAndPly(request.game_id(), request.expected_ply()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTokenPresent(request.player_token()));
  std::vector<std::string> undone;
  auto decide = [&](const StoredGame& game, rules::GameRecord& record) -> Decision {
    const v1::GameState& state = game.state();
    DRAUGHTS_ASSIGN_OR_RETURN(v1::Color color, AuthenticateSeat(game, request.player_token()));
    if (PlayerOf(state, color).seat().kind() == v1::SEAT_KIND_BOT) {
      return absl::PermissionDeniedError("the bot seat cannot take moves back");
    }
    // A retry while the game is exactly as this undo left it (its version
    // moves with any other change): the first answer again.
    const LastUndo& last_undo = game.last_undo();
    if (game.has_last_undo() && last_undo.version() == state.version() && last_undo.by() == color &&
        last_undo.expected_ply() == request.expected_ply()) {
      undone.assign(last_undo.undone_moves().begin(), last_undo.undone_moves().end());
      return std::nullopt;
    }
    DRAUGHTS_RETURN_IF_ERROR(CheckOngoing(state));
    DRAUGHTS_RETURN_IF_ERROR(CheckPly(state, request.expected_ply()));
    const v1::Color opponent = OpponentOf(color);
    if (state.rated()) {
      return absl::FailedPreconditionError("moves cannot be taken back in a rated game");
    }
    if (PlayerOf(state, opponent).seat().kind() != v1::SEAT_KIND_BOT) {
      return absl::FailedPreconditionError("moves can only be taken back against a bot");
    }
    // Your last move and the bot's reply, or only your move if the bot has
    // not replied yet.
    const int plies = state.side_to_move() == color ? 2 : 1;
    const std::vector<rules::Position> positions = record.positions();
    if (state.ply() < plies ||
        ToProto(positions[static_cast<std::size_t>(state.ply() - plies)].side_to_move()) != color) {
      return absl::FailedPreconditionError("you have no move to take back");
    }
    rules::Result<rules::GameRecord> previous = record.TakeBack(plies);
    if (!previous.ok()) return absl::FailedPreconditionError(previous.error().ToString());

    undone.clear();
    for (int i = state.ply() - 1; i >= state.ply() - plies; --i) undone.push_back(state.moves(i));
    GameChange change(game, Now());
    v1::GameState& s = change.state();
    record = *std::move(previous);
    s.mutable_moves()->DeleteSubrange(record.ply_count(), s.moves_size() - record.ply_count());
    s.set_ply(record.ply_count());
    s.set_fen(rules::FormatFen(record.position()));
    s.set_side_to_move(ToProto(record.position().side_to_move()));
    s.set_draw_offered_by(v1::COLOR_UNSPECIFIED);
    change.game().set_refused_offer_by(v1::COLOR_UNSPECIFIED);
    change.game().set_refused_offer_ply(0);
    RecountPlayers(record, change.game());
    s.clear_last_move();
    if (record.ply_count() > 0) {
      const std::size_t last = static_cast<std::size_t>(record.ply_count() - 1);
      const std::vector<rules::Position> kept = record.positions();
      v1::MovePlayed previous_move =
          DescribeMove(rules::LegalMoves(record.variant(), kept[last]), record.moves()[last],
                       kept[last].side_to_move(), kept[last + 1]);
      previous_move.set_automatic(WasAutomatic(change.game(), static_cast<int>(last)));
      *s.mutable_last_move() = std::move(previous_move);
    }
    change.ResetDeadline();
    v1::MoveUndone& event = *change.AddEvent().mutable_move_undone();
    event.set_requested_by(color);
    for (const std::string& move : undone) event.add_undone_moves(move);
    event.set_fen_after(s.fen());
    if (s.has_move_deadline()) *event.mutable_next_move_deadline() = s.move_deadline();
    change.QueueBotJobIfComputerToMove();
    LastUndo& remembered = *change.game().mutable_last_undo();
    remembered.set_by(color);
    remembered.set_expected_ply(request.expected_ply());
    for (const std::string& move : undone) remembered.add_undone_moves(move);
    Change built = change.Build();
    built.game.mutable_last_undo()->set_version(built.game.state().version());
    return built;
  };
  DRAUGHTS_ASSIGN_OR_RETURN(*response.mutable_game(), Mutate(request.game_id(), decide));
  for (const std::string& move : undone) response.add_undone_moves(move);
  return absl::OkStatus();
}

}  // namespace draughts::game_state
