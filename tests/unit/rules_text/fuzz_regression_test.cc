// Inputs that once troubled the parsers (tests/fuzz finds them; each one
// found becomes a case here) and hostile shapes chosen by hand: every parser
// must answer with a value or an error inside the input, never crash.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rules/fen.h"
#include "rules/move_text.h"
#include "rules/pdn.h"

namespace draughts::rules {
namespace {

std::vector<std::string> HostileInputs() {
  std::vector<std::string> inputs = {
      std::string("W:W1\0:B2", 8),
      std::string(1, '\xff'),
      "[",
      "[Event \"\\",
      "{",
      ";",
      "1.",
      "1...",
      "$",
      "x",
      "-",
      "1-",
      "1x2x",
      "W:",
      "W:W1-255:B",
      "W:WK",
  };
  inputs.push_back(std::string(100000, '('));  // deep variation nesting
  inputs.push_back(std::string(100000, '{'));
  inputs.push_back("1. " + std::string(5000, '9') + "-28 *");
  std::string long_path = "1";
  for (int i = 0; i < 1000; ++i) long_path += "x2";
  inputs.push_back(long_path);
  return inputs;
}

TEST(FuzzRegression, FenNeverCrashesAndPointsInsideTheInput) {
  for (const std::string& input : HostileInputs()) {
    auto setup = ParseFen(input);
    if (!setup.ok()) {
      EXPECT_LE(setup.error().offset, input.size()) << input.substr(0, 40);
    }
  }
}

TEST(FuzzRegression, MoveTextNeverCrashesAndPointsInsideTheInput) {
  for (const std::string& input : HostileInputs()) {
    auto move = ParseMoveText(input);
    if (!move.ok()) {
      EXPECT_LE(move.error().offset, input.size()) << input.substr(0, 40);
    }
  }
}

TEST(FuzzRegression, PdnNeverCrashesAndPointsInsideTheInput) {
  for (const std::string& input : HostileInputs()) {
    auto games = ReadPdn(input);
    if (!games.ok()) {
      EXPECT_LE(games.error().offset, input.size()) << input.substr(0, 40);
    }
  }
}

TEST(FuzzRegression, DeepVariationIsAnErrorAtItsStart) {
  auto games = ReadPdn(std::string(100000, '('));
  ASSERT_FALSE(games.ok());
  EXPECT_EQ(games.error().offset, 0u);
}

// fuzz_pdn, first minute: a ';' comment holding '}' and control bytes was
// written back inside braces with the '}' replaced, so it read back
// different.
TEST(FuzzRegression, LineCommentWithClosingBraceSurvivesRoundTrip) {
  const std::string input(
      ";YGameType\x03\0\0\0\0\0\0\0EN \"W6,3(:B1},15,22,23,3\"]\n"
      "1... 26x17x10 2. 3-7 10x3; *\n",
      74);
  auto games = ReadPdn(input);
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 1u);
  const PdnGame& game = games->front();
  EXPECT_EQ(game.leading_comment,
            std::string("YGameType\x03\0\0\0\0\0\0\0EN \"W6,3(:B1},15,22,23,3\"]", 43));
  auto again = ReadPdn(WritePdn(*games));
  ASSERT_TRUE(again.ok()) << again.error().ToString();
  ASSERT_EQ(again->size(), 1u);
  EXPECT_EQ(again->front().leading_comment, game.leading_comment);
  EXPECT_EQ(again->front().moves.size(), 3u);
  EXPECT_EQ(again->front().moves.back().comment, game.moves.back().comment);
}

// fuzz_pdn: "01-1" read as a move from 1 to 1 and was written back as
// "1-1", which reads as the result "1-1" (a draw).
TEST(FuzzRegression, MoveThatWouldWriteAsAResultIsRefused) {
  auto games = ReadPdn("[GameType \"21\"]\n1... 6x17x10 2. 3-7 01-1 *\n");
  ASSERT_FALSE(games.ok());
  EXPECT_EQ(games.error().offset, 36u);
  EXPECT_NE(games.error().message.find("must leave its square"), std::string::npos);
}

}  // namespace
}  // namespace draughts::rules
