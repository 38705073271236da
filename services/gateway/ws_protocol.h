// The game WebSocket's messages (docs/WEB_PROTOCOL.md), declared in
// web_game.proto: parsing what a browser sends (GameSocketClientFrame,
// strictly), and printing what the gateway sends back. Pure functions; a
// bad frame becomes an INVALID_ARGUMENT status, never an exception.
#ifndef DRAUGHTS_GATEWAY_WS_PROTOCOL_H_
#define DRAUGHTS_GATEWAY_WS_PROTOCOL_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "draughts/v1/events.pb.h"
#include "draughts/v1/game.pb.h"
#include "draughts/v1/web_game.pb.h"

namespace draughts::gateway {

enum class ActionKind { kPing, kMove, kResign, kOfferDraw, kAcceptDraw, kDeclineDraw };

struct ClientAction {
  ActionKind kind = ActionKind::kPing;
  std::string request_id;  // echoed in the ack or error; may be empty
  std::string token;       // the seat's player token
  std::string move;        // kMove only
  int expected_ply = 0;
};

// Longest requestId echoed back; longer ones are refused.
inline constexpr std::size_t kMaxRequestIdBytes = 64;

// What a client frame asks for. On INVALID_ARGUMENT, `request_id` (when not
// null) still receives the frame's requestId if one could be read, so the
// error frame can name the request it answers.
absl::StatusOr<ClientAction> ParseClientAction(std::string_view frame,
                                               std::string* request_id = nullptr);

// What a snapshot carries: the game and, while it is on, its legal moves.
struct GameView {
  v1::GameState game;
  v1::ListLegalMovesResponse moves;
};

std::string SnapshotFrame(const GameView& view);
std::string EventFrame(const v1::GameEvent& event);
std::string AckFrame(std::string_view request_id);
std::string ErrorFrame(std::string_view request_id, const absl::Status& status);
std::string PongFrame();

// Whether an event changes what a snapshot shows (position, result, draw
// offer), so the bridge sends a fresh snapshot after it.
bool EventChangesSnapshot(const v1::GameEvent& event);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_WS_PROTOCOL_H_
