// Redis key names of game-state. A game's keys share the hash tag {<id>},
// so they live in one Redis Cluster slot and one Lua script may touch them
// all. Global keys (indexes, the platform streams) live elsewhere and are
// never written by those scripts (see outbox_relay.h).
#ifndef DRAUGHTS_GAME_STATE_REDIS_KEYS_H_
#define DRAUGHTS_GAME_STATE_REDIS_KEYS_H_

#include <string>
#include <string_view>

namespace draughts::game_state {

struct RedisKeys {
  // Prepended to every key (tests use a unique one; production none).
  std::string prefix;
  // The platform-wide streams (events.proto): bot workers, the rating and
  // matchmaking services and the clock read these.
  std::string bot_jobs_stream = "draughts:bot-jobs";
  std::string results_stream = "draughts:results";
  std::string deadlines_stream = "draughts:deadlines";
  std::string chat_notices_stream = "draughts:chat-notices";

  // hash: v (version), data (StoredGame), last (id of the last event)
  std::string State(std::string_view game_id) const;
  // stream of GameEvent, field "data"
  std::string Events(std::string_view game_id) const;
  // stream of messages waiting to be forwarded, fields "kind" and "data"
  std::string Outbox(std::string_view game_id) const;

  // Sorted sets of game ids by last activity (ms): ongoing games, all
  // retained games, and each player's games.
  std::string LiveGames() const;
  std::string AllGames() const;
  std::string PlayerGames(std::string_view player_id) const;
  // Sorted set of game ids whose outbox may hold messages, by the ms they
  // were marked (outbox_relay.h).
  std::string OutboxPending() const;
  std::string BotJobs() const;
  std::string Results() const;
  std::string Deadlines() const;
  std::string ChatNotices() const;
  // Pub/sub channel told the key of each events stream that grew (see
  // platform/stream_feed.h).
  std::string EventsChanged() const;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_REDIS_KEYS_H_
