#include "platform/stream_feed.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/redis_cluster_slots.h"
#include "platform/status_macros.h"

namespace draughts::platform {
namespace {

// Ids come from Redis itself; {0, 0} only if one does not parse, which
// then sorts before everything instead of failing the watcher.
EventId IdOf(const StreamEntry& entry) {
  absl::StatusOr<EventId> id = ParseEventId(entry.id);
  return id.ok() ? *id : EventId{};
}

}  // namespace

EventId StreamEnds::LastId() const {
  return last.has_value() ? IdOf(*last) : EventId{};
}

// A watcher's position in one stream. Batches from the tailer are queued
// with the tailer's position before them; a batch starting past the
// watcher's position means it missed entries in between (it subscribed
// while the tailer was ahead), which it then reads itself.
class RedisStreamFeed::Subscription final : public StreamSubscription {
 public:
  Subscription(RedisStreamFeed* feed, std::string key, std::optional<EventId> after)
      : feed_(feed), key_(std::move(key)), cursor_(after) {}
  ~Subscription() override { feed_->Unregister(this, key_); }

  // From the tailer thread.
  void Deliver(EventId before, std::vector<StreamEntry> entries) {
    std::function<void()> ready;
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back({before, std::move(entries)});
      ready = ready_;
    }
    arrived_.notify_one();
    if (ready) ready();
  }

  bool SetReadyCallback(std::function<void()> ready) override {
    std::lock_guard<std::mutex> lock(mu_);
    ready_ = std::move(ready);
    return true;
  }

  absl::StatusOr<std::vector<StreamEntry>> Next(absl::Duration timeout) override {
    if (!caught_up_) return CatchUp();
    std::deque<Batch> batches;
    {
      std::unique_lock<std::mutex> lock(mu_);
      // A zero timeout must not reach the condition variable: even an
      // expired wait costs a futex call.
      if (timeout > absl::ZeroDuration()) {
        arrived_.wait_for(lock, absl::ToChronoMilliseconds(timeout),
                          [this] { return !queue_.empty(); });
      }
      batches.swap(queue_);
    }
    std::vector<StreamEntry> out;
    for (Batch& batch : batches) {
      if (batch.before > cursor_.value_or(EventId{})) {
        // Entries between our position and this batch never reached us.
        // Reading the stream from our position covers them and every batch
        // after this one, which are dropped.
        caught_up_ = false;
        break;
      }
      for (StreamEntry& entry : batch.entries) {
        const EventId id = IdOf(entry);
        if (cursor_.has_value() && id <= *cursor_) continue;
        cursor_ = id;
        out.push_back(std::move(entry));
      }
    }
    if (out.empty() && !caught_up_) return CatchUp();
    return out;
  }

 private:
  struct Batch {
    EventId before;
    std::vector<StreamEntry> entries;
  };

  absl::StatusOr<std::vector<StreamEntry>> CatchUp() {
    const int count = feed_->options_.read_count;
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<StreamEntry> entries,
                              feed_->ReadRange(key_, cursor_, count));
    if (static_cast<int>(entries.size()) < count) caught_up_ = true;
    if (!entries.empty()) cursor_ = IdOf(entries.back());
    return entries;
  }

  RedisStreamFeed* feed_;
  const std::string key_;
  // The last entry handed out; nullopt before the first (from the start).
  std::optional<EventId> cursor_;
  bool caught_up_ = false;
  std::mutex mu_;
  std::condition_variable arrived_;
  std::deque<Batch> queue_;
  std::function<void()> ready_;
};

RedisStreamFeed::RedisStreamFeed(RedisPool* pool, RedisOptions tail_options,
                                 StreamFeedOptions options)
    : pool_(pool), tail_options_(std::move(tail_options)), options_(options) {
  // The blocking read gets its own round-trip allowance on top of the block.
  tail_options_.command_timeout = options_.block + absl::Seconds(2);
  if (tail_options_.cluster_seeds.empty()) {
    tailer_ = std::thread([this] { TailLoop(); });
  } else {
    tailer_ = std::thread([this] { ClusterTailLoop(); });
  }
}

RedisStreamFeed::~RedisStreamFeed() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  watched_changed_.notify_all();
  WakeTailer();
  tailer_.join();
}

int RedisStreamFeed::watched_streams() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(watched_.size());
}

