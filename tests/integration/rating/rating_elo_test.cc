// Elo on real PostgreSQL and Redis: results that arrive while the rating
// binary is stopped are each applied once when it starts; two replicas
// share a stream without counting a game twice; the month boundary follows
// the game's end (UTC) and an empty month the injected clock; a rated game
// against a guest leaves ratings untouched; leaderboard pages and a
// player's own rank.
#include <grpcpp/grpcpp.h>

#include <map>
#include <memory>

#include "draughts/v1/rating.grpc.pb.h"
#include "metrics_test_util.h"
#include "platform/serve.h"
#include "platform/testing/server_process.h"
#include "rating/archiver.h"
#include "rating/pg_archive_store.h"
#include "rating/rating_book.h"
#include "rating/rating_service.h"
#include "rating/redis_result_source.h"
#include "rating/results_consumer.h"
#include "rating_env.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

using platform::testing::ServerProcess;

const absl::Time kJanuary = absl::FromUnixSeconds(1767268800);  // 2026-01-01 12:00 UTC

// `count` games among `players` people, results spread over win, loss and
// draw, every fifth against a guest or a bot or unrated.
std::vector<v1::ResultRecord> MixedGames(int count, int players, const std::string& prefix) {
  std::vector<v1::ResultRecord> games;
  const v1::GameResult results[] = {v1::GAME_RESULT_WHITE_WINS, v1::GAME_RESULT_BLACK_WINS,
                                    v1::GAME_RESULT_DRAW};
  for (int i = 0; i < count; ++i) {
    const std::string white = absl::StrCat("p", i % players);
    const std::string black = absl::StrCat(
        "p", (i * 7 + 3) % players == i % players ? (i + 1) % players : (i * 7 + 3) % players);
    v1::ResultRecord game = RatedRecord(absl::StrCat(prefix, i), white, black, results[i % 3],
                                        kJanuary + absl::Seconds(i));
    if (i % 5 == 4) {
      switch (i % 3) {
        case 0:
          game.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
          game.mutable_black()->set_player_id(absl::StrCat("g_", i));
          break;
        case 1:
          game.mutable_black()->set_kind(v1::SEAT_KIND_BOT);
          game.mutable_black()->clear_player_id();
          break;
        default:
          game.set_rated(false);
      }
    }
    games.push_back(std::move(game));
  }
  return games;
}

class RatingEloTest : public RatingIntegrationTest {
 protected:
  void SetUp() override {
    RatingIntegrationTest::SetUp();
    if (HasFatalFailure()) return;
    pool_ = MakePool(4);
    ASSERT_NE(pool_, nullptr);
    RedisResultSource creator(redis_options_, Group("creator"));
    ASSERT_TRUE(creator.CreateGroup().ok());
  }

  int64_t Count(const std::string& table, const std::string& where = "true") {
    const std::string count =
        Admin(absl::StrCat("SELECT count(*) FROM ", role_, ".", table, " WHERE ", where));
    return count.empty() ? -1 : std::stoll(count);
  }

  // What the ratings must be after `games` in this order, as the rating
  // book computes them; and the rows the store holds must say the same.
  void ExpectRatingsOf(const std::vector<v1::ResultRecord>& games) {
    std::vector<const v1::ResultRecord*> pointers;
    for (const auto& game : games) pointers.push_back(&game);
    std::map<RatingKey, BookEntry> book;
    std::vector<HistoryRow> history;
    ApplyGames(pointers, EloSettings{}, book, history);
    PgArchiveStore store(pool_.get());
    int total_games = 0;
    for (const auto& [key, entry] : book) {
      auto found = store.FindRating(key.player_id, key.variant, key.month);
      ASSERT_TRUE(found.ok() && found->has_value()) << key.player_id;
      EXPECT_EQ((*found)->rating().elo(), entry.standing.elo) << key.player_id;
      EXPECT_EQ((*found)->rating().games(), entry.standing.games) << key.player_id;
      EXPECT_EQ((*found)->rating().wins(), entry.standing.wins) << key.player_id;
      EXPECT_EQ((*found)->rating().draws(), entry.standing.draws) << key.player_id;
      total_games += entry.standing.games;
    }
    EXPECT_EQ(Count("ratings"), static_cast<int64_t>(book.size()));
    EXPECT_EQ(Count("rating_history"), static_cast<int64_t>(history.size()));
    EXPECT_EQ(Count("rating_history", "elo_changed"), total_games);
  }

  std::vector<std::string> BinaryArgs(const std::string& consumer) {
    return {"--metrics-port=-1",
            "--drain=0s",
            absl::StrCat("--redis=", redis_options_.host, ":", redis_options_.port),
            "--pg=" + conninfo_,
            "--results-stream=" + stream_,
            "--consumer-group=rating",
            "--consumer-name=" + consumer,
            "--batch-size=16"};
  }

