// One WatchGame stream per game for every table socket of this gateway
// process. A move used to reach a table's two players and its spectators
// through one stream each, and each socket printed the same event as JSON
// again; here the sockets of a game share one stream, and each event is
// printed once (FeedEvent::frame) and queued on every socket as it is.
//
// A socket joins the game's feed when the feed still holds what comes after
// its resume point: the feed keeps its last kKeptEvents events, so sockets
// opened at a game's start, and reconnects, join. Any other (a spectator
// arriving late with an empty resume point, which replays the whole game)
// gets a stream of its own, unshared: what it receives is the same.
//
// A feed ends with its stream (the game is over, or an error): every socket
// on it then gets `on_done` with the status and resumes as it did with a
// stream of its own (a new Watch from its last event: the first socket back
// starts the game's next feed, the others join it). The last socket leaving
// cancels the stream.
//
// Thread-safe. Each socket gets its events in order, then `on_done` once,
// on gRPC's threads or the caller's (the replay on joining): post them on,
// as StreamReactor's.
#ifndef DRAUGHTS_GATEWAY_GAME_FEEDS_H_
#define DRAUGHTS_GATEWAY_GAME_FEEDS_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/client_callback.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "draughts/v1/game.pb.h"

namespace draughts::gateway {

// An event of a game and its table-socket frame (a ServerFrame with
// `gameEvent`, as JSON), printed once for every socket.
struct FeedEvent {
  v1::GameEvent event;
  std::shared_ptr<const std::string> frame;
};

class GameFeeds {
 public:
  using EventHandler = std::function<void(std::shared_ptr<const FeedEvent>)>;
  using DoneHandler = std::function<void(const grpc::Status&)>;
  // Starts WatchGame(game_id, after) on `reactor` (stub.async()->WatchGame).
  using Starter =
      std::function<void(const v1::WatchGameRequest& request, grpc::ClientContext* context,
                         grpc::ClientReadReactor<v1::GameEvent>* reactor)>;

  static constexpr std::size_t kKeptEvents = 64;

  // One socket's place on a feed; Cancel() leaves it (nothing more is
  // handed to the socket once it returns). Safe at any time, more than
  // once; the destructor cancels.
  class Subscription {
   public:
    virtual ~Subscription() = default;
    virtual void Cancel() = 0;
  };

  explicit GameFeeds(Starter starter);
  GameFeeds(const GameFeeds&) = delete;
  GameFeeds& operator=(const GameFeeds&) = delete;
  ~GameFeeds();

  // The events of `game_id` after `after_event_id` (exclusive; empty: from
  // the first event, GameCreated), as WatchGame.
  std::shared_ptr<Subscription> Watch(const std::string& game_id, const std::string& after_event_id,
                                      EventHandler on_event, DoneHandler on_done);

  // For tests and metrics: streams started so far, and feeds shared now.
  int64_t streams_started() const;
  std::size_t shared_feeds() const;

 private:
  struct Core;
  class Feed;
  class Member;

  // Shared with the feeds, which may outlive this object by a callback.
  std::shared_ptr<Core> core_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GAME_FEEDS_H_
