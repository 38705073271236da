// Quick pairing on real Redis with two replicas: close ratings pair at
// once, distant ones only once their windows have widened (shortened by
// flags), guests with unrated players, every player exactly once.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "matchmaking_env.h"

namespace draughts::matchmaking::testing {
namespace {

v1::QuickPairRequest Ask(const v1::Seat& who, int rating, bool rated = true) {
  v1::QuickPairRequest request;
  request.set_idempotency_key(Key());
  *request.mutable_requester() = who;
  request.set_variant("international");
  request.set_rated(rated);
  request.set_rating(rating);
  return request;
}

grpc::Status Pair(v1::MatchmakingService::Stub& stub, const v1::QuickPairRequest& request,
                  v1::QuickPairResponse* response) {
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  return stub.QuickPair(&context, request, response);
}

// Widening: 100 at once, +100 every 2 s: 400 apart pair after about 6 s.
const std::vector<std::string> kFlags = {"--pair-window=100", "--pair-widen-by=100",
                                         "--pair-widen-every=2s", "--pair-max-window=1000"};

TEST(MatchmakingQuickPair, CloseRatingsPairAtOnce) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(2, kFlags);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  const v1::Seat a = Person("qa"), b = Person("qb");
  v1::QuickPairResponse first, second;
  ASSERT_TRUE(Pair((*cluster)->mm(0), Ask(a, 1500), &first).ok());
  EXPECT_TRUE(first.created());
  EXPECT_EQ(first.table().status(), v1::TABLE_STATUS_WAITING);
  grpc::Status status = Pair((*cluster)->mm(1), Ask(b, 1560), &second);
  ASSERT_TRUE(status.ok()) << Text(status);
  EXPECT_FALSE(second.created());
  EXPECT_EQ(second.table().table_id(), first.table().table_id());
  EXPECT_EQ(second.table().status(), v1::TABLE_STATUS_PLAYING);
  ASSERT_EQ(second.your_tokens_size(), 1);
  absl::StatusOr<v1::GetTableResponse> waiting =
      WaitForTable((*cluster)->mm(0), first.table().table_id(), a,
                   [](const v1::GetTableResponse& r) { return r.your_tokens_size() == 1; });
  ASSERT_TRUE(waiting.ok()) << waiting.status();
  EXPECT_NE(waiting->your_tokens(0).color(), second.your_tokens(0).color());
  EXPECT_TRUE(waiting->table().rated());
}

// The joiner's answer is built from what its replica wrote (no read
// back): it must equal the table as stored, and watchers must see the
// seat taken before the colours, which come with the game.
TEST(MatchmakingQuickPair, AnswerMatchesTheStoredTableAndEventsComeInOrder) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(2, kFlags);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  const v1::Seat a = Person("qe_a"), b = Person("qe_b");
  v1::QuickPairResponse first, second;
  ASSERT_TRUE(Pair((*cluster)->mm(0), Ask(a, 1500), &first).ok());
  grpc::Status status = Pair((*cluster)->mm(1), Ask(b, 1520), &second);
  ASSERT_TRUE(status.ok()) << Text(status);
  const std::string table_id = first.table().table_id();
  ASSERT_EQ(second.table().table_id(), table_id);
  ASSERT_EQ(second.your_tokens_size(), 1);

