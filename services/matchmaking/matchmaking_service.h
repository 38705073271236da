// draughts.v1.MatchmakingService: tables for two, from creation to each
// game's start and the rematch, over RedisTableStore. Every change to a
// table is read-decide-write with a version check (Mutate), so any number
// of replicas may act on one table; games are created through
// GameService.CreateGame with a key derived from the table and the game's
// number, so replicas racing to start one game create it once.
//
// Background work (BackgroundWorkers calls it on every replica): finished
// games from the results stream open the rematch window
// (OnGameFinished), windows that ran out close their table
// (CloseExpiredRematchWindows), and waiting quick-pair players are paired
// as their windows widen (SweepQueues).
#ifndef DRAUGHTS_MATCHMAKING_MATCHMAKING_SERVICE_H_
#define DRAUGHTS_MATCHMAKING_MATCHMAKING_SERVICE_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/events.pb.h"
#include "draughts/v1/game.grpc.pb.h"
#include "draughts/v1/matchmaking.grpc.pb.h"
#include "matchmaking/matchmaking_metrics.h"
#include "matchmaking/redis_table_store.h"
#include "matchmaking/table_password.h"
#include "matchmaking/table_rules.h"
#include "platform/blocking_pool.h"
#include "platform/grpc_client.h"
#include "platform/secret_tokens.h"
#include "platform/stream_feed.h"
#include "platform/stream_watch.h"

