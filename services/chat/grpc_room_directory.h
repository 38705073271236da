// RoomDirectory over gRPC: games from GameService (GetGame,
// ResolvePlayerToken), tables from MatchmakingService (GetTable). Rooms are
// cached for a short while: a room's table and its options are fixed when
// it is created, so the cache only delays noticing a room that expired.
#ifndef DRAUGHTS_CHAT_GRPC_ROOM_DIRECTORY_H_
#define DRAUGHTS_CHAT_GRPC_ROOM_DIRECTORY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/time/time.h"
#include "chat/room_directory.h"
#include "draughts/v1/game.grpc.pb.h"
#include "draughts/v1/matchmaking.grpc.pb.h"
#include "platform/grpc_client.h"

namespace draughts::chat {

using GameClient = platform::GrpcClient<v1::GameService>;
using MatchmakingClient = platform::GrpcClient<v1::MatchmakingService>;

struct RoomCacheOptions {
  absl::Duration ttl = absl::Seconds(30);
  // Past this many rooms the cache starts over (rooms are cheap to ask for).
  std::size_t max_rooms = 100000;
};

class GrpcRoomDirectory final : public RoomDirectory {
 public:
  // `games` and `tables` must outlive the directory; `now` is injectable.
  GrpcRoomDirectory(GameClient* games, MatchmakingClient* tables, RoomCacheOptions options = {},
                    std::function<absl::Time()> now = absl::Now);

  absl::StatusOr<Room> FindRoom(const v1::ChatRoom& id) override;
  absl::StatusOr<SeatedPlayer> ResolvePlayer(const std::string& game_id,
                                             const std::string& player_token) override;

 private:
  absl::StatusOr<Room> AskOwner(const v1::ChatRoom& id);

  GameClient* games_;
  MatchmakingClient* tables_;
  RoomCacheOptions options_;
  std::function<absl::Time()> now_;
  std::mutex mu_;
  struct Cached {
    Room room;
    absl::Time expires;
  };
  std::map<std::string, Cached> cache_;
};

}  // namespace draughts::chat

#endif  // DRAUGHTS_CHAT_GRPC_ROOM_DIRECTORY_H_
