// What table sockets need beyond the game sockets' context: the backends
// of a table (matchmaking, clock, chat, ratings) and the per-session socket count.
// Plain pointers: the server's owner outlives every socket.
#ifndef DRAUGHTS_GATEWAY_TABLE_SOCKET_SERVICES_H_
#define DRAUGHTS_GATEWAY_TABLE_SOCKET_SERVICES_H_

#include "gateway/chat_backend.h"
#include "gateway/clock_backend.h"
#include "gateway/game_feeds.h"
#include "gateway/game_snapshot_cache.h"
#include "gateway/matchmaking_backend.h"
#include "gateway/table_socket_limits.h"

namespace draughts::gateway {

class RatingBackend;

struct TableSocketServices {
  MatchmakingBackend* matchmaking = nullptr;
  ClockBackend* clock = nullptr;
  ChatBackend* chat = nullptr;
  // Rated games' Elo changes for gameOver; none: gameOver carries none.
  RatingBackend* ratings = nullptr;
  SessionSocketCounter* per_session = nullptr;
  // The game reads shared by the sockets of one game.
  GameSnapshotCache* snapshots = nullptr;
  // The WatchGame, WatchTable and WatchChat streams shared by the sockets
  // of one table.
  GameFeeds* feeds = nullptr;
  TableFeeds* table_feeds = nullptr;
  ChatFeeds* chat_feeds = nullptr;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_TABLE_SOCKET_SERVICES_H_
