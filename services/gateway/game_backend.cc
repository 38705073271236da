#include "gateway/game_backend.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

// Every GameService call is safe to repeat by contract: reads change
// nothing, CreateGame carries an idempotency key and every action the
// expected ply, so a repeat of an applied call is refused, never doubled.
platform::CallOptions Repeatable() {
  platform::CallOptions options;
  options.safe_to_retry = true;
  return options;
}

}  // namespace

GameBackend::GameBackend(std::unique_ptr<GameClient> client) : client_(std::move(client)) {}

absl::StatusOr<v1::CreateGameResponse> GameBackend::CreateGame(
    const v1::CreateGameRequest& request) {
  return client_->Call(&GameClient::Stub::CreateGame, request, Repeatable());
}

absl::StatusOr<GameView> GameBackend::GetView(const std::string& game_id) {
  GameView view;
  // A move landing between the two reads makes them disagree; a few tries
  // are plenty since a move takes a human at least a moment.
  for (int attempt = 0; attempt < 3; ++attempt) {
    v1::GetGameRequest get;
    get.set_game_id(game_id);
    DRAUGHTS_ASSIGN_OR_RETURN(v1::GetGameResponse got,
                              client_->Call(&GameClient::Stub::GetGame, get, Repeatable()));
    view.game = std::move(*got.mutable_game());
    view.moves.Clear();
    if (view.game.result() != v1::GAME_RESULT_ONGOING) return view;
    v1::ListLegalMovesRequest list;
    list.set_game_id(game_id);
    DRAUGHTS_ASSIGN_OR_RETURN(view.moves,
                              client_->Call(&GameClient::Stub::ListLegalMoves, list, Repeatable()));
    if (view.moves.ply() == view.game.ply()) return view;
  }
  return absl::AbortedError("the game kept changing while it was read; try again");
}

absl::Status GameBackend::Act(const std::string& game_id, const ClientAction& action) {
  switch (action.kind) {
    case ActionKind::kMove: {
      v1::SubmitMoveRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_move(action.move);
      request.set_expected_ply(action.expected_ply);
      return client_->Call(&GameClient::Stub::SubmitMove, request, Repeatable()).status();
    }
    case ActionKind::kResign: {
      v1::ResignRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      return client_->Call(&GameClient::Stub::Resign, request, Repeatable()).status();
    }
    case ActionKind::kOfferDraw: {
      v1::OfferDrawRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      return client_->Call(&GameClient::Stub::OfferDraw, request, Repeatable()).status();
    }
    case ActionKind::kAcceptDraw:
    case ActionKind::kDeclineDraw: {
      v1::RespondDrawRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      request.set_accept(action.kind == ActionKind::kAcceptDraw);
      return client_->Call(&GameClient::Stub::RespondDraw, request, Repeatable()).status();
    }
    case ActionKind::kPing:
      break;
  }
  return absl::OkStatus();
}

absl::Status GameBackend::Ping() {
  v1::GetGameRequest request;  // empty id: INVALID_ARGUMENT, no Redis round trip
  // One short attempt: health reports what is true now, it does not wait.
  platform::CallOptions once;
  once.timeout = absl::Seconds(1);
  const absl::Status status = client_->Call(&GameClient::Stub::GetGame, request, once).status();
  if (absl::IsUnavailable(status) || absl::IsDeadlineExceeded(status)) {
    return absl::UnavailableError(absl::StrCat("game_state: ", status.message()));
  }
  return absl::OkStatus();
}

std::unique_ptr<grpc::ClientReaderInterface<v1::GameEvent>> GameBackend::Watch(
    grpc::ClientContext* context, const std::string& game_id, const std::string& from_event_id) {
  v1::WatchGameRequest request;
  request.set_game_id(game_id);
  request.set_from_event_id(from_event_id);
  return client_->stub().WatchGame(context, request);
}

}  // namespace draughts::gateway
