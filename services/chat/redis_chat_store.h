// ChatStore on Redis. A room's keys share its hash tag {<room key>} (one
// Redis Cluster slot, one script touches them): the capped message stream
// and one record per (author, idempotency key). An author's rate-limit
// window is keyed by the author's own hash tag, so the limit holds across
// rooms; it is a separate script, run before the post.
#ifndef DRAUGHTS_CHAT_REDIS_CHAT_STORE_H_
#define DRAUGHTS_CHAT_REDIS_CHAT_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chat/chat_store.h"
#include "platform/redis_client.h"
#include "platform/redis_pool.h"
#include "platform/redis_script.h"
#include "platform/stream_feed.h"

namespace draughts::chat {

struct ChatLimits {
  // Messages a room keeps (exact XADD MAXLEN).
  int64_t room_history = 200;
  // A room is dropped this long after its last message.
  absl::Duration room_lifetime = absl::Hours(24);
  // Idempotency keys are remembered this long (common.proto: 24 h at least).
  absl::Duration key_lifetime = absl::Hours(24);
  // Posts per author per window.
  int64_t posts_per_window = 5;
  absl::Duration rate_window = absl::Seconds(10);
};

struct RedisChatKeys {
  // Prepended to every key (tests use a unique one).
  std::string prefix;
  std::string Messages(const std::string& room_key) const;
  std::string Post(const std::string& room_key, const std::string& author,
                   const std::string& key) const;
  std::string RecentPosts(const std::string& author) const;
  // Pub/sub channel told the key of each room that got a message (see
  // platform/stream_feed.h).
  std::string MessagesChanged() const;
};

class RedisChatStore final : public ChatStore {
 public:
  // `pool` must outlive the store; the live feed tails with its own
  // connection (`tail_options`).
  RedisChatStore(platform::RedisPool* pool, platform::RedisOptions tail_options, RedisChatKeys keys,
                 ChatLimits limits, platform::StreamFeedOptions feed_options = {});

  absl::StatusOr<std::optional<PostRecord>> FindPost(const std::string& room_key,
                                                     const std::string& author,
                                                     const std::string& key) override;
  absl::Status CountPost(const std::string& author) override;
  absl::StatusOr<PostRecord> Post(const std::string& room_key, const std::string& author,
                                  const std::string& key, const std::string& fingerprint,
                                  const v1::ChatMessage& message) override;
  absl::StatusOr<std::vector<v1::ChatMessage>> ListNewestFirst(
      const std::string& room_key, std::optional<platform::EventId> before, int count) override;
  absl::StatusOr<std::unique_ptr<MessageSubscription>> Subscribe(
      const std::string& room_key, std::optional<platform::EventId> after) override;

  // Rooms the live feed follows now (metrics, tests).
  int watched_rooms() const { return feed_.watched_streams(); }

 private:
  platform::RedisPool* pool_;
  RedisChatKeys keys_;
  ChatLimits limits_;
  platform::RedisScript post_script_;
  platform::RedisScript count_script_;
  platform::RedisStreamFeed feed_;
};

// A stream entry as a ChatMessage: its "data", the entry id as message_id,
// and the id's milliseconds (Redis's clock) as sent_at.
absl::StatusOr<v1::ChatMessage> MessageFromEntry(const platform::StreamEntry& entry);

}  // namespace draughts::chat

#endif  // DRAUGHTS_CHAT_REDIS_CHAT_STORE_H_
