// One server stream per watched thing (a game, a table, a chat room) for
// every table socket of this gateway process. A move used to reach a
// table's two players and its spectators through one stream each, from
// each backend, and each socket printed the same event as JSON again; here
// the sockets share one stream, and each event is printed once
// (Fed::frame) and queued on every socket as it is.
//
// A socket joins the feed when the feed still holds what comes after its
// resume point: the feed keeps its last kKeptEvents events, so sockets
// opened at a game's start, and reconnects, join. Any other (a spectator
// arriving late with an empty resume point, which replays everything) gets
// a stream of its own, unshared: what it receives is the same.
//
// A feed ends with its stream (the game is over, or an error): every socket
// on it then gets `on_done` with the status and resumes as it did with a
// stream of its own (a new Watch from its last event: the first socket back
// starts the next feed, the others join it). The last socket leaving
// cancels the stream.
//
// Thread-safe. Each socket gets its events in order, then `on_done` once,
// on gRPC's threads or the caller's (the replay on joining): post them on,
// as StreamReactor's. Instances: game_feeds.h.
#ifndef DRAUGHTS_GATEWAY_SHARED_FEEDS_H_
#define DRAUGHTS_GATEWAY_SHARED_FEEDS_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/client_callback.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "gateway/stream_reactor.h"

namespace draughts::gateway {

template <typename Request, typename Event>
class SharedFeeds {
 public:
  // An event and its frame for every socket (null when the sockets build
  // their own frames from it).
  struct Fed {
    Event event;
    std::shared_ptr<const std::string> frame;
  };
  using EventHandler = std::function<void(std::shared_ptr<const Fed>)>;
  using DoneHandler = std::function<void(const grpc::Status&)>;
  // Starts the call for `request` on `reactor` (stub.async()->Watch...).
  using Starter = std::function<void(const Request& request, grpc::ClientContext* context,
                                     grpc::ClientReadReactor<Event>* reactor)>;
  // What a feed needs to know of its kind of stream.
  struct Kind {
    // The request of `key`'s stream after `after_id` (empty: from the start).
    std::function<Request(const std::string& key, const std::string& after_id)> request;
    std::function<std::string(const Event&)> id_of;
    // May be null: no shared frame.
    std::function<std::shared_ptr<const std::string>(const Event&)> frame_of;
  };

  static constexpr std::size_t kKeptEvents = 64;

  // One socket's place on a feed; Cancel() leaves it (nothing more is
  // handed to the socket once it returns). Safe at any time, more than
  // once; the destructor cancels.
  class Subscription {
   public:
    virtual ~Subscription() = default;
    virtual void Cancel() = 0;
  };

  SharedFeeds(Starter starter, Kind kind)
      : core_(std::make_shared<Core>(std::move(starter), std::move(kind))) {}
  SharedFeeds(const SharedFeeds&) = delete;
  SharedFeeds& operator=(const SharedFeeds&) = delete;
  ~SharedFeeds() {
    std::vector<std::shared_ptr<Feed>> feeds;
    {
      absl::MutexLock lock(&core_->mu);
      for (auto& [key, feed] : core_->feeds) feeds.push_back(feed);
      core_->feeds.clear();
    }
    for (const auto& feed : feeds) feed->Cancel();
  }

  // The events of `key` after `after_id` (exclusive; empty: from the first).
  std::shared_ptr<Subscription> Watch(const std::string& key, const std::string& after_id,
                                      EventHandler on_event, DoneHandler on_done) {
    std::shared_ptr<Feed> feed;
    uint64_t id = 0;
    {
      absl::MutexLock lock(&core_->mu);
      auto it = core_->feeds.find(key);
      if (it != core_->feeds.end()) {
        id = it->second->Join(after_id, on_event, on_done);
        if (id != 0) return std::make_shared<Member>(core_, it->second, id);
      }
      // The feed cannot replay what this socket needs: a stream of its own.
      // Otherwise this socket starts the feed.
      const bool shared = it == core_->feeds.end();
      feed = std::make_shared<Feed>(core_, key, after_id, shared);
      id = feed->Join(after_id, std::move(on_event), std::move(on_done));
      if (shared) core_->feeds.emplace(key, feed);
      ++core_->streams_started;
    }
    auto member = std::make_shared<Member>(core_, feed, id);
    feed->Start();
    return member;
  }

  // For tests and metrics: streams started so far, and feeds shared now.
  int64_t streams_started() const {
    absl::MutexLock lock(&core_->mu);
    return core_->streams_started;
  }
  std::size_t shared_feeds() const {
    absl::MutexLock lock(&core_->mu);
    return core_->feeds.size();
  }

 private:
  class Feed;