  absl::StatusOr<v1::GetTableResponse> stored = WaitForTable(
      (*cluster)->mm(0), table_id, b, [](const v1::GetTableResponse&) { return true; });
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->table().SerializeAsString(), second.table().SerializeAsString())
      << "answered:\n"
      << second.table().DebugString() << "stored:\n"
      << stored->table().DebugString();
  ASSERT_EQ(stored->your_tokens_size(), 1);
  EXPECT_EQ(stored->your_tokens(0).player_token(), second.your_tokens(0).player_token());
  EXPECT_FALSE(second.table().invite_code().empty()) << "b is seated: b sees the invite code";

  // Both leave, so the table closes and its event stream ends.
  ASSERT_TRUE(Leave((*cluster)->mm(0), a, table_id).ok());
  ASSERT_TRUE(Leave((*cluster)->mm(1), b, table_id).ok());
  grpc::Status end;
  std::vector<v1::TableEvent> events =
      WatchAll((*cluster)->mm(1), table_id, absl::Seconds(20), &end);
  ASSERT_TRUE(end.ok()) << Text(end);
  ASSERT_GE(events.size(), 5u);
  EXPECT_TRUE(events[0].has_table_opened());
  EXPECT_EQ(events[0].table().status(), v1::TABLE_STATUS_WAITING);
  ASSERT_TRUE(events[1].has_seat_taken());
  EXPECT_EQ(events[1].seat_taken().occupant().player_id(), a.player_id());
  const v1::TableEvent& taken = events[2];
  ASSERT_TRUE(taken.has_seat_taken());
  EXPECT_EQ(taken.seat_taken().index(), 1);
  EXPECT_EQ(taken.seat_taken().occupant().player_id(), b.player_id());
  EXPECT_EQ(taken.table().status(), v1::TABLE_STATUS_READY);
  EXPECT_EQ(taken.table().seats(1).occupant().player_id(), b.player_id());
  for (const v1::TableSeat& seat : taken.table().seats()) {
    EXPECT_EQ(seat.color(), v1::COLOR_UNSPECIFIED) << "no colours before the first game";
  }
  const v1::TableEvent& started = events[3];
  ASSERT_TRUE(started.has_game_started());
  EXPECT_EQ(started.game_started().game_id(), second.table().game_id());
  EXPECT_EQ(started.table().status(), v1::TABLE_STATUS_PLAYING);
  EXPECT_NE(started.table().seats(0).color(), v1::COLOR_UNSPECIFIED);
  EXPECT_NE(started.table().seats(0).color(), started.table().seats(1).color());
  EXPECT_TRUE(events.back().has_table_closed());
  for (const v1::TableEvent& event : events) {
    EXPECT_TRUE(event.table().invite_code().empty()) << "no secret in an event";
  }
}

TEST(MatchmakingQuickPair, DistantRatingsWaitUntilTheWindowWidens) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(2, kFlags);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  const v1::Seat low = Person("low"), high = Person("high");
  const absl::Time asked = absl::Now();
  v1::QuickPairResponse first, second;
  ASSERT_TRUE(Pair((*cluster)->mm(0), Ask(low, 1500), &first).ok());
  ASSERT_TRUE(Pair((*cluster)->mm(1), Ask(high, 1900), &second).ok());
  EXPECT_TRUE(first.created());
  EXPECT_TRUE(second.created()) << "400 apart: not paired at once";
  EXPECT_NE(first.table().table_id(), second.table().table_id());
  // Windows reach 400 after 3 widenings (6 s): still waiting well before.
  absl::SleepFor(absl::Seconds(2));
  v1::GetTableRequest get;
  get.set_table_id(first.table().table_id());
  v1::GetTableResponse now;
  grpc::ClientContext context;
  ASSERT_TRUE((*cluster)->mm(0).GetTable(&context, get, &now).ok());
  if (absl::Now() - asked < absl::Seconds(5)) {
    EXPECT_EQ(now.table().status(), v1::TABLE_STATUS_WAITING) << "paired before the window widened";
  }
  // Then the older one hosts; the other's table closes pointing there.
  absl::StatusOr<v1::GetTableResponse> host = WaitForTable(
      (*cluster)->mm(1), first.table().table_id(), low,
      [](const v1::GetTableResponse& r) { return r.table().status() == v1::TABLE_STATUS_PLAYING; });
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_GE(absl::Now() - asked, absl::Seconds(5)) << "paired too early";
  EXPECT_EQ(host->table().seats(1).occupant().player_id(), "high");
  grpc::Status end;
  std::vector<v1::TableEvent> events =
      WatchAll((*cluster)->mm(0), second.table().table_id(), absl::Seconds(10), &end);
  ASSERT_TRUE(end.ok()) << Text(end);
  ASSERT_FALSE(events.empty());
  ASSERT_TRUE(events.back().has_table_closed());
  EXPECT_EQ(events.back().table_closed().reason(), v1::TableClosed::REASON_PAIRED);
  EXPECT_EQ(events.back().table_closed().paired_table_id(), first.table().table_id());
  absl::StatusOr<v1::GetTableResponse> joiner =
      WaitForTable((*cluster)->mm(1), first.table().table_id(), high,
                   [](const v1::GetTableResponse& r) { return r.your_tokens_size() == 1; });
  ASSERT_TRUE(joiner.ok()) << joiner.status();
}

