#include "gateway/game_backend.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"

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

// Runs an asynchronous call and waits for its answer, for the callers that
// block anyway (REST handlers and table sockets on the worker pool).
template <typename Result>
Result Wait(const std::function<void(std::function<void(Result)>)>& start) {
  struct Answer {
    absl::Mutex mu;
    std::optional<Result> result ABSL_GUARDED_BY(mu);
  };
  // Shared: the callback may still be returning when the waiter wakes.
  auto answer = std::make_shared<Answer>();
  start([answer](Result result) {
    absl::MutexLock lock(&answer->mu);
    answer->result.emplace(std::move(result));
  });
  absl::MutexLock lock(&answer->mu);
  answer->mu.Await(absl::Condition(
      +[](std::optional<Result>* result) { return result->has_value(); }, &answer->result));
  return *std::move(answer->result);
}

// What a move's answer shows, as ReadView would put it (no moves once the
// game is over); none from a game_state that answered no legal moves.
std::optional<GameView> ViewOf(v1::SubmitMoveResponse answer) {
  GameView view;
  view.game = std::move(*answer.mutable_game());
  if (view.game.result() != v1::GAME_RESULT_ONGOING) return view;
  if (!answer.has_legal_moves()) return std::nullopt;
  view.moves = std::move(*answer.mutable_legal_moves());
  return view;
}

}  // namespace

GameBackend::GameBackend(std::unique_ptr<GameClient> client) : client_(std::move(client)) {}

absl::StatusOr<v1::CreateGameResponse> GameBackend::CreateGame(
    const v1::CreateGameRequest& request) {
  return client_->Call(&GameClient::Stub::CreateGame, request, Repeatable());
}

absl::StatusOr<GameView> GameBackend::GetView(const std::string& game_id) {
  return Wait<absl::StatusOr<GameView>>([&](auto done) { GetViewAsync(game_id, std::move(done)); });
}

void GameBackend::GetViewAsync(std::string game_id,
                               std::function<void(absl::StatusOr<GameView>)> done) {
  ReadView(std::move(game_id), 0, 0, std::move(done));
}

void GameBackend::GetViewAsync(std::string game_id, int64_t min_version,
                               std::function<void(absl::StatusOr<GameView>)> done) {
  ReadView(std::move(game_id), std::max<int64_t>(0, min_version), 0, std::move(done));
}

void GameBackend::ReadView(std::string game_id, int64_t min_version, int attempt,
                           std::function<void(absl::StatusOr<GameView>)> done) {
  // A move landing between the two reads makes them disagree; a few tries
  // are plenty since a move takes a human at least a moment.
  constexpr int kAttempts = 3;
  if (attempt >= kAttempts) {
    done(absl::AbortedError("the game kept changing while it was read; try again"));
    return;
  }
  v1::GetGameRequest get;
  get.set_game_id(game_id);
  // The game and its moves in one read; a game_state from before that option
  // answers no legal_moves, and the moves are then listed after.
  get.set_include_legal_moves(true);
  get.set_min_version(min_version);
  client_->CallAsync(
      &GameClient::Stub::async_interface::GetGame, std::move(get), Repeatable(),
      [this, game_id, min_version, attempt, done](absl::StatusOr<v1::GetGameResponse> got) {
        if (!got.ok()) {
          done(got.status());
          return;
        }
        auto view = std::make_shared<GameView>();
        view->game = std::move(*got->mutable_game());
        if (view->game.result() != v1::GAME_RESULT_ONGOING) {
          done(std::move(*view));
          return;
        }
        if (got->has_legal_moves()) {
          view->moves = std::move(*got->mutable_legal_moves());
          done(std::move(*view));
          return;
        }
        v1::ListLegalMovesRequest list;
        list.set_game_id(game_id);
        client_->CallAsync(&GameClient::Stub::async_interface::ListLegalMoves, std::move(list),
                           Repeatable(),
                           [this, game_id, min_version, attempt, done,
                            view](absl::StatusOr<v1::ListLegalMovesResponse> moves) {
                             if (!moves.ok()) {
                               done(moves.status());
                               return;
                             }
                             view->moves = *std::move(moves);
                             if (view->moves.ply() == view->game.ply()) {
                               done(std::move(*view));
                               return;
                             }
                             ReadView(game_id, min_version, attempt + 1, done);
                           });
      });
}

absl::Status GameBackend::Act(const std::string& game_id, const ClientAction& action) {
  return Wait<absl::Status>([&](auto done) { ActAsync(game_id, action, std::move(done)); });
}

void GameBackend::ActAsync(const std::string& game_id, const ClientAction& action,
                           std::function<void(absl::Status)> done) {
  // Only the status of an action matters: its effects come as events.
  auto status_only = [done](const auto& answer) { done(answer.status()); };
  using Async = GameClient::Stub::async_interface;
  switch (action.kind) {
    case ActionKind::kMove: {
      v1::SubmitMoveRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_move(action.move);
      request.set_expected_ply(action.expected_ply);
      if (move_listener_ == nullptr) {
        client_->CallAsync(&Async::SubmitMove, std::move(request), Repeatable(), status_only);
        return;
      }
      request.set_include_legal_moves(true);
      move_listener_->MoveSubmitted(game_id);
      client_->CallAsync(&Async::SubmitMove, std::move(request), Repeatable(),
                         [listener = move_listener_, game_id,
                          done](absl::StatusOr<v1::SubmitMoveResponse> answer) {
                           listener->MoveAnswered(
                               game_id, answer.ok() ? ViewOf(*std::move(answer)) : std::nullopt);
                           done(answer.status());
                         });
      return;
    }
    case ActionKind::kResign: {
      v1::ResignRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      client_->CallAsync(&Async::Resign, std::move(request), Repeatable(), status_only);
      return;
    }
    case ActionKind::kOfferDraw: {
      v1::OfferDrawRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      client_->CallAsync(&Async::OfferDraw, std::move(request), Repeatable(), status_only);
      return;
    }
    case ActionKind::kAcceptDraw:
    case ActionKind::kDeclineDraw: {
      v1::RespondDrawRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      request.set_accept(action.kind == ActionKind::kAcceptDraw);
      client_->CallAsync(&Async::RespondDraw, std::move(request), Repeatable(), status_only);
      return;
    }
    case ActionKind::kPing:
      break;
  }
  done(absl::OkStatus());
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
