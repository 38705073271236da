#include "gateway/game_backend.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/status.h"
#include "platform/status_macros.h"

namespace draughts::gateway {

GameBackend::GameBackend(std::shared_ptr<v1::GameService::StubInterface> stub,
                         GatewayMetrics* metrics, absl::Duration deadline)
    : stub_(std::move(stub)), metrics_(metrics), deadline_(deadline) {}

std::shared_ptr<v1::GameService::StubInterface> GameBackend::Connect(const std::string& address) {
  return v1::GameService::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
}

std::unique_ptr<grpc::ClientContext> GameBackend::Context() const {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(absl::ToChronoTime(absl::Now() + deadline_));
  return context;
}

absl::Status GameBackend::Finish(std::string_view method, absl::Time started,
                                 const grpc::Status& status) {
  absl::Status result = platform::FromGrpcStatus(status);
  if (metrics_ != nullptr) {
    metrics_->RecordGrpc(method, result.code(), absl::ToDoubleSeconds(absl::Now() - started));
  }
  return result;
}

absl::StatusOr<v1::CreateGameResponse> GameBackend::CreateGame(
    const v1::CreateGameRequest& request) {
  v1::CreateGameResponse response;
  const absl::Time started = absl::Now();
  DRAUGHTS_RETURN_IF_ERROR(
      Finish("CreateGame", started, stub_->CreateGame(Context().get(), request, &response)));
  return response;
}

absl::StatusOr<GameView> GameBackend::GetView(const std::string& game_id) {
  GameView view;
  // A move landing between the two reads makes them disagree; a few tries
  // are plenty since a move takes a human at least a moment.
  for (int attempt = 0; attempt < 3; ++attempt) {
    v1::GetGameRequest get;
    get.set_game_id(game_id);
    v1::GetGameResponse got;
    absl::Time started = absl::Now();
    DRAUGHTS_RETURN_IF_ERROR(
        Finish("GetGame", started, stub_->GetGame(Context().get(), get, &got)));
    view.game = std::move(*got.mutable_game());
    view.moves.Clear();
    if (view.game.result() != v1::GAME_RESULT_ONGOING) return view;
    v1::ListLegalMovesRequest list;
    list.set_game_id(game_id);
    started = absl::Now();
    DRAUGHTS_RETURN_IF_ERROR(Finish("ListLegalMoves", started,
                                    stub_->ListLegalMoves(Context().get(), list, &view.moves)));
    if (view.moves.ply() == view.game.ply()) return view;
  }
  return absl::AbortedError("the game kept changing while it was read; try again");
}

absl::Status GameBackend::Act(const std::string& game_id, const ClientAction& action) {
  const absl::Time started = absl::Now();
  switch (action.kind) {
    case ActionKind::kMove: {
      v1::SubmitMoveRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_move(action.move);
      request.set_expected_ply(action.expected_ply);
      v1::SubmitMoveResponse response;
      return Finish("SubmitMove", started, stub_->SubmitMove(Context().get(), request, &response));
    }
    case ActionKind::kResign: {
      v1::ResignRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      v1::ResignResponse response;
      return Finish("Resign", started, stub_->Resign(Context().get(), request, &response));
    }
    case ActionKind::kOfferDraw: {
      v1::OfferDrawRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      v1::OfferDrawResponse response;
      return Finish("OfferDraw", started, stub_->OfferDraw(Context().get(), request, &response));
    }
    case ActionKind::kAcceptDraw:
    case ActionKind::kDeclineDraw: {
      v1::RespondDrawRequest request;
      request.set_game_id(game_id);
      request.set_player_token(action.token);
      request.set_expected_ply(action.expected_ply);
      request.set_accept(action.kind == ActionKind::kAcceptDraw);
      v1::RespondDrawResponse response;
      return Finish("RespondDraw", started,
                    stub_->RespondDraw(Context().get(), request, &response));
    }
    case ActionKind::kPing:
      break;
  }
  return absl::OkStatus();
}

absl::Status GameBackend::Ping() {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(1)));
  v1::GetGameRequest request;  // empty id: INVALID_ARGUMENT, no Redis round trip
  v1::GetGameResponse response;
  const grpc::Status status = stub_->GetGame(context.get(), request, &response);
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE ||
      status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    return absl::UnavailableError(absl::StrCat("game_state: ", status.error_message()));
  }
  return absl::OkStatus();
}

std::unique_ptr<grpc::ClientReaderInterface<v1::GameEvent>> GameBackend::Watch(
    grpc::ClientContext* context, const std::string& game_id, const std::string& from_event_id) {
  v1::WatchGameRequest request;
  request.set_game_id(game_id);
  request.set_from_event_id(from_event_id);
  return stub_->WatchGame(context, request);
}

}  // namespace draughts::gateway
