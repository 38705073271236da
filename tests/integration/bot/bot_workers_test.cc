// The pool of bot workers as operators see it: a worker killed with SIGKILL
// while thinking has its job finished by another (claimed after
// --claim-idle), a worker stopped with SIGTERM finishes its move before
// exiting, and health checks are answered while a worker thinks.
#include "bot_env.h"
#include "health_client.h"

namespace draughts::bot::testing {
namespace {

using platform::testing::ServingStatusOf;

constexpr char kEndgame[] = "B:W21,22,30:B5,9,11";

class BotWorkersTest : public BotIntegrationTest {};

TEST_F(BotWorkersTest, AJobOfAKilledWorkerIsFinishedByAnother) {
  // The first worker thinks 20 s about each Hard move: it is killed with
  // the job in hand.
  BotProcess slow = StartBot("slow", {"--hard-move-time=20s"});
  ASSERT_NE(slow.process, nullptr);
  const v1::CreateGameResponse game = CreateGameAgainst(BotSeat(v1::BOT_LEVEL_HARD), kEndgame, 10);
  ASSERT_TRUE(WaitFor([&] { return PendingJobs("slow") == 1; }))
      << "the first worker never took the job";
  // Thinking happens off the gRPC threads: health is answered meanwhile.
  EXPECT_EQ(ServingStatusOf(slow.process->port()), grpc::health::v1::HealthCheckResponse::SERVING);
  slow.process->Kill();
  EXPECT_EQ(GetGame(game.game_id()).ply(), 0);

  BotProcess rescuer = StartBot("rescuer");
  ASSERT_NE(rescuer.process, nullptr);
  ASSERT_TRUE(WaitFor([&] { return GetGame(game.game_id()).ply() == 1; }))
      << "the job of the killed worker was never played";
  EXPECT_TRUE(WaitFor([&] { return PendingJobs() == 0; }));
  EXPECT_GE(ScrapeMetric(rescuer.metrics_port, "draughts_bot_jobs_claimed_total"), 1);

  // Played once: the game goes on normally from there.
  const PlayedGame played = PlayToTheEnd(game);
  EXPECT_NE(played.final_state.result(), v1::GAME_RESULT_ONGOING);
  EXPECT_TRUE(WaitFor([&] { return PendingJobs() == 0; }));
}

TEST_F(BotWorkersTest, SigtermFinishesTheMoveBeingThoughtAbout) {
  // 4 s of thinking, cut after a 1 s grace at SIGTERM: the move is still
  // submitted before the worker exits.
  BotProcess bot = StartBot("stopping", {"--hard-move-time=4s", "--stop-grace=1s"});
  ASSERT_NE(bot.process, nullptr);
  const v1::CreateGameResponse game = CreateGameAgainst(BotSeat(v1::BOT_LEVEL_HARD), kEndgame, 10);
  ASSERT_TRUE(WaitFor([&] { return PendingJobs("stopping") == 1; }));
  // Delivered is not yet started: a job still queued in the process at
  // SIGTERM is handed back instead (another test's case).
  ASSERT_TRUE(
      WaitFor([&] { return ScrapeMetric(bot.metrics_port, "draughts_bot_jobs_working") == 1; }));
  const absl::Time stop = absl::Now();
  absl::StatusOr<int> code = bot.process->Terminate(absl::Seconds(20));
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, 0);
  EXPECT_LT(absl::Now() - stop, absl::Seconds(8)) << "the stop took too long";
  EXPECT_EQ(GetGame(game.game_id()).ply(), 1) << "the move in progress was not submitted";
  EXPECT_EQ(PendingJobs(), 0);
}

}  // namespace
}  // namespace draughts::bot::testing
