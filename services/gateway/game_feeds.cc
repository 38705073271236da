#include "gateway/game_feeds.h"

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"

#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

#include "draughts/v1/web_socket.pb.h"
#include "gateway/stream_reactor.h"
#include "gateway/table_frames.h"

namespace draughts::gateway {

struct GameFeeds::Core {
  explicit Core(Starter start) : starter(std::move(start)) {}
  const Starter starter;
  absl::Mutex mu;
  absl::flat_hash_map<std::string, std::shared_ptr<Feed>> feeds ABSL_GUARDED_BY(mu);
  int64_t streams_started ABSL_GUARDED_BY(mu) = 0;
};

// One stream and the sockets on it. Events are handed to the members under
// `mu_`, so a socket joining (its replay handed over under the same lock)
// never sees a live event before the ones it replays.
class GameFeeds::Feed : public std::enable_shared_from_this<GameFeeds::Feed> {
 public:
  Feed(std::weak_ptr<Core> core, std::string game_id, std::string after_event_id, bool shared)
      : core_(std::move(core)),
        game_id_(std::move(game_id)),
        kept_after_(std::move(after_event_id)),
        shared_(shared) {}

  const std::string& game_id() const { return game_id_; }
  bool shared() const { return shared_; }

  // Adds a member if the feed still holds everything after `after_event_id`,
  // handing it those events first; 0 when it cannot.
  uint64_t Join(const std::string& after_event_id, EventHandler on_event, DoneHandler on_done) {
    absl::MutexLock lock(&mu_);
    if (done_) return 0;
    std::size_t from = 0;
    if (after_event_id != kept_after_) {
      auto it = std::find_if(kept_.begin(), kept_.end(), [&](const auto& kept) {
        return kept->event.event_id() == after_event_id;
      });
      if (it == kept_.end()) return 0;
      from = static_cast<std::size_t>(it - kept_.begin()) + 1;
    }
    for (std::size_t i = from; i < kept_.size(); ++i) on_event(kept_[i]);
    const uint64_t id = ++last_member_id_;
    members_.emplace(id, Handlers{std::move(on_event), std::move(on_done)});
    return id;
  }

  // Removes a member; true when it was the last one (the feed is then done
  // and its stream to be cancelled).
  bool Leave(uint64_t id) {
    absl::MutexLock lock(&mu_);
    if (members_.erase(id) == 0 || !members_.empty() || done_) return false;
    done_ = true;
    return true;
  }

  void Start(const Starter& starter) {
    v1::WatchGameRequest request;
    request.set_game_id(game_id_);
    {
      absl::MutexLock lock(&mu_);
      request.set_from_event_id(kept_after_);
    }
    std::weak_ptr<Feed> weak = weak_from_this();
    std::shared_ptr<Feed> self = shared_from_this();
    std::shared_ptr<StreamHandle> stream = StartStream<v1::GameEvent>(
        [&starter, &request](grpc::ClientContext* context,
                             grpc::ClientReadReactor<v1::GameEvent>* reactor) {
          starter(request, context, reactor);
        },
        [self](v1::GameEvent event) { self->OnEvent(std::move(event)); },
        [self](const grpc::Status& status) { self->OnDone(status); });
    bool cancel = false;
    {
      absl::MutexLock lock(&mu_);
      stream_ = stream;
      cancel = done_;
    }
    if (cancel) stream->Cancel();
  }

  void Cancel() {
    std::shared_ptr<StreamHandle> stream;
    {
      absl::MutexLock lock(&mu_);
      done_ = true;
      stream = stream_;
    }
    if (stream != nullptr) stream->Cancel();
  }

 private:
  struct Handlers {
    EventHandler on_event;
    DoneHandler on_done;
  };

  void OnEvent(v1::GameEvent event) {
    // Printed once here, on the stream's thread, for every member.
    v1::ServerFrame frame;
    *frame.mutable_game_event() = event;
    auto fed = std::make_shared<FeedEvent>();
    fed->frame = std::make_shared<const std::string>(FrameJson(frame));
    fed->event = std::move(event);
    std::shared_ptr<const FeedEvent> shared_event = std::move(fed);
    absl::MutexLock lock(&mu_);
    if (done_) return;
    kept_.push_back(shared_event);
    if (kept_.size() > kKeptEvents) {
      kept_after_ = kept_.front()->event.event_id();
      kept_.pop_front();
    }
    for (auto& [id, handlers] : members_) handlers.on_event(shared_event);
  }