  std::unique_ptr<platform::PgPool> pool_;
};

TEST_F(RatingEloTest, ResultsArrivingWhileTheServiceIsStoppedAreEachAppliedOnceWhenItStarts) {
  const std::vector<v1::ResultRecord> games = MixedGames(100, 12, "g");
  {
    auto process = ServerProcess::Start(RATING_BINARY, BinaryArgs("elo-binary"));
    ASSERT_TRUE(process.ok()) << process.status();
    AddResult(games[0].SerializeAsString(), games[0].game_id());
    ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 1 && PendingCount() == 0; }));
    auto code = (*process)->Terminate();
    ASSERT_TRUE(code.ok() && *code == 0);
  }
  // Stopped: 99 results arrive, and the relay repeats ten of them.
  for (size_t i = 1; i < games.size(); ++i) {
    AddResult(games[i].SerializeAsString(), games[i].game_id());
    if (i % 10 == 0) AddResult(games[i].SerializeAsString(), games[i].game_id());
  }
  EXPECT_EQ(ArchivedRows(), 1);

  auto process = ServerProcess::Start(RATING_BINARY, BinaryArgs("elo-binary"));
  ASSERT_TRUE(process.ok()) << process.status();
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 100 && PendingCount() == 0; }))
      << "rows " << ArchivedRows() << ", pending " << PendingCount();
  ExpectRatingsOf(games);

  // Started once more: nothing is applied again.
  ASSERT_TRUE((*process)->Terminate().ok());
  auto again = ServerProcess::Start(RATING_BINARY, BinaryArgs("elo-binary"));
  ASSERT_TRUE(again.ok()) << again.status();
  absl::SleepFor(absl::Milliseconds(500));
  EXPECT_EQ(ArchivedRows(), 100);
  ExpectRatingsOf(games);
  auto code = (*again)->Terminate();
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, 0);
}

// One replica's consumer in this process.
struct Replica {
  Replica(platform::PgPool* pool, const platform::RedisOptions& redis, const ResultGroup& group)
      : store(pool, EloSettings{}, &metrics),
        archiver(&store, &metrics),
        source(redis, group),
        consumer(&source, &archiver, &metrics, Options()) {}
  static ResultsConsumerOptions Options() {
    ResultsConsumerOptions options;
    options.batch_size = 10;
    options.block = absl::Milliseconds(100);
    options.claim_idle = absl::Seconds(5);
    options.initial_backoff = absl::Milliseconds(20);
    options.max_backoff = absl::Milliseconds(200);
    return options;
  }

  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  ArchiveMetrics metrics{*registry};
  PgArchiveStore store;
  Archiver archiver;
  RedisResultSource source;
  ResultsConsumer consumer;
};

TEST_F(RatingEloTest, TwoReplicasOnOneStreamApplyEveryGameOnceBetweenThem) {
  // Few players, so both replicas' batches keep touching the same rows.
  const std::vector<v1::ResultRecord> games = MixedGames(120, 4, "r");
  Replica a(pool_.get(), redis_options_, Group("a"));
  Replica b(pool_.get(), redis_options_, Group("b"));
  a.consumer.Start();
  b.consumer.Start();
  for (const auto& game : games) AddResult(game.SerializeAsString(), game.game_id());
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 120 && PendingCount() == 0; }))
      << "rows " << ArchivedRows() << ", pending " << PendingCount();
  a.consumer.Stop();
  b.consumer.Stop();
  const double applied =
      platform::testing::MetricValue(*a.registry, "draughts_rating_results_applied_total",
                                     {{"elo", "changed"}}) +
      platform::testing::MetricValue(*b.registry, "draughts_rating_results_applied_total",
                                     {{"elo", "changed"}});
  EXPECT_EQ(applied, Count("rating_history", "elo_changed AND color = 'COLOR_WHITE'"));
  // The order between the replicas may differ from the stream's, so the
  // exact ratings may too; every rated game is counted exactly once.
  int64_t rated = 0;
  for (const auto& game : games) rated += ChangesElo(game) ? 1 : 0;
  EXPECT_EQ(Admin(absl::StrCat("SELECT sum(games) FROM ", role_, ".ratings")),
            absl::StrCat(2 * rated));
  EXPECT_EQ(Count("rating_history", "elo_changed"), 2 * rated);
}

