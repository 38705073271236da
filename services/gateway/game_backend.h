// The gateway's calls to game_state (draughts.v1.GameService): each with a
// deadline, its latency recorded, and its gRPC status turned into an
// absl::Status with the same code, so handlers map it once (error_mapping.h).
// Thread-safe (gRPC stubs are).
#ifndef DRAUGHTS_GATEWAY_GAME_BACKEND_H_
#define DRAUGHTS_GATEWAY_GAME_BACKEND_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/game.grpc.pb.h"
#include "gateway/gateway_metrics.h"
#include "gateway/ws_protocol.h"

namespace draughts::gateway {

class GameBackend {
 public:
  GameBackend(std::shared_ptr<v1::GameService::StubInterface> stub, GatewayMetrics* metrics,
              absl::Duration deadline = absl::Seconds(5));

  // A channel to `address` ("host:port") without TLS (inside the cluster).
  static std::shared_ptr<v1::GameService::StubInterface> Connect(const std::string& address);

  absl::StatusOr<v1::CreateGameResponse> CreateGame(const v1::CreateGameRequest& request);

  // The game and its legal moves at the same ply (re-read if a move landed
  // between the two calls).
  absl::StatusOr<GameView> GetView(const std::string& game_id);

  // Forwards a player's action (not ping) to the matching GameService call.
  absl::Status Act(const std::string& game_id, const ClientAction& action);

  // OK when game_state answers at all (any reply but UNAVAILABLE or a
  // timeout): an empty GetGame is refused by it without touching Redis.
  absl::Status Ping();

  // Starts WatchGame; the caller owns `context` and may TryCancel it.
  std::unique_ptr<grpc::ClientReaderInterface<v1::GameEvent>> Watch(
      grpc::ClientContext* context, const std::string& game_id, const std::string& from_event_id);

 private:
  std::unique_ptr<grpc::ClientContext> Context() const;
  absl::Status Finish(std::string_view method, absl::Time started, const grpc::Status& status);

  std::shared_ptr<v1::GameService::StubInterface> stub_;
  GatewayMetrics* metrics_;
  absl::Duration deadline_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GAME_BACKEND_H_
