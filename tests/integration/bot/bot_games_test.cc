// A game against each built-in level, played to its end through the bot
// jobs stream: game_state queues a BotJob for every bot turn, the bot
// worker answers with SubmitMove, and nothing is left pending.
#include "bot_env.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_cat.h"

namespace draughts::bot::testing {
namespace {

// English, Black (the bot) to move: three men each, so the game ends in a
// few dozen plies at most (the move limit caps it).
constexpr char kEndgame[] = "B:W21,22,30:B5,9,11";
constexpr int kMoveLimit = 30;

class BotGamesTest : public BotIntegrationTest,
                     public ::testing::WithParamInterface<v1::BotLevel> {};

TEST_P(BotGamesTest, PlaysAGameToTheEndThroughTheQueue) {
  BotProcess bot = StartBot("games");
  ASSERT_NE(bot.process, nullptr);
  const v1::CreateGameResponse game = CreateGameAgainst(BotSeat(GetParam()), kEndgame, kMoveLimit);
  ASSERT_FALSE(game.game_id().empty());

  const PlayedGame played = PlayToTheEnd(game);
  const v1::GameState& end = played.final_state;
  std::printf("%s: %d plies, %s (%s)\n", v1::BotLevel_Name(GetParam()).c_str(), end.ply(),
              v1::GameResult_Name(end.result()).c_str(),
              v1::ResultReason_Name(end.reason()).c_str());
  ASSERT_NE(end.result(), v1::GAME_RESULT_ONGOING) << "the game did not end";
  ASSERT_NE(end.result(), v1::GAME_RESULT_UNSPECIFIED) << "the game did not end";
  // Bots never resign and never agree draws: the board or the limit ended it.
  EXPECT_NE(end.reason(), v1::RESULT_REASON_RESIGNATION);
  EXPECT_NE(end.reason(), v1::RESULT_REASON_DRAW_AGREED);
  EXPECT_NE(end.reason(), v1::RESULT_REASON_TIMEOUTS);
  EXPECT_LE(end.ply(), kMoveLimit);
  EXPECT_GE(played.bot_moves, 2);
  // No bot move was automatic (played by the clock).
  EXPECT_EQ(end.black().consecutive_automatic_moves(), 0);

  // Every job was acknowledged once its move was in.
  EXPECT_TRUE(WaitFor([&] { return PendingJobs() == 0; })) << PendingJobs() << " jobs pending";
  // A move is counted once game_state has answered its submission,
  // which may follow the move's event.
  EXPECT_TRUE(WaitFor([&] {
    return ScrapeMetric(bot.metrics_port, "draughts_bot_moves_total") >= played.bot_moves;
  }));
  EXPECT_GE(ScrapeMetric(bot.metrics_port, "draughts_bot_think_seconds_count"), played.bot_moves);
}

INSTANTIATE_TEST_SUITE_P(Levels, BotGamesTest,
                         ::testing::Values(v1::BOT_LEVEL_EASY, v1::BOT_LEVEL_MEDIUM,
                                           v1::BOT_LEVEL_HARD),
                         [](const ::testing::TestParamInfo<v1::BotLevel>& info) {
                           return v1::BotLevel_Name(info.param);
                         });

class BotBehaviourTest : public BotIntegrationTest {};

TEST_F(BotBehaviourTest, EasyWaitsAHumanLookingMomentBeforeMoving) {
  BotProcess bot = StartBot("easy-pause", {"--easy-pause=500ms"});
  ASSERT_NE(bot.process, nullptr);
  const v1::CreateGameResponse game = CreateGameAgainst(BotSeat(v1::BOT_LEVEL_EASY), kEndgame, 8);
  const PlayedGame played = PlayToTheEnd(game);
  ASSERT_NE(played.final_state.result(), v1::GAME_RESULT_ONGOING);
  ASSERT_FALSE(played.reply_times.empty());
  // At least half the pause after the job was queued, which was after the
  // player's move was accepted (less a few ms of clock granularity).
  for (absl::Duration reply : played.reply_times) {
    EXPECT_GE(reply, absl::Milliseconds(230)) << "an Easy reply came too fast";
  }
}

TEST_F(BotBehaviourTest, ADrawOfferToTheBotIsRefusedAndTheBotPlaysOn) {
  BotProcess bot = StartBot("draws");
  ASSERT_NE(bot.process, nullptr);
  const v1::CreateGameResponse game =
      CreateGameAgainst(BotSeat(v1::BOT_LEVEL_MEDIUM), kEndgame, kMoveLimit);
  ASSERT_TRUE(WaitFor([&] { return GetGame(game.game_id()).ply() == 1; }));
  v1::OfferDrawRequest offer;
  offer.set_game_id(game.game_id());
  offer.set_player_token(game.white_player_token());
  offer.set_expected_ply(1);
  v1::OfferDrawResponse refused;
  grpc::ClientContext context;
  ASSERT_TRUE(game_->OfferDraw(&context, offer, &refused).ok());
  EXPECT_TRUE(refused.declined());
  const PlayedGame played = PlayToTheEnd(game);
  EXPECT_NE(played.final_state.reason(), v1::RESULT_REASON_DRAW_AGREED);
  EXPECT_GT(played.final_state.ply(), 2);
}

TEST_F(BotBehaviourTest, TheComputerStandingInForAnAbsentPlayerPlaysAtMedium) {
  BotProcess bot = StartBot("stand-in");
  ASSERT_NE(bot.process, nullptr);
  // Two people; Black (to move) leaves, and the table lets the computer play
  // for them (seed 003).
  v1::CreateGameRequest request;
  request.set_idempotency_key(absl::StrCat("stand-in-", absl::ToUnixNanos(absl::Now())));
  request.set_variant("english");
  request.set_initial_fen(kEndgame);
  request.mutable_options()->set_computer_plays_for_absent(true);
  for (v1::Seat* seat : {request.mutable_white(), request.mutable_black()}) {
    seat->set_kind(v1::SEAT_KIND_PERSON);
    seat->set_player_id(seat == request.mutable_white() ? "p-ann" : "p-bob");
    seat->set_display_name("Person");
  }
  v1::CreateGameResponse game;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(game_->CreateGame(&context, request, &game).ok());
  }
  absl::SleepFor(absl::Milliseconds(300));
  EXPECT_EQ(GetGame(game.game_id()).ply(), 0) << "a bot moved for a person who was there";
  v1::DeclareAbandonedRequest gone;
  gone.set_game_id(game.game_id());
  gone.set_color(v1::COLOR_BLACK);
  gone.set_expected_ply(0);
  v1::DeclareAbandonedResponse abandoned;
  {
    grpc::ClientContext context;
    const grpc::Status status = game_->DeclareAbandoned(&context, gone, &abandoned);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  ASSERT_TRUE(abandoned.game().black().computer_playing());
  ASSERT_TRUE(WaitFor([&] { return GetGame(game.game_id()).ply() == 1; }))
      << "the computer never played for the absent player";
  // A move is counted once game_state has answered its submission,
  // which may follow the move's event.
  EXPECT_TRUE(WaitFor([&] {
    return ScrapeMetric(bot.metrics_port, "draughts_bot_moves_total", "engine=\"medium\"") == 1;
  }));
  EXPECT_TRUE(WaitFor([&] { return PendingJobs() == 0; }));
}

}  // namespace
}  // namespace draughts::bot::testing