TEST_F(RatingEloTest, TheGamesEndTimeDecidesTheMonthAndAnEmptyMonthIsTheClocks) {
  PgArchiveStore store(pool_.get());
  const absl::Time last_instant_of_january =
      absl::FromUnixSeconds(1769903999) + absl::Microseconds(999999);
  const absl::Time february = absl::FromUnixSeconds(1769904000);
  ASSERT_TRUE(store
                  .Record({RatedRecord("jan", "ann", "bob", v1::GAME_RESULT_WHITE_WINS,
                                       last_instant_of_january),
                           RatedRecord("feb", "ann", "bob", v1::GAME_RESULT_BLACK_WINS, february)},
                          absl::Now())
                  .ok());
  // A repeat answers the first changes, White's first.
  auto repeat = store.Record(
      {RatedRecord("feb", "ann", "bob", v1::GAME_RESULT_BLACK_WINS, february)}, absl::Now());
  ASSERT_TRUE(repeat.ok()) << repeat.status();
  EXPECT_EQ(repeat->front().kind, RecordedGame::Kind::kDuplicate);
  ASSERT_EQ(repeat->front().changes.size(), 2u);
  EXPECT_EQ(repeat->front().changes[0].color(), v1::COLOR_WHITE);
  EXPECT_EQ(repeat->front().changes[0].player_id(), "ann");
  EXPECT_EQ(repeat->front().changes[1].elo_after(), 1520);

  auto january = store.FindRating("ann", "international", "2026-01");
  auto february_rating = store.FindRating("ann", "international", "2026-02");
  ASSERT_TRUE(january.ok() && january->has_value());
  ASSERT_TRUE(february_rating.ok() && february_rating->has_value());
  EXPECT_EQ((*january)->rating().elo(), 1520);
  EXPECT_EQ((*february_rating)->rating().elo(), 1480) << "February starts at 1500 again";
  EXPECT_EQ((*february_rating)->rating().games(), 1);

  absl::Time now = february - absl::Seconds(1);
  RatingServiceOptions options;
  options.now = [&] { return now; };
  RatingServiceImpl service(&store, options);
  v1::GetRatingRequest request;
  request.set_player_id("ann");
  request.set_variant("international");
  v1::GetRatingResponse response;
  ASSERT_TRUE(service.DoGetRating(request, response).ok());
  EXPECT_EQ(response.rating().month(), "2026-01");
  EXPECT_EQ(response.rating().elo(), 1520);
  now = february;
  response.Clear();
  ASSERT_TRUE(service.DoGetRating(request, response).ok());
  EXPECT_EQ(response.rating().month(), "2026-02");
  EXPECT_EQ(response.rating().elo(), 1480);
  EXPECT_EQ(response.rank(), 2);
}

TEST_F(RatingEloTest, ARatedGameAgainstAGuestLeavesRatingsUntouched) {
  Replica replica(pool_.get(), redis_options_, Group("a"));
  replica.consumer.Start();
  const v1::ResultRecord rated = RatedRecord("g1", "ann", "bob", v1::GAME_RESULT_DRAW, kJanuary);
  AddResult(rated.SerializeAsString(), "g1");
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 1 && PendingCount() == 0; }));
  const std::string before =
      Admin(absl::StrCat("SELECT string_agg(player_id || elo || games || updated_at, ',' ORDER BY "
                         "player_id) FROM ",
                         role_, ".ratings"));

  v1::ResultRecord guest =
      RatedRecord("g2", "ann", "g_guest", v1::GAME_RESULT_WHITE_WINS, kJanuary + absl::Hours(1));
  guest.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
  ASSERT_TRUE(guest.rated());
  AddResult(guest.SerializeAsString(), "g2");
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 2 && PendingCount() == 0; }));
  replica.consumer.Stop();

  EXPECT_EQ(Admin(absl::StrCat("SELECT string_agg(player_id || elo || games || updated_at, ',' "
                               "ORDER BY player_id) FROM ",
                               role_, ".ratings")),
            before);
  EXPECT_EQ(Count("ratings", "player_id = 'g_guest'"), 0);
  EXPECT_EQ(Count("rating_history", "game_id = 'g2'"), 1) << "Ann's history has the game";
  EXPECT_EQ(Count("rating_history", "game_id = 'g2' AND NOT elo_changed"), 1);
  EXPECT_EQ(platform::testing::MetricValue(
                *replica.registry, "draughts_rating_results_applied_total", {{"elo", "unchanged"}}),
            1);
}

TEST_F(RatingEloTest, PostgreSQLLatencyAndErrorsAreMeasuredPerOperation) {
  auto registry = std::make_shared<prometheus::Registry>();
  ArchiveMetrics metrics(*registry);
  PgArchiveStore store(pool_.get(), EloSettings{}, &metrics);
  ASSERT_TRUE(
      store.Record({RatedRecord("m1", "ann", "bob", v1::GAME_RESULT_DRAW, kJanuary)}, absl::Now())
          .ok());
  ASSERT_TRUE(store.FindRating("ann", "international", "2026-01").ok());
  EXPECT_EQ(platform::testing::HistogramCount(*registry, "draughts_rating_pg_duration_seconds",
                                              {{"operation", "record"}}),
            1u);
  EXPECT_EQ(platform::testing::HistogramCount(*registry, "draughts_rating_pg_duration_seconds",
                                              {{"operation", "find_rating"}}),
            1u);

  SetLoginAllowed(false);
  const auto down =
      store.Record({RatedRecord("m2", "ann", "bob", v1::GAME_RESULT_DRAW, kJanuary)}, absl::Now());
  SetLoginAllowed(true);
  EXPECT_EQ(down.status().code(), absl::StatusCode::kUnavailable) << down.status();
  EXPECT_EQ(platform::testing::MetricValue(*registry, "draughts_rating_pg_errors_total",
                                           {{"operation", "record"}, {"code", "unavailable"}}),
            1);
  EXPECT_EQ(ArchivedRows("m2"), 0);
}

