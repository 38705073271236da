#include "game_state/event_feed_redis.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/redis_streams.h"
#include "platform/status_macros.h"

namespace draughts::game_state {
namespace {

using platform::RedisReply;

// One stream entry [id, [field, value, ...]] as a GameEvent.
absl::StatusOr<v1::GameEvent> ParseEntry(const RedisReply& reply) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::StreamEntry entry, platform::ParseStreamEntry(reply));
  for (const auto& [name, value] : entry.fields) {
    if (name != "data") continue;
    v1::GameEvent event;
    if (!event.ParseFromString(value)) {
      return absl::InternalError(absl::StrCat("event ", entry.id, " does not parse"));
    }
    event.set_event_id(std::move(entry.id));
    return event;
  }
  return absl::InternalError(absl::StrCat("event ", entry.id, " has no data field"));
}

absl::StatusOr<std::vector<v1::GameEvent>> ParseEntries(const RedisReply& reply) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> entries, reply.AsArray());
  std::vector<v1::GameEvent> events;
  events.reserve(entries.size());
  for (const RedisReply& entry : entries) {
    DRAUGHTS_ASSIGN_OR_RETURN(v1::GameEvent event, ParseEntry(entry));
    events.push_back(std::move(event));
  }
  return events;
}

platform::EventId IdOf(const v1::GameEvent& event) {
  absl::StatusOr<platform::EventId> id = platform::ParseEventId(event.event_id());
  return id.ok() ? *id : platform::EventId{};
}

}  // namespace

// A watcher's position in one game's stream. Batches from the tailer are
// queued with the tailer's position before them; a batch starting past the
// watcher's position means it missed entries in between (it subscribed
// while the tailer was ahead), which it then reads itself.
class RedisEventFeed::Subscription final : public EventSubscription {
 public:
  Subscription(RedisEventFeed* feed, std::string game_id, std::optional<platform::EventId> after)
      : feed_(feed), game_id_(std::move(game_id)), cursor_(after) {}
  ~Subscription() override { feed_->Unregister(this, game_id_); }

  // From the tailer thread.
  void Deliver(platform::EventId before, const std::vector<v1::GameEvent>& events) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back({before, events});
    }
    arrived_.notify_one();
  }

  absl::StatusOr<std::vector<v1::GameEvent>> Next(absl::Duration timeout) override {
    if (!caught_up_) return CatchUp();
    std::deque<Batch> batches;
    {
      std::unique_lock<std::mutex> lock(mu_);
      arrived_.wait_for(lock, absl::ToChronoMilliseconds(timeout),
                        [this] { return !queue_.empty(); });
      batches.swap(queue_);
    }
    std::vector<v1::GameEvent> out;
    for (Batch& batch : batches) {
      if (batch.before > cursor_.value_or(platform::EventId{})) {
        // Entries between our position and this batch never reached us.
        // Reading the stream from our position covers them and every batch
        // after this one, which are dropped.
        caught_up_ = false;
        break;
      }
      for (v1::GameEvent& event : batch.events) {
        const platform::EventId id = IdOf(event);
        if (cursor_.has_value() && id <= *cursor_) continue;
        cursor_ = id;
        out.push_back(std::move(event));
      }
    }
    if (out.empty() && !caught_up_) return CatchUp();
    return out;
  }

 private:
  struct Batch {
    platform::EventId before;
    std::vector<v1::GameEvent> events;
  };

  absl::StatusOr<std::vector<v1::GameEvent>> CatchUp() {
    const int count = feed_->options_.read_count;
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<v1::GameEvent> events,
                              feed_->ReadRange(game_id_, cursor_, count));
    if (static_cast<int>(events.size()) < count) caught_up_ = true;
    if (!events.empty()) cursor_ = IdOf(events.back());
    return events;
  }

  RedisEventFeed* feed_;
  const std::string game_id_;
  // The last event handed out; nullopt before the first (from the start).
  std::optional<platform::EventId> cursor_;
  bool caught_up_ = false;
  std::mutex mu_;
  std::condition_variable arrived_;
  std::deque<Batch> queue_;
};

