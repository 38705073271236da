// External engines over the Hub protocol, with the project's own tools/hub
// as the external program: a seat served by it, ListEngines listing it, and
// an engine process that dies mid-game replaced by a fresh one.
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "bot_env.h"
#include "draughts/v1/bot.grpc.pb.h"

namespace draughts::bot::testing {
namespace {

constexpr char kEndgame[] = "B:W21,22,30:B5,9,11";

class HubEnginesTest : public BotIntegrationTest {
 protected:
  void SetUp() override {
    BotIntegrationTest::SetUp();
    char pattern[] = "/tmp/bot-hub-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    BotIntegrationTest::TearDown();
    if (!dir_.empty() && getenv("KEEP_HUB_DIR") == nullptr)
      (void)system(("rm -rf '" + dir_ + "'").c_str());
  }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  int Starts(const std::string& engine) {
    std::ifstream in(dir_ + "/" + engine + ".starts");
    int lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    return lines;
  }

  // A wrapper around tools/hub that records each start. With `fail_at` > 0
  // its first process fails at its fail_at-th search: it ends (its input is
  // cut, as a crash would) or, with `garbage`, answers a move that is no
  // move and then hangs; later processes run normally.
  std::string Wrapper(const std::string& engine, int fail_at, bool garbage = false) {
    std::ostringstream script;
    script << "#!/bin/sh\n"
           << "echo start >> '" << dir_ << "/" << engine << ".starts'\n";
    if (fail_at > 0) {
      const std::string failure =
          garbage ? "{ printf 'done move=99x98\\n' >&3; sleep 60; exit 1; }" : "exit 1";
      // A shell loop, not awk: mawk would wait for a full block of input.
      // Descriptor 3 is the engine's own output, past hub's pipe.
      script << "exec 3>&1\n"
             << "if [ \"$(wc -l < '" << dir_ << "/" << engine << ".starts')\" -eq 1 ]; then\n"
             << "  n=0\n"
             << "  while IFS= read -r line; do\n"
             << "    case \"$line\" in go*) n=$((n + 1)); [ $n -eq " << fail_at << " ] && "
             << failure << ";; esac\n"
             << "    printf '%s\\n' \"$line\"\n"
             << "  done | '" << HUB_BINARY << "'\n"
             << "  exit 1\n"
             << "fi\n";
    }
    script << "exec '" << HUB_BINARY << "'\n";
    return Write(engine + ".sh", script.str());
  }

  std::string dir_;
};

TEST_F(HubEnginesTest, AnExternalEngineServesASeatAndIsListed) {
  const std::string config = Write(
      "engines.conf",
      absl::StrCat("# the project's own Hub engine\n",
                   "engine id=hub-easy name=\"Hub (easy)\" command=\"/bin/sh ", Wrapper("hub", 0),
                   "\" variants=\"english international\" processes=2 move-time=300ms "
                   "param.level=easy\n"));
  BotProcess bot = StartBot("hub", {"--engines=" + config});
  ASSERT_NE(bot.process, nullptr);

  auto stub = v1::BotService::NewStub(
      grpc::CreateChannel(bot.process->address(), grpc::InsecureChannelCredentials()));
  v1::ListEnginesRequest list;
  list.set_variant("english");
  v1::ListEnginesResponse engines;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(stub->ListEngines(&context, list, &engines).ok());
  }
  ASSERT_EQ(engines.engines_size(), 4);
  EXPECT_EQ(engines.engines(0).kind(), v1::ENGINE_KIND_BUILTIN);
  EXPECT_EQ(engines.engines(3).engine_id(), "hub-easy");
  EXPECT_EQ(engines.engines(3).display_name(), "Hub (easy)");
  EXPECT_EQ(engines.engines(3).kind(), v1::ENGINE_KIND_HUB);