TEST(MatchmakingQuickPair, GuestsMeetUnratedPlayersOnly) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(1, kFlags);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::MatchmakingService::Stub& mm = (*cluster)->mm();
  v1::QuickPairResponse rated, guest, casual;
  grpc::Status refused = Pair(mm, Ask(Guest("g_guest1"), 0, true), &guest);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_TRUE(Pair(mm, Ask(Person("ranked"), 1500, true), &rated).ok());
  ASSERT_TRUE(Pair(mm, Ask(Guest("g_guest1"), 0, false), &guest).ok());
  EXPECT_TRUE(guest.created()) << "a guest never meets a rated request";
  ASSERT_TRUE(Pair(mm, Ask(Person("casual"), 1480, false), &casual).ok());
  EXPECT_FALSE(casual.created());
  EXPECT_EQ(casual.table().table_id(), guest.table().table_id());
  EXPECT_FALSE(casual.table().rated());
}

TEST(MatchmakingQuickPair, ManyPlayersOnTwoReplicasPairExactlyOnce) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(2, kFlags);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  constexpr int kPlayers = 24;
  std::mutex mu;
  std::map<std::string, std::string> table_of;  // player -> table returned
  std::vector<std::thread> threads;
  for (int i = 0; i < kPlayers; ++i) {
    threads.emplace_back([&, i] {
      const std::string id = absl::StrCat("many", i);
      v1::QuickPairResponse response;
      grpc::Status status =
          Pair((*cluster)->mm(i % 2), Ask(Person(id), 1500 + (i % 5) * 10), &response);
      EXPECT_TRUE(status.ok()) << Text(status);
      std::lock_guard<std::mutex> lock(mu);
      table_of[id] = response.table().table_id();
    });
  }
  for (std::thread& thread : threads) thread.join();
  // Every player ends up seated at exactly one playing table, with one
  // opponent, and the tables' seats hold each player once.
  std::map<std::string, int> seated;
  std::set<std::string> games;
  for (const auto& [player, table_id] : table_of) {
    absl::StatusOr<v1::GetTableResponse> table = WaitForTable(
        (*cluster)->mm(0), table_id, Person(player),
        [](const v1::GetTableResponse& r) {
          return r.table().status() == v1::TABLE_STATUS_PLAYING || r.your_tokens_size() > 0;
        },
        absl::Seconds(20));
    if (!table.ok()) {
      // A waiting table closed by a pairing points at the player's table.
      std::vector<v1::TableEvent> events = WatchAll((*cluster)->mm(0), table_id, absl::Seconds(5));
      ASSERT_FALSE(events.empty()) << player;
      ASSERT_TRUE(events.back().has_table_closed()) << player;
      table = WaitForTable((*cluster)->mm(0), events.back().table_closed().paired_table_id(),
                           Person(player), [](const v1::GetTableResponse& r) {
                             return r.table().status() == v1::TABLE_STATUS_PLAYING;
                           });
      ASSERT_TRUE(table.ok()) << player << ": " << table.status();
    }
    EXPECT_EQ(table->your_tokens_size(), 1) << player;
    games.insert(table->table().game_id());
    for (const v1::TableSeat& seat : table->table().seats()) {
      if (seat.occupant().player_id() == player) ++seated[player];
    }
  }
  EXPECT_EQ(seated.size(), static_cast<std::size_t>(kPlayers));
  for (const auto& [player, count] : seated) EXPECT_EQ(count, 1) << player;
  EXPECT_EQ(games.size(), static_cast<std::size_t>(kPlayers / 2));
}

}  // namespace
}  // namespace draughts::matchmaking::testing