absl::StatusOr<StreamEnds> RedisStreamFeed::ReadEnds(const std::string& key) {
  std::vector<RedisReply> ends;
  {
    DRAUGHTS_ASSIGN_OR_RETURN(RedisPool::Lease redis, pool_->Borrow());
    DRAUGHTS_ASSIGN_OR_RETURN(ends, redis->Pipeline({{"XRANGE", key, "-", "+", "COUNT", "1"},
                                                     {"XREVRANGE", key, "+", "-", "COUNT", "1"}}));
  }
  DRAUGHTS_RETURN_IF_ERROR(ends[0].ToStatus());
  DRAUGHTS_RETURN_IF_ERROR(ends[1].ToStatus());
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<StreamEntry> first, ParseStreamEntries(ends[0]));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<StreamEntry> last, ParseStreamEntries(ends[1]));
  StreamEnds out;
  if (!first.empty()) out.first = std::move(first.front());
  if (!last.empty()) out.last = std::move(last.front());
  return out;
}

absl::StatusOr<std::vector<StreamEntry>> RedisStreamFeed::ReadRange(const std::string& key,
                                                                    std::optional<EventId> after,
                                                                    int count) {
  const std::string start = after.has_value() ? absl::StrCat("(", FormatEventId(*after)) : "-";
  DRAUGHTS_ASSIGN_OR_RETURN(RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      RedisReply reply, redis->Command({"XRANGE", key, start, "+", "COUNT", absl::StrCat(count)}));
  return ParseStreamEntries(reply);
}

absl::StatusOr<std::unique_ptr<StreamSubscription>> RedisStreamFeed::Subscribe(
    const std::string& key, std::optional<EventId> after, EventId tail_from) {
  auto subscription = std::make_unique<Subscription>(this, key, after);
  Register(subscription.get(), key, tail_from);
  return subscription;
}

void RedisStreamFeed::Register(Subscription* subscription, const std::string& key,
                               EventId tail_from) {
  bool new_stream = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = watched_.try_emplace(key);
    if (inserted) {
      it->second.cursor = tail_from;
      ++watched_generation_;
    }
    it->second.subscribers.push_back(subscription);
    new_stream = inserted;
  }
  if (new_stream) {
    watched_changed_.notify_all();
    WakeTailer();
  }
}

void RedisStreamFeed::Unregister(Subscription* subscription, const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = watched_.find(key);
  if (it == watched_.end()) return;
  auto& subscribers = it->second.subscribers;
  subscribers.erase(std::remove(subscribers.begin(), subscribers.end(), subscription),
                    subscribers.end());
  if (subscribers.empty()) watched_.erase(it);
}

void RedisStreamFeed::WakeTailer() {
  const int64_t id = tail_client_id_.load();
  if (id < 0) return;
  absl::StatusOr<RedisPool::Lease> redis = pool_->Borrow();
  if (redis.ok()) (void)(*redis)->Command({"CLIENT", "UNBLOCK", absl::StrCat(id)});
}

void RedisStreamFeed::TailLoop() {
  RedisClient client(tail_options_);
  absl::Time last_error_log = absl::InfinitePast();
  while (true) {
    std::vector<std::pair<std::string, EventId>> streams;
    {
      std::unique_lock<std::mutex> lock(mu_);
      watched_changed_.wait_for(lock, std::chrono::milliseconds(500),
                                [this] { return stopping_ || !watched_.empty(); });
      if (stopping_) return;
      for (const auto& [key, watched] : watched_) streams.emplace_back(key, watched.cursor);
    }
    if (streams.empty()) continue;
    if (!client.connected() || tail_client_id_.load() < 0) {
      // A fresh connection has a new client id: the one wakers unblock.
      absl::StatusOr<RedisReply> id = client.Command({"CLIENT", "ID"});
      if (id.ok() && id->type() == RedisReply::Type::kInteger) {
        tail_client_id_.store(id->integer());
      }
    }
    const int chunk = std::max(1, options_.max_streams_per_read);
    const bool block = static_cast<int>(streams.size()) <= chunk;
    for (std::size_t begin = 0; begin < streams.size(); begin += static_cast<std::size_t>(chunk)) {
      const std::size_t end = std::min(streams.size(), begin + static_cast<std::size_t>(chunk));
      std::vector<std::string> command = {"XREAD", "COUNT", absl::StrCat(options_.read_count)};
      if (block) {
        command.push_back("BLOCK");
        command.push_back(absl::StrCat(absl::ToInt64Milliseconds(options_.block)));
      }
      command.push_back("STREAMS");
      for (std::size_t i = begin; i < end; ++i) command.push_back(streams[i].first);
      for (std::size_t i = begin; i < end; ++i) command.push_back(FormatEventId(streams[i].second));
      absl::StatusOr<RedisReply> reply = client.Command(command);
      if (!reply.ok()) {
        if (absl::Now() - last_error_log > absl::Seconds(10)) {
          LogWarn("stream tailer read failed; retrying", {{"status", reply.status()}});
          last_error_log = absl::Now();
        }
        client.Disconnect();
        tail_client_id_.store(-1);
        absl::SleepFor(absl::Milliseconds(200));
        break;
      }
      if (reply->is_nil()) continue;  // timed out or unblocked
      absl::StatusOr<std::vector<StreamBatch>> batches = ParseStreamBatches(*reply);
      if (!batches.ok()) {
        LogError("unreadable stream entries", {{"status", batches.status()}});
        continue;
      }
      DeliverBatches(*batches);
    }
    if (!block) absl::SleepFor(absl::Milliseconds(50));
  }
}

