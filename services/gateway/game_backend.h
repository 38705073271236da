// The gateway's calls to game_state (draughts.v1.GameService) through the
// platform's typed client (platform/grpc_client.h: deadline, retries of
// UNAVAILABLE, draughts_rpc_client_* metrics), with its status kept as an
// absl::Status of the same code, so handlers map it once (error_mapping.h).
// Thread-safe (the client is).
#ifndef DRAUGHTS_GATEWAY_GAME_BACKEND_H_
#define DRAUGHTS_GATEWAY_GAME_BACKEND_H_

#include <grpcpp/grpcpp.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "draughts/v1/game.grpc.pb.h"
#include "gateway/ws_protocol.h"
#include "platform/grpc_client.h"

namespace draughts::gateway {

using GameClient = platform::GrpcClient<v1::GameService>;

// Told of the game as the answer to a move shows it (the table sockets'
// snapshot cache): each MoveSubmitted is followed by one MoveAnswered, on
// any thread.
class MoveAnswerListener {
 public:
  virtual ~MoveAnswerListener() = default;
  virtual void MoveSubmitted(const std::string& game_id) = 0;
  // The game after the move and its legal moves; none when the move failed
  // (or game_state answered no legal moves).
  virtual void MoveAnswered(const std::string& game_id, std::optional<GameView> view) = 0;
};

class GameBackend {
 public:
  explicit GameBackend(std::unique_ptr<GameClient> client);

  absl::StatusOr<v1::CreateGameResponse> CreateGame(const v1::CreateGameRequest& request);

  // The game and its legal moves at the same ply (re-read if a move landed
  // between the two calls).
  absl::StatusOr<GameView> GetView(const std::string& game_id);
  // The same without holding a thread while game_state answers (gRPC's
  // callback API, as the sockets use it): `done` runs once, on a gRPC
  // thread; post it on.
  void GetViewAsync(std::string game_id, std::function<void(absl::StatusOr<GameView>)> done);
  // The game at `min_version` or newer (GetGameRequest.min_version: a
  // replica that committed it answers without reading Redis); 0: as stored.
  void GetViewAsync(std::string game_id, int64_t min_version,
                    std::function<void(absl::StatusOr<GameView>)> done);

  // Moves sent by ActAsync from now on also ask for the legal moves after
  // them and tell `listener` (not owned; set before any call).
  void SetMoveAnswerListener(MoveAnswerListener* listener) { move_listener_ = listener; }

  // Forwards a player's action (not ping) to the matching GameService call.
  absl::Status Act(const std::string& game_id, const ClientAction& action);
  // The same without holding a thread, as GetViewAsync.
  void ActAsync(const std::string& game_id, const ClientAction& action,
                std::function<void(absl::Status)> done);

  // OK when game_state answers at all (any reply but UNAVAILABLE or a
  // timeout): an empty GetGame is refused by it without touching Redis.
  absl::Status Ping();

  // Starts WatchGame; the caller owns `context` and may TryCancel it. A
  // stream is not retried here: the socket resumes it from its last event.
  std::unique_ptr<grpc::ClientReaderInterface<v1::GameEvent>> Watch(
      grpc::ClientContext* context, const std::string& game_id, const std::string& from_event_id);

  // For streams read with the callback API (table sockets).
  GameClient& client() { return *client_; }

 private:
  void ReadView(std::string game_id, int64_t min_version, int attempt,
                std::function<void(absl::StatusOr<GameView>)> done);

  std::unique_ptr<GameClient> client_;
  MoveAnswerListener* move_listener_ = nullptr;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GAME_BACKEND_H_