RedisEventFeed::RedisEventFeed(platform::RedisPool* pool, platform::RedisOptions tail_options,
                               RedisKeys keys, RedisEventFeedOptions options)
    : pool_(pool),
      tail_options_(std::move(tail_options)),
      keys_(std::move(keys)),
      options_(options) {
  // The blocking read gets its own round-trip allowance on top of the block.
  tail_options_.command_timeout = options_.block + absl::Seconds(2);
  tailer_ = std::thread([this] { TailLoop(); });
}

RedisEventFeed::~RedisEventFeed() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  watched_changed_.notify_all();
  WakeTailer();
  tailer_.join();
}

int RedisEventFeed::watched_games() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(watched_.size());
}

absl::StatusOr<std::vector<v1::GameEvent>> RedisEventFeed::ReadRange(
    const std::string& game_id, std::optional<platform::EventId> after, int count) {
  const std::string start =
      after.has_value() ? absl::StrCat("(", platform::FormatEventId(*after)) : "-";
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      RedisReply reply,
      redis->Command({"XRANGE", keys_.Events(game_id), start, "+", "COUNT", absl::StrCat(count)}));
  return ParseEntries(reply);
}

absl::StatusOr<std::unique_ptr<EventSubscription>> RedisEventFeed::Subscribe(
    const std::string& game_id, const std::string& after_event_id) {
  std::optional<platform::EventId> after;
  if (!after_event_id.empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(after, platform::ParseEventId(after_event_id));
  }
  std::vector<RedisReply> ends;
  {
    DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
    DRAUGHTS_ASSIGN_OR_RETURN(
        ends, redis->Pipeline({{"XRANGE", keys_.Events(game_id), "-", "+", "COUNT", "1"},
                               {"XREVRANGE", keys_.Events(game_id), "+", "-", "COUNT", "1"}}));
  }
  DRAUGHTS_RETURN_IF_ERROR(ends[0].ToStatus());
  DRAUGHTS_RETURN_IF_ERROR(ends[1].ToStatus());
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<v1::GameEvent> first, ParseEntries(ends[0]));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<v1::GameEvent> last, ParseEntries(ends[1]));
  if (first.empty()) {
    return absl::NotFoundError(absl::StrCat("game \"", game_id, "\" has no events (expired?)"));
  }
  // Streams are never trimmed today; this guards the day they are.
  if (!first.front().has_game_created() &&
      after.value_or(platform::EventId{}) < IdOf(first.front())) {
    return absl::FailedPreconditionError(
        "from_event_id is older than the retained events: call GetGame and resume from its "
        "last_event_id");
  }
  auto subscription = std::make_unique<Subscription>(this, game_id, after);
  Register(subscription.get(), game_id, IdOf(last.front()));
  return subscription;
}

void RedisEventFeed::Register(Subscription* subscription, const std::string& game_id,
                              platform::EventId tail_from) {
  bool new_game = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = watched_.try_emplace(game_id);
    if (inserted) it->second.cursor = tail_from;
    it->second.subscribers.push_back(subscription);
    new_game = inserted;
  }
  if (new_game) {
    watched_changed_.notify_all();
    WakeTailer();
  }
}

void RedisEventFeed::Unregister(Subscription* subscription, const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = watched_.find(game_id);
  if (it == watched_.end()) return;
  auto& subscribers = it->second.subscribers;
  subscribers.erase(std::remove(subscribers.begin(), subscribers.end(), subscription),
                    subscribers.end());
  if (subscribers.empty()) watched_.erase(it);
}