namespace draughts::matchmaking {

using GameClient = platform::GrpcClient<v1::GameService>;

struct MatchmakingOptions {
  // Offer 1 s per move too (tests of real deadlines only).
  bool allow_one_second = false;
  absl::Duration rematch_window = absl::Minutes(2);
  int max_open_tables = 5;
  int guesses_per_table = 10;
  int guesses_per_player = 20;
  absl::Duration guess_window = absl::Minutes(15);
  PairingWindow pairing;
  // External engine ids FillSeatsWithBots accepts.
  std::set<std::string> engines;
  // Threads that open watch streams (Redis reads), off gRPC's own.
  int watch_open_threads = 4;
  // A claimed rematch end or quick pair not finished within this is
  // claimed again by another replica.
  absl::Duration claim_lease = absl::Seconds(5);
};

struct MatchmakingDeps {
  RedisTableStore* store = nullptr;
  platform::RedisStreamFeed* feed = nullptr;
  GameClient* game = nullptr;
  const PasswordHasher* passwords = nullptr;
  const platform::SecretBox* token_box = nullptr;
  MatchmakingMetrics* metrics = nullptr;  // may be null
  std::function<absl::Time()> now;        // default absl::Now
  std::function<bool()> coin;             // default: a fair random draw
};

// WatchTable uses gRPC's callback API: a watcher holds no thread while it
// waits for events (platform/stream_watch.h); the other calls are
// synchronous.
class MatchmakingServiceImpl final : public v1::MatchmakingService::WithCallbackMethod_WatchTable<
                                         v1::MatchmakingService::Service> {
 public:
  MatchmakingServiceImpl(MatchmakingDeps deps, MatchmakingOptions options);

  grpc::Status CreateTable(grpc::ServerContext*, const v1::CreateTableRequest*,
                           v1::CreateTableResponse*) override;
  grpc::Status GetTable(grpc::ServerContext*, const v1::GetTableRequest*,
                        v1::GetTableResponse*) override;
  grpc::Status ListTables(grpc::ServerContext*, const v1::ListTablesRequest*,
                          v1::ListTablesResponse*) override;
  grpc::Status JoinTable(grpc::ServerContext*, const v1::JoinTableRequest*,
                         v1::JoinTableResponse*) override;
  grpc::Status LeaveTable(grpc::ServerContext*, const v1::LeaveTableRequest*,
                          v1::LeaveTableResponse*) override;
  grpc::Status FillSeatsWithBots(grpc::ServerContext*, const v1::FillSeatsWithBotsRequest*,
                                 v1::FillSeatsWithBotsResponse*) override;
  grpc::Status QuickPair(grpc::ServerContext*, const v1::QuickPairRequest*,
                         v1::QuickPairResponse*) override;
  grpc::Status StartGame(grpc::ServerContext*, const v1::StartGameRequest*,
                         v1::StartGameResponse*) override;
  grpc::Status VoteRematch(grpc::ServerContext*, const v1::VoteRematchRequest*,
                           v1::VoteRematchResponse*) override;
  grpc::Status GetInviteLink(grpc::ServerContext*, const v1::GetInviteLinkRequest*,
                             v1::GetInviteLinkResponse*) override;
  grpc::ServerWriteReactor<v1::TableEvent>* WatchTable(grpc::CallbackServerContext*,
                                                       const v1::WatchTableRequest*) override;

  // Background work; each is safe on any number of replicas at once.
  absl::Status OnGameFinished(const v1::ResultRecord& record);
  absl::Status CloseExpiredRematchWindows();
  absl::Status SweepQueues();
  // Samples the gauges (queue sizes, lobby size).
  void SampleGauges();

  // Watchers are told to resume elsewhere.
  void BeginShutdown();

 private:
  using Decide = std::function<absl::StatusOr<std::optional<TableWrite>>(const StoredTable&)>;

  absl::Time Now() const { return deps_.now(); }
  // Load, decide, write with the version check; again on a lost race.
  // Returns the table as stored after the write (or unchanged). `known`:
  // the table as this replica last wrote or read it, decided on first
  // without a read (a stale one only costs the lost race).
  absl::StatusOr<StoredTable> Mutate(const std::string& table_id, const Decide& decide,
                                     const StoredTable* known = nullptr);
  void AfterWrite(const StoredTable& before, const StoredTable& after);

  absl::StatusOr<v1::CreateTableResponse> DoCreateTable(const v1::CreateTableRequest& request);
  absl::StatusOr<v1::GetTableResponse> DoGetTable(const v1::GetTableRequest& request);
  absl::StatusOr<v1::ListTablesResponse> DoListTables(const v1::ListTablesRequest& request);
  absl::StatusOr<v1::JoinTableResponse> DoJoinTable(const v1::JoinTableRequest& request);
  absl::StatusOr<v1::LeaveTableResponse> DoLeaveTable(const v1::LeaveTableRequest& request);
  absl::StatusOr<v1::FillSeatsWithBotsResponse> DoFillSeats(
      const v1::FillSeatsWithBotsRequest& request);
  absl::StatusOr<v1::QuickPairResponse> DoQuickPair(const v1::QuickPairRequest& request);
  absl::StatusOr<v1::StartGameResponse> DoStartGame(const v1::StartGameRequest& request);
  absl::StatusOr<v1::VoteRematchResponse> DoVoteRematch(const v1::VoteRematchRequest& request);
  // The table's events positioned as `request` asks; null when there is
  // nothing to send (resumed from the closed table's last event).
  absl::StatusOr<std::unique_ptr<platform::MessageFeed<v1::TableEvent>>> OpenWatch(
      const v1::WatchTableRequest& request);
  static absl::Status Draining();

  // Opens a table with `table` as built (seats, status), unless a table
  // with its id exists (a retry): then returns that one. `fresh_id`: the id
  // was drawn for this request, so no table can have it yet.
  absl::StatusOr<StoredTable> OpenTable(v1::Table table, const std::string& password,
                                        v1::Color creator_color, const std::string& quick_queue,
                                        bool fresh_id = false);
  // Starts the table's next game (status READY), or returns the table if
  // it is already PLAYING. FAILED_PRECONDITION otherwise. `known`: the
  // table as just written by this replica (saves reading it again).
  absl::StatusOr<StoredTable> StartNextGame(const std::string& table_id,
                                            const StoredTable* known = nullptr);
  // The requester's password check for a join by id; counts wrong guesses.
  absl::Status CheckPassword(const std::string& table_id, const std::optional<StoredTable>& table,
                             const v1::Seat& requester, const std::string& password);
  // Seats the joiner of a quick pair at the host's table, starts the game,
  // closes the joiner's own table if it had one. `joiner`: the joiner's
  // seat when known (the requester who was just paired), else read from
  // the queue. `started`: the host table after the start, when it started.
  absl::Status ApplyPair(const std::string& queue, const std::string& pending,
                         const v1::Seat* joiner = nullptr, StoredTable* started = nullptr);
  std::string QueueName(const std::string& variant, const v1::VariantOptions& options,
                        absl::Duration time_per_move, bool rated) const;

  // What `requester` may see: the invite code and tokens only if seated.
  void Show(const StoredTable& stored, const v1::Seat* requester, v1::Table* table,
            google::protobuf::RepeatedPtrField<v1::PlayerToken>* tokens) const;

  MatchmakingDeps deps_;
  MatchmakingOptions options_;
  std::atomic<bool> shutting_down_{false};
  platform::WatchPump watch_pump_;
  // Last member: destroyed first, finishing its work while the rest lives.
  platform::BlockingPool watch_openers_;
};

}  // namespace draughts::matchmaking

#endif  // DRAUGHTS_MATCHMAKING_MATCHMAKING_SERVICE_H_