  // Shared with the feeds, which may outlive this object by a callback.
  struct Core {
    Core(Starter start, Kind kinds) : starter(std::move(start)), kind(std::move(kinds)) {}
    const Starter starter;
    const Kind kind;
    absl::Mutex mu;
    absl::flat_hash_map<std::string, std::shared_ptr<Feed>> feeds ABSL_GUARDED_BY(mu);
    int64_t streams_started ABSL_GUARDED_BY(mu) = 0;
  };

  // One stream and the sockets on it. Events are handed to the members
  // under `mu_`, so a socket joining (its replay handed over under the same
  // lock) never sees a live event before the ones it replays.
  class Feed : public std::enable_shared_from_this<Feed> {
   public:
    Feed(std::weak_ptr<Core> core, std::string key, std::string after_id, bool shared)
        : core_(std::move(core)),
          key_(std::move(key)),
          shared_(shared),
          kept_after_(std::move(after_id)) {}

    const std::string& key() const { return key_; }
    bool shared() const { return shared_; }

    // Adds a member if the feed still holds everything after `after_id`,
    // handing it those events first; 0 when it cannot.
    uint64_t Join(const std::string& after_id, EventHandler on_event, DoneHandler on_done) {
      absl::MutexLock lock(&mu_);
      if (done_) return 0;
      std::size_t from = 0;
      if (after_id != kept_after_) {
        auto it = std::find_if(kept_.begin(), kept_.end(),
                               [&](const KeptEvent& kept) { return kept.id == after_id; });
        if (it == kept_.end()) return 0;
        from = static_cast<std::size_t>(it - kept_.begin()) + 1;
      }
      for (std::size_t i = from; i < kept_.size(); ++i) on_event(kept_[i].fed);
      const uint64_t id = ++last_member_id_;
      members_.emplace(id, Handlers{std::move(on_event), std::move(on_done)});
      return id;
    }

    // Removes a member; true when it was the last one (the feed is then
    // done and its stream to be cancelled).
    bool Leave(uint64_t id) {
      absl::MutexLock lock(&mu_);
      if (members_.erase(id) == 0 || !members_.empty() || done_) return false;
      done_ = true;
      return true;
    }

    void Start() {
      std::shared_ptr<Core> core = core_.lock();
      if (core == nullptr) return;
      Request request;
      {
        absl::MutexLock lock(&mu_);
        request = core->kind.request(key_, kept_after_);
      }
      std::shared_ptr<Feed> self = this->shared_from_this();
      const Starter& starter = core->starter;
      std::shared_ptr<StreamHandle> stream = StartStream<Event>(
          [&starter, &request](grpc::ClientContext* context,
                               grpc::ClientReadReactor<Event>* reactor) {
            starter(request, context, reactor);
          },
          [self, core](Event event) { self->OnEvent(*core, std::move(event)); },
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
    struct KeptEvent {
      std::string id;
      std::shared_ptr<const Fed> fed;
    };

    void OnEvent(const Core& core, Event event) {
      // Printed once here, on the stream's thread, for every member.
      auto fed = std::make_shared<Fed>();
      if (core.kind.frame_of) fed->frame = core.kind.frame_of(event);
      KeptEvent kept{core.kind.id_of(event), nullptr};
      fed->event = std::move(event);
      kept.fed = std::move(fed);
      absl::MutexLock lock(&mu_);
      if (done_) return;
      for (auto& [id, handlers] : members_) handlers.on_event(kept.fed);
      kept_.push_back(std::move(kept));
      if (kept_.size() > kKeptEvents) {
        kept_after_ = std::move(kept_.front().id);
        kept_.pop_front();
      }
    }

    void OnDone(const grpc::Status& status) {
      if (shared_) {
        if (std::shared_ptr<Core> core = core_.lock()) {
          absl::MutexLock lock(&core->mu);
          auto it = core->feeds.find(key_);
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
    const std::string key_;
    const bool shared_;
    absl::Mutex mu_;
    std::string kept_after_ ABSL_GUARDED_BY(mu_);
    std::deque<KeptEvent> kept_ ABSL_GUARDED_BY(mu_);
    absl::flat_hash_map<uint64_t, Handlers> members_ ABSL_GUARDED_BY(mu_);
    uint64_t last_member_id_ ABSL_GUARDED_BY(mu_) = 0;
    bool done_ ABSL_GUARDED_BY(mu_) = false;
    std::shared_ptr<StreamHandle> stream_ ABSL_GUARDED_BY(mu_);
  };

  class Member : public Subscription {
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
        auto it = core->feeds.find(feed->key());
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

  std::shared_ptr<Core> core_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_SHARED_FEEDS_H_
