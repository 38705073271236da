// What the game service needs from storage, as interfaces: the Redis
// adapter implements them for production, in-memory fakes for unit tests.
// Both must honour the same contract, in particular the version check that
// lets only one of several racing replicas change a game.
#ifndef DRAUGHTS_GAME_STATE_GAME_STORE_H_
#define DRAUGHTS_GAME_STATE_GAME_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/events.pb.h"
#include "game_state/stored_game.pb.h"
#include "platform/message_feed.h"

namespace draughts::game_state {

// A message for a platform-wide stream, written with the change that caused
// it and forwarded once that change is committed.
struct OutboxMessage {
  enum class Kind { kBotJob, kResult, kClockUpdate, kChatNotice };
  Kind kind = Kind::kBotJob;
  std::string data;  // a serialized v1::BotJob, v1::ResultRecord or v1::ClockUpdate
};

struct NewGame {
  // state.version is the version after creation (1).
  StoredGame game;
  v1::GameEvent created;  // event_id is assigned by the store
  std::vector<OutboxMessage> outbox;
};

struct CreateResult {
  // False when a game with that id already existed; `game` is then the
  // stored one and nothing was written.
  bool created = false;
  // With state.version and state.last_event_id filled in.
  StoredGame game;
};

// One atomic step: new state, its events, its outbox messages.
struct Change {
  // The version the change was computed from.
  int64_t expected_version = 0;
  // When the game last changed before this one (state.updated_at then): a
  // store may refresh recency indexes and expiry times only when this and
  // the new updated_at are far enough apart.
  absl::Time previous_activity = absl::InfinitePast();
  // The state after the change; state.version = expected_version +
  // events.size(). state.last_event_id is set by the store.
  StoredGame game;
  // At least one; event_id empty (assigned by the store), version and ply set.
  std::vector<v1::GameEvent> events;
  std::vector<OutboxMessage> outbox;
};

// A position in a ListGames index: most recently active first.
struct ListCursor {
  int64_t activity_ms = 0;
  std::string game_id;
};

struct ListQuery {
  // Live games only, or every game still retained.
  bool include_finished = false;
  // Only games where this account or guest id holds a seat; empty = all.
  std::string player_id;
  // Start strictly after this entry; nullopt = from the most recent.
  std::optional<ListCursor> after;
  int limit = 20;
};

class GameStore {
 public:
  virtual ~GameStore() = default;

  // NOT_FOUND if the game is unknown or expired; UNAVAILABLE if the store is
  // down. state.version and state.last_event_id are filled in.
  virtual absl::StatusOr<StoredGame> Load(const std::string& game_id) = 0;

  // Creates the game unless one with this id exists (then nothing changes).
  virtual absl::StatusOr<CreateResult> Create(const std::string& game_id, const NewGame& game) = 0;

  // Applies the change if the stored version is still
  // change.expected_version: returns the event ids assigned, in order.
  // ABORTED if the game changed meanwhile (nothing written), NOT_FOUND if it
  // is gone, UNAVAILABLE if the store is down (the change may or may not
  // have been applied: re-read). On ABORTED the store may also set
  // `*current` (when not null) to the game as it is now, as Load would
  // return it, which saves the caller a round trip before deciding again.
  virtual absl::StatusOr<std::vector<std::string>> Commit(const std::string& game_id,
                                                          const Change& change,
                                                          std::optional<StoredGame>* current) = 0;

  // Commit without blocking the caller: `done` gets what Commit would
  // return (and on ABORTED maybe the game as it is now, as Commit's
  // `current`), possibly on another thread; `change` must stay alive until
  // then. By default it commits at once on the caller's thread.
  using CommitDone = std::function<void(absl::StatusOr<std::vector<std::string>> event_ids,
                                        std::optional<StoredGame> current)>;
  virtual void CommitAsync(const std::string& game_id, const Change& change, CommitDone done) {
    std::optional<StoredGame> current;
    absl::StatusOr<std::vector<std::string>> ids = Commit(game_id, change, &current);
    done(std::move(ids), std::move(current));
  }

  // Index entries after query.after, most recent activity first.
  virtual absl::StatusOr<std::vector<ListCursor>> List(const ListQuery& query) = 0;
  // The games, nullopt for ids that are gone; same order as `game_ids`.
  virtual absl::StatusOr<std::vector<std::optional<StoredGame>>> LoadMany(
      const std::vector<std::string>& game_ids) = 0;
};

// A reader positioned in one game's event stream.
using EventSubscription = platform::MessageFeed<v1::GameEvent>;

class EventFeed {
 public:
  virtual ~EventFeed() = default;
  // Reads the game's events after `after_event_id` (exclusive; empty: from
  // the first). FAILED_PRECONDITION if events after it were dropped
  // (retention), so resuming from it would miss some.
  virtual absl::StatusOr<std::unique_ptr<EventSubscription>> Subscribe(
      const std::string& game_id, const std::string& after_event_id) = 0;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_STORE_H_
