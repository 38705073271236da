// PostgreSQL stopped while games finish: the rating service (the real
// binary, reading the results stream game_state's relay feeds) rates and
// archives every game once PostgreSQL is back, none twice, and the Elo
// tables agree with the results the players were told.
#include <gtest/gtest.h>

#include <map>

#include "../integration/game_state/integration_env.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fault_env.h"
#include "platform/redis_client.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::fault {
namespace {

using game_state::testing::PeopleGameRequest;
using game_state::testing::StartReplica;
using game_state::testing::UniquePrefix;
using platform::testing::RequiredTestEnv;
using platform::testing::ServerProcess;

class PostgresFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> redis = RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    absl::StatusOr<std::string> pg_bin = RequiredTestEnv("DRAUGHTS_TEST_PG_BIN");
    ASSERT_TRUE(redis.ok()) << redis.status();
    ASSERT_TRUE(pg_bin.ok()) << pg_bin.status();
    redis_ = *redis;
    auto pg = PrivatePostgres::Start(*pg_bin);
    ASSERT_TRUE(pg.ok()) << pg.status();
    pg_ = *std::move(pg);
    const std::string prefix = UniquePrefix();
    // game_state puts its key prefix before the stream's name too.
    results_ = prefix + "results";
    const std::string& results = results_;
    auto game_state = StartReplica(redis_, prefix, {"--results-stream=results"});
    ASSERT_TRUE(game_state.ok()) << game_state.status();
    game_state_ = *std::move(game_state);
    auto rating =
        ServerProcess::Start(RATING_BINARY, {"--metrics-port=-1", "--drain=0s", "--redis=" + redis_,
                                             "--pg=" + pg_->conninfo(),
                                             "--results-stream=" + results, "--log-level=error"});
    ASSERT_TRUE(rating.ok()) << rating.status();
    rating_ = *std::move(rating);
  }

  // A rated game between two accounts, two moves, then one side resigns:
  // returns the result its players were told.
  v1::GameResult FinishAGame(RetryingGameClient& client, int n) {
    v1::CreateGameRequest request = PeopleGameRequest("international");
    request.set_rated(true);
    const PlayedMoves played = PlayGame(client, request, 2);
    EXPECT_TRUE(played.failure.ok()) << played.failure.error_message();
    if (!played.failure.ok()) return v1::GAME_RESULT_UNSPECIFIED;
    finished_.push_back(played.game_id);
    return Resign(client, played, n % 2 == 0 ? v1::COLOR_WHITE : v1::COLOR_BLACK);
  }

  v1::GameResult Resign(RetryingGameClient& client, const PlayedMoves& played, v1::Color who) {
    v1::ResignRequest resign;
    resign.set_game_id(played.game_id);
    resign.set_player_token(who == v1::COLOR_WHITE ? played.white_token : played.black_token);
    resign.set_expected_ply(played.last.ply());
    v1::ResignResponse response;
    const grpc::Status status = client.Resign(resign, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.game().result();
  }

  int64_t Count(const std::string& sql) {
    absl::StatusOr<std::string> value = pg_->Query(sql);
    int64_t count = -1;
    if (value.ok() && !absl::SimpleAtoi(*value, &count)) count = -1;
    return count;
  }

  // Entries of the results stream delivered to the group `rating` and not
  // yet acknowledged.
  int64_t Pending() {
    platform::RedisClient redis(*platform::ParseRedisAddress(redis_));
    absl::StatusOr<platform::RedisReply> reply = redis.Command({"XPENDING", results_, "rating"});
    if (!reply.ok() || reply->type() != platform::RedisReply::Type::kArray) return -1;
    return reply->elements().at(0).integer();
  }

  std::string redis_;
  std::string results_;
  std::unique_ptr<PrivatePostgres> pg_;
  std::unique_ptr<ServerProcess> game_state_;
  std::unique_ptr<ServerProcess> rating_;
  std::vector<std::string> finished_;
};

TEST_F(PostgresFaults, GamesFinishedWhilePostgresIsDownAreRatedAndArchivedOnceAfter) {
  RetryingGameClient client({game_state_->address()}, absl::Seconds(20));
  std::map<v1::GameResult, int> told;
  const int before = EnvInt("DRAUGHTS_FAULT_GAMES_BEFORE", 3);
  for (int i = 0; i < before; ++i) ++told[FinishAGame(client, i)];
  ASSERT_TRUE(WaitFor([&] { return Count("SELECT count(*) FROM archived_games") == before; }))
      << "the games before the outage were never archived: "
      << Count("SELECT count(*) FROM archived_games") << " " << pg_->Query("SELECT 1").status();

  ASSERT_TRUE(pg_->Stop().ok());
  const absl::Time stopped = absl::Now();
  const int during = EnvInt("DRAUGHTS_FAULT_GAMES_DURING", 6);
  for (int i = 0; i < during; ++i) ++told[FinishAGame(client, before + i)];
  absl::SleepFor(stopped + absl::Milliseconds(EnvInt("DRAUGHTS_FAULT_PG_DOWN_MS", 3000)) -
                 absl::Now());
  ASSERT_TRUE(pg_->Resume().ok());

  const int total = before + during;
  ASSERT_TRUE(WaitFor([&] { return Count("SELECT count(*) FROM archived_games") == total; },
                      absl::Seconds(60)))
      << "archived " << Count("SELECT count(*) FROM archived_games") << " of " << total;
  // Each game once (the table's key would refuse a second row, so look at
  // what a double application would show: history rows and Elo counts).
  const std::string ids = absl::StrCat("'", absl::StrJoin(finished_, "','"), "'");
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM archived_games WHERE game_id IN (", ids, ")")),
            total);
  EXPECT_EQ(Count("SELECT count(*) FROM rating_history"), 2 * total);
  EXPECT_EQ(Count("SELECT coalesce(sum(games), 0) FROM ratings WHERE player_id = 'ann'"), total);
  EXPECT_EQ(Count("SELECT coalesce(sum(games), 0) FROM ratings WHERE player_id = 'ben'"), total);
  // Ann plays white in every game: her wins are the white wins her
  // clients were told.
  EXPECT_EQ(Count("SELECT coalesce(sum(wins), 0) FROM ratings WHERE player_id = 'ann'"),
            told[v1::GAME_RESULT_WHITE_WINS]);
  EXPECT_EQ(Count("SELECT coalesce(sum(losses), 0) FROM ratings WHERE player_id = 'ann'"),
            told[v1::GAME_RESULT_BLACK_WINS]);
  // Nothing is left to arrive late and twice: every entry is acknowledged.
  EXPECT_TRUE(WaitFor([&] { return Pending() == 0; })) << Pending() << " entries pending";
  EXPECT_EQ(Count("SELECT count(*) FROM rating_history"), 2 * total);
}

}  // namespace
}  // namespace draughts::fault
