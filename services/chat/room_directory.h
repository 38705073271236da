// What chat needs to know about rooms and authors, asked of the services
// that own tables and games. An interface so the service logic does not
// depend on how (gRPC, a cache) it is learned.
#ifndef DRAUGHTS_CHAT_ROOM_DIRECTORY_H_
#define DRAUGHTS_CHAT_ROOM_DIRECTORY_H_

#include <string>

#include "absl/status/statusor.h"
#include "draughts/v1/chat.pb.h"
#include "draughts/v1/common.pb.h"

namespace draughts::chat {

// A room as it is stored: a game with a table is the table's room.
struct Room {
  v1::ChatRoom id;
  // "table/<id>" or "game/<id>": one per stored room, used in Redis keys.
  std::string key;
  // VariantOptions.spectators_muted of the table (or of the game without one).
  bool spectators_muted = false;
};

// A seated player, as their game's token proves.
struct SeatedPlayer {
  v1::Color color = v1::COLOR_UNSPECIFIED;
  v1::Seat seat;
};

// The stored room of `id` ("table/..." or "game/...").
std::string RoomKey(const v1::ChatRoom& id);

class RoomDirectory {
 public:
  virtual ~RoomDirectory() = default;

  // The room `id` names; NOT_FOUND for an unknown table or game,
  // UNAVAILABLE when the owner cannot be asked.
  virtual absl::StatusOr<Room> FindRoom(const v1::ChatRoom& id) = 0;

  // The seat `player_token` holds in `game_id`: NOT_FOUND for an unknown
  // game, PERMISSION_DENIED when it is no seat's token.
  virtual absl::StatusOr<SeatedPlayer> ResolvePlayer(const std::string& game_id,
                                                     const std::string& player_token) = 0;
};

}  // namespace draughts::chat

#endif  // DRAUGHTS_CHAT_ROOM_DIRECTORY_H_