  const v1::CreateGameResponse game =
      CreateGameAgainst(BotSeat(v1::BOT_LEVEL_UNSPECIFIED, "hub-easy"), kEndgame, 20);
  const PlayedGame played = PlayToTheEnd(game);
  ASSERT_NE(played.final_state.result(), v1::GAME_RESULT_ONGOING);
  EXPECT_GE(Starts("hub"), 1);
  // Every bot move came from the external engine, none from the fallback.
  // A move is counted once game_state has answered its submission,
  // which may follow the move's event.
  EXPECT_TRUE(WaitFor([&] {
    return ScrapeMetric(bot.metrics_port, "draughts_bot_moves_total", "engine=\"hub-easy\"") ==
           played.bot_moves;
  }));
  EXPECT_EQ(ScrapeMetric(bot.metrics_port, "draughts_bot_engine_fallbacks_total"), 0);
  EXPECT_TRUE(WaitFor([&] { return PendingJobs() == 0; }));

  // ChooseMove with the external engine too.
  v1::ChooseMoveRequest ask;
  ask.set_variant("english");
  ask.set_fen(kEndgame);
  ask.set_engine_id("hub-easy");
  v1::ChooseMoveResponse chosen;
  grpc::ClientContext context;
  const grpc::Status status = stub->ChooseMove(&context, ask, &chosen);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_FALSE(chosen.move().empty());
}

TEST_F(HubEnginesTest, AnEngineThatDiesMidGameIsReplaced) {
  const std::string config = Write(
      "engines.conf", absl::StrCat("engine id=crashy command=\"/bin/sh ", Wrapper("crashy", 3),
                                   "\" variants=english move-time=300ms param.level=easy\n"));
  BotProcess bot = StartBot("crashy", {"--engines=" + config});
  ASSERT_NE(bot.process, nullptr);
  const v1::CreateGameResponse game =
      CreateGameAgainst(BotSeat(v1::BOT_LEVEL_EASY, "crashy"), kEndgame, 20);
  const PlayedGame played = PlayToTheEnd(game);
  ASSERT_NE(played.final_state.result(), v1::GAME_RESULT_ONGOING);
  ASSERT_GE(played.bot_moves, 4) << "the game ended before the engine died";
  EXPECT_EQ(Starts("crashy"), 2) << "the dead engine was not replaced exactly once";
  EXPECT_EQ(ScrapeMetric(bot.metrics_port, "draughts_bot_engine_restarts_total"), 1);
  // The move the dead process owed was asked again of the new one.
  // A move is counted once game_state has answered its submission,
  // which may follow the move's event.
  EXPECT_TRUE(WaitFor([&] {
    return ScrapeMetric(bot.metrics_port, "draughts_bot_moves_total", "engine=\"crashy\"") ==
           played.bot_moves;
  }));
  EXPECT_TRUE(WaitFor([&] { return PendingJobs() == 0; }));
}

TEST_F(HubEnginesTest, AnEngineThatAnswersGarbageIsReplaced) {
  const std::string config =
      Write("engines.conf", absl::StrCat("engine id=babbler command=\"/bin/sh ",
                                         Wrapper("babbler", 3, /*garbage=*/true),
                                         "\" variants=english move-time=300ms param.level=easy\n"));
  BotProcess bot = StartBot("babbler", {"--engines=" + config});
  ASSERT_NE(bot.process, nullptr);
  const v1::CreateGameResponse game =
      CreateGameAgainst(BotSeat(v1::BOT_LEVEL_EASY, "babbler"), kEndgame, 20);
  const PlayedGame played = PlayToTheEnd(game);
  ASSERT_NE(played.final_state.result(), v1::GAME_RESULT_ONGOING);
  ASSERT_GE(played.bot_moves, 4) << "the game ended before the engine answered garbage";
  EXPECT_EQ(Starts("babbler"), 2) << "the babbling engine was not replaced exactly once";
  EXPECT_EQ(ScrapeMetric(bot.metrics_port, "draughts_bot_engine_restarts_total"), 1);
  // The garbage was never played: every bot move came from a sane process.
  // A move is counted once game_state has answered its submission,
  // which may follow the move's event.
  EXPECT_TRUE(WaitFor([&] {
    return ScrapeMetric(bot.metrics_port, "draughts_bot_moves_total", "engine=\"babbler\"") ==
           played.bot_moves;
  }));
  EXPECT_EQ(ScrapeMetric(bot.metrics_port, "draughts_bot_engine_fallbacks_total"), 0);
  EXPECT_TRUE(WaitFor([&] { return PendingJobs() == 0; }));
}

}  // namespace
}  // namespace draughts::bot::testing
