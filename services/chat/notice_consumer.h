// Posts the games' notices into their chat rooms: reads the chat notices
// stream (ChatNoticeRecord, written by game-state's outbox relay) in a
// consumer group shared by every chat replica, posts each notice as a
// CHAT_ROLE_SYSTEM message, and acknowledges it only once it is in the
// room. Delivery is at least once; the post is keyed by game id + game
// version, so a notice delivered twice is posted once. A malformed entry
// is logged, counted and acknowledged, so it cannot block the group.
//
// Order of work: its own pending entries first (at start and after any
// failure), then new ones; now and then it takes over the entries a
// stopped replica left pending for longer than claim_idle.
#ifndef DRAUGHTS_CHAT_NOTICE_CONSUMER_H_
#define DRAUGHTS_CHAT_NOTICE_CONSUMER_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "chat/chat_metrics.h"
#include "chat/chat_store.h"
#include "draughts/v1/events.pb.h"
#include "platform/redis_client.h"
#include "platform/redis_consumer_group.h"
#include "platform/redis_pool.h"
#include "platform/redis_streams.h"

namespace draughts::chat {

struct NoticeGroup {
  std::string stream = "draughts:chat-notices";
  std::string group = "chat";
  std::string consumer;
};

struct NoticeConsumerOptions {
  int batch_size = 32;
  // How long one read waits for new entries (also bounds how long Stop waits).
  absl::Duration block = absl::Seconds(1);
  absl::Duration claim_idle = absl::Seconds(30);
  // Retry delays after a failure (Redis down), doubling.
  absl::Duration initial_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(5);
};

// The chat message a notice becomes, and the key it is posted under.
v1::ChatMessage NoticeMessage(const v1::ChatNoticeRecord& record);
std::string NoticeRoomKey(const v1::ChatNoticeRecord& record);
std::string NoticePostKey(const v1::ChatNoticeRecord& record);
// The author name of every system line in the idempotency records.
inline constexpr std::string_view kSystemAuthor = "system";

class NoticeConsumer {
 public:
  // `pool` (for short calls) and `store` must outlive the consumer; the
  // blocking reads use a connection of their own. `metrics` may be null.
  NoticeConsumer(platform::RedisPool* pool, NoticeGroup group, ChatStore* store,
                 ChatMetrics* metrics, NoticeConsumerOptions options = {});
  ~NoticeConsumer();  // Stop()
  NoticeConsumer(const NoticeConsumer&) = delete;
  NoticeConsumer& operator=(const NoticeConsumer&) = delete;

  // Runs in a thread until Stop().
  void Start();
  // Idempotent; returns once the thread has ended (within about `block`).
  void Stop();

 private:
  // One round: group, claims now and then, own pending entries, new ones.
  absl::Status Step();
  // Posts and acknowledges `entries` in order; stops at the first failure.
  absl::Status Handle(const std::vector<platform::StreamEntry>& entries);
  void Loop();
  bool SleepUnlessStopped(absl::Duration duration);

  platform::RedisPool* pool_;
  platform::StreamConsumer consumer_;
  ChatStore* store_;
  ChatMetrics* metrics_;
  NoticeConsumerOptions options_;
  platform::RedisClient reader_;
  bool group_ready_ = false;
  bool pending_done_ = false;
  absl::Time next_claim_ = absl::InfinitePast();

  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace draughts::chat

#endif  // DRAUGHTS_CHAT_NOTICE_CONSUMER_H_
