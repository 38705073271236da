// Everything matchmaking keeps in Redis, in its own words: tables (a hash
// per table with a version, written by one compare-and-set script that
// also appends the table's event), the lobby index, invite codes,
// idempotency keys, password-guess counters, the quick-pair queues and the
// rematch-window schedule. The only file that knows key names.
//
// Keys (every key of one table shares the hash tag {t:<id>}, every key of
// one queue {qp:<queue>}, so each script touches one slot on Redis
// Cluster):
//   mm:{t:<id>}:table     hash: v, data (v1.Table), pw, tok, cc, start, qp
//   mm:{t:<id>}:events    stream of v1.TableEvent (field "data")
//   mm:{t:<id>}:guesses   wrong passwords for this id (existing or not)
//   mm:{qp:<queue>}:...   see lua/quick_pair.lua
//   mm:lobby              sorted set: listed tables by creation ms
//   mm:creator:<player>   sorted set: tables a player opened
//   mm:invite:<code>      table id
//   mm:idem:<method>:<player>:<key>   see lua/claim_key.lua
//   mm:guesses:<player>   wrong passwords by a player
//   mm:rematch            sorted set: FINISHED tables by window end ms
//   mm:queues             set of quick-pair queues the sweepers visit
#ifndef DRAUGHTS_MATCHMAKING_REDIS_TABLE_STORE_H_
#define DRAUGHTS_MATCHMAKING_REDIS_TABLE_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/matchmaking.pb.h"
#include "platform/redis_pool.h"
#include "platform/redis_script.h"

namespace draughts::matchmaking {

// A table as stored: the public Table (with its invite code) and what only
// this service may read.
struct StoredTable {
  int64_t version = 0;
  v1::Table table;
  std::string password_hash;  // Argon2id (crypto_pwhash_str); empty = public
  std::string sealed_tokens;  // SecretBox of the current game's PlayerTokens
  v1::Color creator_color = v1::COLOR_UNSPECIFIED;
  int pending_start = 0;    // a game number whose CreateGame may be under way
  std::string quick_queue;  // the queue of a quick-pair table; empty otherwise
};

struct TableWrite {
  v1::Table table;
  // Sent to watchers in order, each with `table` (without its invite code)
  // as it stands after the write, unless the event already carries the
  // table it shows; table_id and timestamp are filled in.
  std::vector<v1::TableEvent> events;
  // Extra hash fields the write sets (empty value: deletes).
  std::vector<std::pair<std::string, std::string>> fields;
};

inline constexpr char kFieldPassword[] = "pw";
inline constexpr char kFieldTokens[] = "tok";
inline constexpr char kFieldCreatorColor[] = "cc";
inline constexpr char kFieldPendingStart[] = "start";
inline constexpr char kFieldQuickQueue[] = "qp";

// `stored` as it stands once `fields` (a TableWrite's) are written, so a
// writer need not read back what it has just written.
void ApplyFields(const std::vector<std::pair<std::string, std::string>>& fields,
                 StoredTable& stored);

struct RedisTableStoreOptions {
  std::string prefix;  // before every key (to share a Redis)
  // How long a table lives untouched, and a closed one stays watchable.
  absl::Duration table_retention = absl::Hours(24);
  absl::Duration closed_retention = absl::Hours(1);
  int events_kept = 1000;
  absl::Duration idempotency_retention = absl::Hours(24);
};

struct KeyClaim {
  enum class Kind { kNew, kRepeat };
  Kind kind = Kind::kNew;
  std::string table_id;
  bool done = false;
};

class RedisTableStore {
 public:
  RedisTableStore(platform::RedisPool* pool, RedisTableStoreOptions options);

  const RedisTableStoreOptions& options() const { return options_; }
  std::string EventsKey(const std::string& table_id) const;
  // Pub/sub channel told the key of each table stream that grew: the
  // channel of the service's RedisStreamFeed (platform/stream_feed.h).
  std::string EventsChanged() const;

  // NOT_FOUND when unknown or expired.
  absl::StatusOr<StoredTable> Load(const std::string& table_id);
  // Several at once (nullopt for missing ones), same order.
  absl::StatusOr<std::vector<std::optional<StoredTable>>> LoadMany(
      const std::vector<std::string>& table_ids);
  // Writes if the stored version is still `expected_version` (0: creates;
  // ALREADY_EXISTS if the table exists). ABORTED when another write came
  // first, NOT_FOUND when gone. Returns the last event id ("" if none).
  absl::StatusOr<std::string> Commit(const std::string& table_id, int64_t expected_version,
                                     TableWrite write, absl::Time now);