  void OnDone(const grpc::Status& status) {
    if (shared_) {
      if (std::shared_ptr<Core> core = core_.lock()) {
        absl::MutexLock lock(&core->mu);
        auto it = core->feeds.find(game_id_);
        if (it != core->feeds.end() && it->second.get() == this) core->feeds.erase(it);
      }
    }
    absl::flat_hash_map<uint64_t, Handlers> members;
    {
      absl::MutexLock lock(&mu_);
      done_ = true;
      members.swap(members_);
      kept_.clear();
      stream_.reset();
    }
    for (auto& [id, handlers] : members) handlers.on_done(status);
  }

  const std::weak_ptr<Core> core_;
  const std::string game_id_;
  absl::Mutex mu_;
  std::string kept_after_ ABSL_GUARDED_BY(mu_);
  const bool shared_;
  std::deque<std::shared_ptr<const FeedEvent>> kept_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Handlers> members_ ABSL_GUARDED_BY(mu_);
  uint64_t last_member_id_ ABSL_GUARDED_BY(mu_) = 0;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  std::shared_ptr<StreamHandle> stream_ ABSL_GUARDED_BY(mu_);
};

class GameFeeds::Member : public GameFeeds::Subscription {
 public:
  Member(std::weak_ptr<Core> core, std::shared_ptr<Feed> feed, uint64_t id)
      : core_(std::move(core)), feed_(std::move(feed)), id_(id) {}
  ~Member() override { Cancel(); }

  void Cancel() override {
    std::shared_ptr<Feed> feed;
    {
      absl::MutexLock lock(&mu_);
      feed = std::move(feed_);
    }
    if (feed == nullptr) return;
    bool last = false;
    if (std::shared_ptr<Core> core = core_.lock(); core != nullptr && feed->shared()) {
      // Under the map's lock, so no socket joins a feed about to stop.
      absl::MutexLock lock(&core->mu);
      last = feed->Leave(id_);
      auto it = core->feeds.find(feed->game_id());
      if (last && it != core->feeds.end() && it->second == feed) core->feeds.erase(it);
    } else {
      last = feed->Leave(id_);
    }
    if (last) feed->Cancel();
  }

 private:
  const std::weak_ptr<Core> core_;
  absl::Mutex mu_;
  std::shared_ptr<Feed> feed_ ABSL_GUARDED_BY(mu_);
  const uint64_t id_;
};

GameFeeds::GameFeeds(Starter starter) : core_(std::make_shared<Core>(std::move(starter))) {}

GameFeeds::~GameFeeds() {
  std::vector<std::shared_ptr<Feed>> feeds;
  {
    absl::MutexLock lock(&core_->mu);
    for (auto& [game_id, feed] : core_->feeds) feeds.push_back(feed);
    core_->feeds.clear();
  }
  for (const auto& feed : feeds) feed->Cancel();
}

std::shared_ptr<GameFeeds::Subscription> GameFeeds::Watch(const std::string& game_id,
                                                          const std::string& after_event_id,
                                                          EventHandler on_event,
                                                          DoneHandler on_done) {
  std::shared_ptr<Feed> feed;
  uint64_t id = 0;
  {
    absl::MutexLock lock(&core_->mu);
    auto it = core_->feeds.find(game_id);
    if (it != core_->feeds.end()) {
      id = it->second->Join(after_event_id, on_event, on_done);
      if (id != 0) return std::make_shared<Member>(core_, it->second, id);
    }
    // The game's feed cannot replay what this socket needs: a stream of
    // its own. Otherwise this one starts the game's feed.
    const bool shared = it == core_->feeds.end();
    feed = std::make_shared<Feed>(core_, game_id, after_event_id, shared);
    id = feed->Join(after_event_id, std::move(on_event), std::move(on_done));
    if (shared) core_->feeds.emplace(game_id, feed);
    ++core_->streams_started;
  }
  auto member = std::make_shared<Member>(core_, feed, id);
  feed->Start(core_->starter);
  return member;
}

int64_t GameFeeds::streams_started() const {
  absl::MutexLock lock(&core_->mu);
  return core_->streams_started;
}

std::size_t GameFeeds::shared_feeds() const {
  absl::MutexLock lock(&core_->mu);
  return core_->feeds.size();
}

}  // namespace draughts::gateway
