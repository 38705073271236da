// What the chat logic needs from storage, in its own words: a room's
// messages (append capped, list newest first, follow live), the record of
// what an author posted under an idempotency key, and the per-author rate
// limit. redis_chat_store.h is the adapter.
#ifndef DRAUGHTS_CHAT_CHAT_STORE_H_
#define DRAUGHTS_CHAT_CHAT_STORE_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/chat.pb.h"
#include "platform/event_id.h"
#include "platform/message_feed.h"

namespace draughts::chat {

// The first message an author posted under one idempotency key, and the
// fingerprint of that request (to tell a retry from a reused key).
struct PostRecord {
  std::string fingerprint;
  v1::ChatMessage message;
  // Post only: this call appended the message (false: it found the record).
  bool appended = false;
};

// One watcher of one room; one reader.
using MessageSubscription = platform::MessageFeed<v1::ChatMessage>;

class ChatStore {
 public:
  virtual ~ChatStore() = default;

  // What `author` posted in room `room_key` under `key`, if they did (the
  // record is kept 24 hours).
  virtual absl::StatusOr<std::optional<PostRecord>> FindPost(const std::string& room_key,
                                                             const std::string& author,
                                                             const std::string& key) = 0;

  // Counts one post of `author` against the rate limit, atomically for
  // every replica: RESOURCE_EXHAUSTED, saying how long to wait, when the
  // author is over it (nothing counted then).
  virtual absl::Status CountPost(const std::string& author) = 0;

  // Appends `message` to the room (its message_id and sent_at come from
  // the store) unless `author` already posted under `key`; either way
  // returns what is recorded under the key.
  virtual absl::StatusOr<PostRecord> Post(const std::string& room_key, const std::string& author,
                                          const std::string& key, const std::string& fingerprint,
                                          const v1::ChatMessage& message) = 0;

  // Up to `count` messages, newest first, older than `before` (nullopt:
  // from the newest).
  virtual absl::StatusOr<std::vector<v1::ChatMessage>> ListNewestFirst(
      const std::string& room_key, std::optional<platform::EventId> before, int count) = 0;

  // The room's messages after `after`, live; nullopt: only those posted
  // from now on.
  virtual absl::StatusOr<std::unique_ptr<MessageSubscription>> Subscribe(
      const std::string& room_key, std::optional<platform::EventId> after) = 0;
};

}  // namespace draughts::chat

#endif  // DRAUGHTS_CHAT_CHAT_STORE_H_