  // Lobby index and per-creator index.
  absl::Status AddToLobby(const std::string& table_id, absl::Time created);
  absl::Status RemoveFromLobby(const std::string& table_id);
  // A closed table leaves the lobby, the rematch schedule and its
  // creator's tables, in one round trip.
  absl::Status ForgetClosedTable(const std::string& table_id, const std::string& creator_id);
  absl::StatusOr<int64_t> LobbySize();
  // Up to `count` lobby entries (table id, created ms) strictly older than
  // `before` (newest first; nullopt: from the newest).
  absl::StatusOr<std::vector<std::pair<std::string, int64_t>>> LobbyPage(
      std::optional<std::pair<int64_t, std::string>> after, int count);
  absl::Status AddCreatorTable(const std::string& player_id, const std::string& table_id,
                               absl::Time created);
  absl::StatusOr<std::vector<std::string>> CreatorTables(const std::string& player_id);
  absl::Status ForgetCreatorTable(const std::string& player_id, const std::string& table_id);

  // Invite codes: SET NX (false when the code is taken).
  absl::StatusOr<bool> ReserveInviteCode(const std::string& code, const std::string& table_id);
  // NOT_FOUND for an unknown code.
  absl::StatusOr<std::string> ResolveInviteCode(const std::string& code);

  // Idempotency keys (lua/claim_key.lua). INVALID_ARGUMENT on conflict.
  absl::StatusOr<KeyClaim> ClaimKey(const std::string& method, const std::string& player_id,
                                    const std::string& key, const std::string& fingerprint,
                                    const std::string& proposed_table_id);
  absl::Status MarkKeyDone(const std::string& method, const std::string& player_id,
                           const std::string& key);

  // Wrong-password counters: false when either limit is reached.
  absl::StatusOr<bool> GuessesAllowed(const std::string& table_id, const std::string& player_id,
                                      int per_table, int per_player);
  absl::Status CountWrongGuess(const std::string& table_id, const std::string& player_id,
                               absl::Duration window);

  // The rematch schedule.
  absl::Status ScheduleRematchEnd(const std::string& table_id, absl::Time deadline);
  absl::Status UnscheduleRematchEnd(const std::string& table_id);
  absl::StatusOr<std::vector<std::string>> ClaimDueRematchEnds(absl::Time now, absl::Duration lease,
                                                               int count);

  // Quick-pair queues (lua/quick_pair.lua).
  struct JoinOutcome {
    enum class Kind { kPaired, kQueued, kWaiting };
    Kind kind = Kind::kQueued;
    std::string table_id;  // the host table (paired) or the waiting one
    std::string pending;   // paired now: the pending member to seat
  };
  absl::StatusOr<JoinOutcome> JoinQueue(const std::string& queue, absl::Time now,
                                        const std::string& player_id, int rating,
                                        const std::string& ticket, const v1::Seat& seat,
                                        int base_window);
  struct SweepParams {
    int base = 100;
    int widen_by = 50;
    absl::Duration widen_every = absl::Seconds(5);
    int max = 800;
    absl::Duration lease = absl::Seconds(5);
    absl::Duration forget_after = absl::Hours(1);
  };
  absl::StatusOr<std::vector<std::string>> SweepQueue(const std::string& queue, absl::Time now,
                                                      const SweepParams& params);
  absl::StatusOr<bool> LeaveQueue(const std::string& queue, const std::string& player_id,
                                  const std::string& ticket);
  // The seat a ticket was queued with; NOT_FOUND once the pair is done.
  absl::StatusOr<v1::Seat> TicketSeat(const std::string& queue, const std::string& ticket);
  // The pair is seated: forget it and its tickets' seats.
  absl::Status FinishPair(const std::string& queue, const std::string& pending,
                          const std::vector<std::string>& tickets);
  absl::StatusOr<std::vector<std::string>> Queues();
  absl::StatusOr<int64_t> QueueSize(const std::string& queue);

 private:
  std::string Key(std::string_view suffix) const;
  std::string TableKey(const std::string& table_id) const;
  std::vector<std::string> QueueKeys(const std::string& queue) const;
  absl::StatusOr<platform::RedisReply> Run(const std::vector<std::string>& command);
  // `before` (plain commands) and the script in one round trip; the
  // script's reply.
  absl::StatusOr<platform::RedisReply> PipelineEval(
      const std::vector<std::vector<std::string>>& before, platform::RedisScript& script,
      const std::vector<std::string>& keys, const std::vector<std::string>& args);
  absl::StatusOr<platform::RedisReply> Eval(platform::RedisScript& script,
                                            const std::vector<std::string>& keys,
                                            const std::vector<std::string>& args);

  platform::RedisPool* pool_;
  RedisTableStoreOptions options_;
  platform::RedisScript commit_script_;
  platform::RedisScript claim_due_script_;
  platform::RedisScript claim_key_script_;
  platform::RedisScript count_guess_script_;
  platform::RedisScript quick_pair_script_;
};

}  // namespace draughts::matchmaking

#endif  // DRAUGHTS_MATCHMAKING_REDIS_TABLE_STORE_H_
