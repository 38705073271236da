// The match program end to end, against the real hub program and small
// shell-script engines that misbehave on purpose.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "rules/variant.h"

#ifndef HUB_BINARY
#error "HUB_BINARY must name the hub executable"
#endif
#ifndef MATCH_BINARY
#error "MATCH_BINARY must name the match executable"
#endif

namespace draughts::match {
namespace {

namespace fs = std::filesystem;

class MatchBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("match_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A Hub engine in sh that answers every "go" with `done_line`.
  std::string ScriptEngine(const std::string& name, const std::string& go_action) {
    const fs::path path = dir_ / (name + ".sh");
    std::ofstream(path) << "while read -r cmd rest; do\n"
                           "  case \"$cmd\" in\n"
                           "    hub) echo \"id name="
                        << name
                        << "\"; echo wait;;\n"
                           "    init) echo ready;;\n"
                           "    go) "
                        << go_action
                        << ";;\n"
                           "    quit) exit 0;;\n"
                           "  esac\n"
                           "done\n";
    return "sh " + path.string();
  }

  // Runs match with the arguments; returns stdout and sets `status`.
  std::string RunMatch(const std::string& args, int& status) {
    const std::string command = std::string(MATCH_BINARY) + " " + args + " 2>/dev/null";
    std::FILE* pipe = popen(command.c_str(), "r");
    EXPECT_NE(pipe, nullptr);
    std::string out;
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    status = pclose(pipe);
    return out;
  }

  std::vector<rules::PdnGame> ReadPdnFile(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    auto games = rules::ReadPdn(text.str());
    EXPECT_TRUE(games.ok()) << text.str();
    return games.ok() ? *games : std::vector<rules::PdnGame>{};
  }

  fs::path dir_;
};

TEST_F(MatchBinaryTest, IllegalMovesLoseEveryGame) {
  const std::string illegal = ScriptEngine("illegal", "echo \"done move=1-2\"");
  const fs::path pdn = dir_ / "games.pdn";
  int status = 0;
  const std::string out =
      RunMatch("--engine1='" + std::string(HUB_BINARY) + "' --option1=level=easy --engine2='" +
                   illegal + "' --openings-count=2 --pdn=" + pdn.string(),
               status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("+4 =0 -0 in 4 games"), std::string::npos) << out;
  EXPECT_NE(out.find("RESULT wins=4 draws=0 losses=0"), std::string::npos) << out;
  EXPECT_NE(out.find("forfeits: illegal move 1-2"), std::string::npos) << out;
  const auto games = ReadPdnFile(pdn);
  ASSERT_EQ(games.size(), 4u);
  const rules::Variant international = rules::FindVariant("international").value();
  for (std::size_t i = 0; i < games.size(); ++i) {
    const rules::PdnGame& game = games[i];
    EXPECT_EQ(*game.FindTag("GameType"), "20");
    EXPECT_EQ(game.FindTag("FEN"), nullptr) << "built-in openings start from the initial position";
    // Engine 1 has White in odd rounds and wins every game.
    const bool engine1_white = i % 2 == 0;
    EXPECT_EQ(game.result,
              engine1_white ? rules::PdnResult::kWhiteWins : rules::PdnResult::kBlackWins);
    EXPECT_TRUE(rules::ReplayPdnGame(game, international).ok());
  }
}

TEST_F(MatchBinaryTest, CrashingEngineIsRestartedAndForfeits) {
  const std::string crash = ScriptEngine("crash", "exit 3");
  int status = 0;
  const std::string out =
      RunMatch("--engine1='" + crash + "' --engine2='" + std::string(HUB_BINARY) +
                   "' --option2=level=easy --variant=english --openings-count=1",
               status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("+0 =0 -2 in 2 games"), std::string::npos) << out;
  EXPECT_NE(out.find("forfeits 2"), std::string::npos) << out;
}

TEST_F(MatchBinaryTest, EndlessLineLoses) {
  // Two megabytes without a line break: a forfeit at once, not a match
  // that eats memory or waits for the timeout.
  const std::string flood =
      ScriptEngine("flood", "head -c 2000000 /dev/zero | tr '\\0' x; sleep 100");
  int status = 0;
  const std::string out =
      RunMatch("--engine1='" + flood + "' --engine2='" + std::string(HUB_BINARY) +
                   "' --option2=level=easy --openings-count=1 --timeout=60",
               status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("+0 =0 -2 in 2 games"), std::string::npos) << out;
  EXPECT_NE(out.find("endless line"), std::string::npos) << out;
}

TEST_F(MatchBinaryTest, FenOpeningsAndMoveTimeStats) {
  const fs::path openings = dir_ / "openings.txt";
  std::ofstream(openings) << "# one opening\nW:W28,33,K46:B18,19,K5\n";
  const fs::path pdn = dir_ / "fen.pdn";
  int status = 0;
  const std::string out =
      RunMatch("--engine1='" + std::string(HUB_BINARY) + "' --engine2='" + std::string(HUB_BINARY) +
                   "' --option=level=medium --openings=" + openings.string() +
                   " --move-time=0.05 --pdn=" + pdn.string(),
               status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("in 2 games"), std::string::npos) << out;
  EXPECT_NE(out.find("move time draughts-hub 1.0 (1): avg"), std::string::npos) << out;
  const auto games = ReadPdnFile(pdn);
  ASSERT_EQ(games.size(), 2u);
  for (const rules::PdnGame& game : games) {
    ASSERT_NE(game.FindTag("FEN"), nullptr);
    EXPECT_NE(game.result, rules::PdnResult::kUnknown);
  }
}

TEST_F(MatchBinaryTest, BadArgumentsAreRefused) {
  int status = 0;
  RunMatch("--engine1=x", status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  RunMatch("--engine1=a --engine2=b --variant=chess", status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  RunMatch("--engine1=a --engine2=b --move-time=-1", status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  // An engine that does not start is an error, not a hang.
  RunMatch("--engine1=/nonexistent/engine --engine2=/nonexistent/engine", status);
  EXPECT_EQ(WEXITSTATUS(status), 1);
}

}  // namespace
}  // namespace draughts::match
