// EventFeed over the per-game Redis streams, for WatchGame: the game's
// side (stream keys, GameEvent parsing, the game-has-events and retention
// checks) on platform::RedisStreamFeed, which does the tailing (one
// connection per replica for every watched game; see stream_feed.h).
#ifndef DRAUGHTS_GAME_STATE_EVENT_FEED_REDIS_H_
#define DRAUGHTS_GAME_STATE_EVENT_FEED_REDIS_H_

#include <memory>
#include <string>

#include "game_state/game_store.h"
#include "game_state/redis_keys.h"
#include "platform/redis_client.h"
#include "platform/redis_pool.h"
#include "platform/stream_feed.h"

namespace draughts::game_state {

using RedisEventFeedOptions = platform::StreamFeedOptions;

class RedisEventFeed final : public EventFeed {
 public:
  // `pool` serves the short catch-up reads and must outlive the feed; the
  // tailer opens its own connection with `tail_options`.
  RedisEventFeed(platform::RedisPool* pool, platform::RedisOptions tail_options, RedisKeys keys,
                 RedisEventFeedOptions options = {});

  absl::StatusOr<std::unique_ptr<EventSubscription>> Subscribe(
      const std::string& game_id, const std::string& after_event_id) override;

  // Games the tailer follows now (tests, metrics).
  int watched_games() const { return streams_.watched_streams(); }

 private:
  RedisKeys keys_;
  platform::RedisStreamFeed streams_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_EVENT_FEED_REDIS_H_