void RedisEventFeed::WakeTailer() {
  const int64_t id = tail_client_id_.load();
  if (id < 0) return;
  absl::StatusOr<platform::RedisPool::Lease> redis = pool_->Borrow();
  if (redis.ok()) (void)(*redis)->Command({"CLIENT", "UNBLOCK", absl::StrCat(id)});
}

void RedisEventFeed::TailLoop() {
  platform::RedisClient client(tail_options_);
  absl::Time last_error_log = absl::InfinitePast();
  while (true) {
    std::vector<std::pair<std::string, platform::EventId>> games;
    {
      std::unique_lock<std::mutex> lock(mu_);
      watched_changed_.wait_for(lock, std::chrono::milliseconds(500),
                                [this] { return stopping_ || !watched_.empty(); });
      if (stopping_) return;
      for (const auto& [id, watched] : watched_) games.emplace_back(id, watched.cursor);
    }
    if (games.empty()) continue;
    if (!client.connected() || tail_client_id_.load() < 0) {
      // A fresh connection has a new client id: the one wakers unblock.
      absl::StatusOr<RedisReply> id = client.Command({"CLIENT", "ID"});
      if (id.ok() && id->type() == RedisReply::Type::kInteger) {
        tail_client_id_.store(id->integer());
      }
    }
    const int chunk = std::max(1, options_.max_streams_per_read);
    const bool block = static_cast<int>(games.size()) <= chunk;
    for (std::size_t begin = 0; begin < games.size(); begin += static_cast<std::size_t>(chunk)) {
      const std::size_t end = std::min(games.size(), begin + static_cast<std::size_t>(chunk));
      std::vector<std::pair<std::string, platform::EventId>> part(games.begin() + begin,
                                                                  games.begin() + end);
      absl::StatusOr<RedisReply> reply = [&]() -> absl::StatusOr<RedisReply> {
        std::vector<std::string> command = {"XREAD", "COUNT", absl::StrCat(options_.read_count)};
        if (block) {
          command.push_back("BLOCK");
          command.push_back(absl::StrCat(absl::ToInt64Milliseconds(options_.block)));
        }
        command.push_back("STREAMS");
        for (const auto& game : part) command.push_back(keys_.Events(game.first));
        for (const auto& game : part) command.push_back(platform::FormatEventId(game.second));
        return client.Command(command);
      }();
      if (!reply.ok()) {
        if (absl::Now() - last_error_log > absl::Seconds(10)) {
          platform::LogWarn("event tailer read failed; retrying", {{"status", reply.status()}});
          last_error_log = absl::Now();
        }
        client.Disconnect();
        tail_client_id_.store(-1);
        absl::SleepFor(absl::Milliseconds(200));
        break;
      }
      if (reply->is_nil()) continue;  // timed out or unblocked
      absl::StatusOr<std::vector<RedisReply>> streams = reply->AsArray();
      if (!streams.ok()) continue;
      for (const RedisReply& stream : *streams) {
        absl::StatusOr<std::vector<RedisReply>> pair = stream.AsArray();
        if (!pair.ok() || pair->size() != 2) continue;
        absl::StatusOr<std::string> key = (*pair)[0].AsString();
        if (!key.ok()) continue;
        absl::StatusOr<std::vector<v1::GameEvent>> events = ParseEntries((*pair)[1]);
        if (!events.ok()) {
          platform::LogError("unreadable game events",
                             {{"key", *key}, {"status", events.status()}});
          continue;
        }
        if (events->empty()) continue;
        const std::string game_id = keys_.GameIdOfEventsKey(*key);
        std::lock_guard<std::mutex> lock(mu_);
        auto it = watched_.find(game_id);
        if (it == watched_.end()) continue;
        const platform::EventId before = it->second.cursor;
        it->second.cursor = IdOf(events->back());
        for (Subscription* subscriber : it->second.subscribers)
          subscriber->Deliver(before, *events);
      }
    }
    if (!block) absl::SleepFor(absl::Milliseconds(50));
  }
}

}  // namespace draughts::game_state