bool RedisStreamFeed::DeliverBatches(std::vector<StreamBatch>& batches) {
  bool delivered = false;
  for (StreamBatch& batch : batches) {
    if (batch.entries.empty()) continue;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = watched_.find(batch.key);
    if (it == watched_.end()) continue;
    const EventId before = it->second.cursor;
    it->second.cursor = IdOf(batch.entries.back());
    // Copies for all but the last subscriber (usually the only one).
    std::vector<Subscription*>& subscribers = it->second.subscribers;
    for (std::size_t i = 0; i < subscribers.size(); ++i) {
      if (i + 1 == subscribers.size()) {
        subscribers[i]->Deliver(before, std::move(batch.entries));
      } else {
        subscribers[i]->Deliver(before, batch.entries);
      }
    }
    delivered = true;
  }
  return delivered;
}

void RedisStreamFeed::ClusterTailLoop() {
  RedisClient client(tail_options_);
  absl::Time last_error_log = absl::InfinitePast();
  auto log_now = [&] {
    if (absl::Now() - last_error_log < absl::Seconds(10)) return false;
    last_error_log = absl::Now();
    return true;
  };
  while (true) {
    std::vector<std::pair<std::string, EventId>> streams;
    uint64_t generation = 0;
    {
      std::unique_lock<std::mutex> lock(mu_);
      watched_changed_.wait_for(lock, std::chrono::milliseconds(500),
                                [this] { return stopping_ || !watched_.empty(); });
      if (stopping_) return;
      for (const auto& [key, watched] : watched_) streams.emplace_back(key, watched.cursor);
      generation = watched_generation_;
    }
    if (streams.empty()) continue;
    std::map<int, std::vector<size_t>> by_slot;
    for (size_t i = 0; i < streams.size(); ++i) {
      by_slot[RedisKeySlot(streams[i].first)].push_back(i);
    }
    const size_t chunk = static_cast<size_t>(std::max(1, options_.max_streams_per_read));
    std::vector<std::vector<std::string>> commands;
    for (const auto& [slot, indexes] : by_slot) {
      for (size_t begin = 0; begin < indexes.size(); begin += chunk) {
        const size_t end = std::min(indexes.size(), begin + chunk);
        std::vector<std::string> command = {"XREAD", "COUNT", absl::StrCat(options_.read_count),
                                            "STREAMS"};
        for (size_t i = begin; i < end; ++i) command.push_back(streams[indexes[i]].first);
        for (size_t i = begin; i < end; ++i) {
          command.push_back(FormatEventId(streams[indexes[i]].second));
        }
        commands.push_back(std::move(command));
      }
    }
    absl::StatusOr<std::vector<RedisReply>> replies = client.Pipeline(commands);
    if (!replies.ok()) {
      if (log_now()) LogWarn("stream tailer read failed; retrying", {{"status", replies.status()}});
      client.Disconnect();
      absl::SleepFor(absl::Milliseconds(200));
      continue;
    }
    bool delivered = false;
    for (const RedisReply& reply : *replies) {
      if (reply.is_nil()) continue;
      absl::StatusOr<std::vector<StreamBatch>> batches =
          reply.is_error()
              ? absl::StatusOr<std::vector<StreamBatch>>(RedisErrorToStatus(reply.text()))
              : ParseStreamBatches(reply);
      if (!batches.ok()) {
        if (log_now()) LogWarn("stream tailer read failed", {{"status", batches.status()}});
        continue;
      }
      delivered = DeliverBatches(*batches) || delivered;
    }
    if (!delivered) {
      std::unique_lock<std::mutex> lock(mu_);
      watched_changed_.wait_for(lock, absl::ToChronoMilliseconds(options_.cluster_poll_interval),
                                [&] { return stopping_ || watched_generation_ != generation; });
    }
  }
}

}  // namespace draughts::platform