TEST_F(RatingEloTest, LeaderboardPagesAndOwnRanksFromPostgreSQL) {
  PgArchiveStore store(pool_.get());
  ASSERT_TRUE(store.Record(MixedGames(150, 23, "l"), absl::Now()).ok());
  RatingServiceOptions options;
  options.now = [] { return kJanuary; };
  RatingServiceImpl service(&store, options);

  v1::GetLeaderboardRequest request;
  request.set_variant("international");
  request.set_page_size(5);
  std::vector<v1::LeaderboardEntry> all;
  for (int page = 0; page < 10; ++page) {
    v1::GetLeaderboardResponse response;
    ASSERT_TRUE(service.DoGetLeaderboard(request, response).ok());
    all.insert(all.end(), response.entries().begin(), response.entries().end());
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
  }
  ASSERT_EQ(static_cast<int64_t>(all.size()), Count("ratings"));
  for (size_t i = 0; i < all.size(); ++i) {
    const v1::Rating& r = all[i].rating();
    EXPECT_EQ(all[i].rank(), static_cast<int>(i) + 1);
    if (i > 0) {
      const v1::Rating& p = all[i - 1].rating();
      EXPECT_TRUE(p.elo() > r.elo() || (p.elo() == r.elo() && p.games() > r.games()) ||
                  (p.elo() == r.elo() && p.games() == r.games() && p.player_id() < r.player_id()))
          << "line " << i;
    }
    // Each player's own rank agrees with the pages.
    v1::GetLeaderboardRequest own;
    own.set_variant("international");
    own.set_page_size(1);
    own.set_player_id(r.player_id());
    v1::GetLeaderboardResponse answer;
    ASSERT_TRUE(service.DoGetLeaderboard(own, answer).ok());
    EXPECT_EQ(answer.player().rank(), all[i].rank()) << r.player_id();
    EXPECT_EQ(answer.player().rating().elo(), r.elo());
  }
  // The query plans use the indexes, not a scan of the table.
  const std::string plan = Admin(absl::StrCat(
      "SET enable_seqscan = off; EXPLAIN (FORMAT JSON) SELECT * FROM ", role_,
      ".ratings WHERE variant = 'international' AND month = '2026-01' ORDER BY elo DESC, games "
      "DESC, player_id LIMIT 6"));
  EXPECT_NE(plan.find("ratings_leaderboard"), std::string::npos) << plan;
}

TEST_F(RatingEloTest, HistoryFromPostgreSQLIsNewestFirstInPages) {
  PgArchiveStore store(pool_.get());
  const std::vector<v1::ResultRecord> games = MixedGames(60, 5, "h");
  ASSERT_TRUE(store.Record(games, absl::Now()).ok());
  RatingServiceImpl service(&store, RatingServiceOptions{});
  v1::GetHistoryRequest request;
  request.set_player_id("p0");
  request.set_page_size(4);
  std::vector<v1::HistoryEntry> seen;
  for (int page = 0; page < 40; ++page) {
    v1::GetHistoryResponse response;
    ASSERT_TRUE(service.DoGetHistory(request, response).ok());
    seen.insert(seen.end(), response.entries().begin(), response.entries().end());
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
  }
  EXPECT_EQ(static_cast<int64_t>(seen.size()), Count("rating_history", "player_id = 'p0'"));
  for (size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i - 1].finished_at().seconds(), seen[i].finished_at().seconds());
  }
  ASSERT_FALSE(seen.empty());
  const v1::HistoryEntry& newest = seen.front();
  const v1::ResultRecord* game = nullptr;
  for (const auto& g : games) {
    if (g.game_id() == newest.game_id()) game = &g;
  }
  ASSERT_NE(game, nullptr);
  const bool white = game->white().player_id() == "p0";
  EXPECT_EQ(newest.color(), white ? v1::COLOR_WHITE : v1::COLOR_BLACK);
  EXPECT_EQ(newest.opponent().display_name(),
            white ? game->black().display_name() : game->white().display_name());
  EXPECT_EQ(newest.elo_changed(), ChangesElo(*game));
}

}  // namespace
}  // namespace draughts::rating::testing
