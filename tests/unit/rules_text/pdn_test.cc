#include "rules/pdn.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace draughts::rules {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> MoveStrings(const PdnGame& game) {
  std::vector<std::string> out;
  for (const PdnMove& move : game.moves) out.push_back(FormatMoveText(move.move));
  return out;
}

constexpr const char* kTwoGames = R"([Event "Club \"Open\" \\ 2024"]
[GameType "20"]
[FEN "W:W31-50:B1-20"]
[Result "2-0"]

{Opening} 1. 32-28 19-23 2. 28x19 {forced} 14x23 (2... 13x24 3. 30-25 (3. 33-29))
3.33-29! $1 ; to the end
10-14? 2-0

[Event "Second"]
[GameType "21"]
5... 11-15 6. 23-19 1/2-1/2
)";

TEST(PdnRead, TagsMovesCommentsAndResults) {
  auto games = ReadPdn(kTwoGames);
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 2u);

  const PdnGame& first = (*games)[0];
  ASSERT_EQ(first.tags.size(), 4u);
  EXPECT_EQ(first.tags[0], (PdnTag{"Event", "Club \"Open\" \\ 2024"}));
  EXPECT_EQ(first.GameType(), 20);
  ASSERT_NE(first.FindTag("FEN"), nullptr);
  EXPECT_EQ(*first.FindTag("FEN"), "W:W31-50:B1-20");
  EXPECT_EQ(first.FindTag("Missing"), nullptr);
  EXPECT_EQ(first.leading_comment, "Opening");
  EXPECT_EQ(MoveStrings(first),
            (std::vector<std::string>{"32-28", "19-23", "28x19", "14x23", "33-29", "10-14"}));
  EXPECT_EQ(first.moves[2].comment, "forced");
  EXPECT_EQ(first.moves[4].comment, "to the end");
  EXPECT_EQ(first.moves[1].comment, "");
  EXPECT_EQ(first.result, PdnResult::kWhiteWins);
  EXPECT_EQ(first.first_move_number, 1);
  EXPECT_FALSE(first.first_move_by_second_player);

  const PdnGame& second = (*games)[1];
  EXPECT_EQ(second.GameType(), 21);
  EXPECT_EQ(MoveStrings(second), (std::vector<std::string>{"11-15", "23-19"}));
  EXPECT_EQ(second.first_move_number, 5);
  EXPECT_TRUE(second.first_move_by_second_player);
  EXPECT_EQ(second.result, PdnResult::kDraw);
}

TEST(PdnRead, MovesRememberWhereTheyWere) {
  auto games = ReadPdn("[Event \"x\"]\n\n1. 32-28\n   19-23 *");
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  const PdnGame& game = (*games)[0];
  ASSERT_EQ(game.moves.size(), 2u);
  EXPECT_EQ(game.moves[0].offset, 16u);
  EXPECT_EQ(game.moves[0].line, 3);
  EXPECT_EQ(game.moves[0].column, 4);
  EXPECT_EQ(game.moves[1].offset, 25u);
  EXPECT_EQ(game.moves[1].line, 4);
  EXPECT_EQ(game.moves[1].column, 4);
}

TEST(PdnRead, EveryResultForm) {
  const std::vector<std::pair<std::string, PdnResult>> cases = {
      {"2-0", PdnResult::kWhiteWins}, {"0-2", PdnResult::kBlackWins}, {"1-1", PdnResult::kDraw},
      {"1-0", PdnResult::kWhiteWins}, {"0-1", PdnResult::kBlackWins}, {"1/2-1/2", PdnResult::kDraw},
      {"*", PdnResult::kUnknown},
  };
  for (const auto& [text, expected] : cases) {
    auto games = ReadPdn("1. 32-28 " + text);
    ASSERT_TRUE(games.ok()) << text << ": " << games.error().ToString();
    ASSERT_EQ(games->size(), 1u) << text;
    EXPECT_EQ((*games)[0].result, expected) << text;
    EXPECT_EQ((*games)[0].moves.size(), 1u) << text;
  }
}

TEST(PdnRead, MoveThatStartsLikeAResultIsAMove) {
  // "1-10" begins with the draw "1-1" but is a move on a 10x10 board.
  auto games = ReadPdn("1. 1-10 *");
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  EXPECT_EQ(MoveStrings((*games)[0]), (std::vector<std::string>{"1-10"}));
}

TEST(PdnRead, ResultTagUsedWhenTheTerminatorIsMissing) {
  auto games = ReadPdn("[Result \"0-2\"]\n1. 32-28\n[Result \"1-1\"]\n1. 31-27");
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 2u);
  EXPECT_EQ((*games)[0].result, PdnResult::kBlackWins);
  EXPECT_EQ((*games)[1].result, PdnResult::kDraw);
}

TEST(PdnRead, NumberGluedToMoveAndManyGamesWithoutTags) {
  auto games = ReadPdn("1.32-28 19-23 2.28x19 * 1.31-27 *");
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 2u);
  EXPECT_EQ(MoveStrings((*games)[0]), (std::vector<std::string>{"32-28", "19-23", "28x19"}));
  EXPECT_EQ(MoveStrings((*games)[1]), (std::vector<std::string>{"31-27"}));
}

TEST(PdnRead, ByteOrderMarkIsSkippedAndOffsetsCountIt) {
  auto games = ReadPdn("\xEF\xBB\xBF[Event \"x\"]\n1. 32-28 *");
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ(games->front().moves[0].offset, 18u);
  auto bad = ReadPdn(
      "\xEF\xBB\xBF"
      "1. 32 *");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().offset, 8u);
}

TEST(PdnRead, EmptyInputHasNoGames) {
  for (const char* text : {"", "   \n\t "}) {
    auto games = ReadPdn(text);
    ASSERT_TRUE(games.ok());
    EXPECT_TRUE(games->empty());
  }
}

TEST(PdnRead, GameTypeWithExtraFields) {
  auto games = ReadPdn("[GameType \"27,W,12,12,N2,0\"] *");
  ASSERT_TRUE(games.ok());
  EXPECT_EQ((*games)[0].GameType(), 27);
  auto bad = ReadPdn("[GameType \"abc\"] *");
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ((*bad)[0].GameType(), std::nullopt);
}

struct BadPdn {
  const char* text;
  std::size_t offset;
  const char* message_part;
};

class PdnErrors : public ::testing::TestWithParam<BadPdn> {};

TEST_P(PdnErrors, ReportsOffsetAndLineColumn) {
  const BadPdn& bad = GetParam();
  auto games = ReadPdn(bad.text);
  ASSERT_FALSE(games.ok()) << bad.text;
  EXPECT_EQ(games.error().offset, bad.offset) << bad.text << ": " << games.error().ToString();
  EXPECT_THAT(games.error().message, HasSubstr(bad.message_part)) << bad.text;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PdnErrors,
    ::testing::Values(BadPdn{"[Event \"x\" y\n1. 32-28", 11, "line 1, column 12: expected ']'"},
                      BadPdn{"[ \"x\"]", 2, "tag name"}, BadPdn{"[Event x\n", 0, "']'"},
                      BadPdn{"[Event \"x\n", 7, "never closed"},
                      BadPdn{"1. 32-28 {oops", 9, "line 1, column 10: comment"},
                      BadPdn{"1. 32-28 (28-22", 9, "variation"}, BadPdn{"1. 32-28 )", 9, "')'"},
                      BadPdn{"1. 32 28 *", 5, "line 1, column 6: expected '-' or 'x'"},
                      BadPdn{"\n\n  1. 32-28 @", 13, "line 3, column 12: unexpected '@'"},
                      BadPdn{"1. 32-28 $x", 9, "'$'"}, BadPdn{"0. 32-28", 0, "move number"},
                      BadPdn{"1. 32-28 0-5 *", 9, "start at 1"},
                      BadPdn{"1. 32-28\r\n2. 28x", 16, "line 2, column 7: expected a square"}));

TEST(PdnRead, BadGamesAreReportedAndTheOthersRead) {
  const PdnReadReport report = ReadPdnGames(
      "[Event \"one\"]\n1. 32-28 *\n\n[Event \"two\"]\n1. 32-28 )\n\n[Event \"three\"]\n1. 31-27 "
      "*\n");
  ASSERT_EQ(report.games.size(), 2u);
  EXPECT_EQ(report.games[0].number, 1);
  EXPECT_EQ(report.games[1].number, 3);
  EXPECT_EQ(*report.games[1].FindTag("Event"), "three");
  ASSERT_EQ(report.failures.size(), 1u);
  EXPECT_EQ(report.failures[0].game, 2);
  EXPECT_EQ(report.failures[0].line, 5);
  EXPECT_EQ(report.failures[0].column, 10);
  EXPECT_EQ(report.failures[0].ToString(),
            "game 2, line 5, column 10: ')' without a variation to close");
}

TEST(PdnRead, ResultTagWinsOverADifferentTerminator) {
  const PdnReadReport report = ReadPdnGames("[Result \"2-0\"] 1. 32-28 0-2");
  ASSERT_EQ(report.games.size(), 1u);
  EXPECT_EQ(report.games[0].result, PdnResult::kWhiteWins);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_THAT(report.notes[0].message, HasSubstr("differs from the Result tag"));
}

TEST(PdnRead, LenientTagsAndResults) {
  auto games = ReadPdn(
      "[Round]\n[Site ?]\n[Event \"Club \"Open\" 2024\"]\n[Date \"2024\"\n"
      "1. 32-28 19-23 2 - 0\n[Result \"1 - 1\"]\n1... 19-23 1/2-1/2\n[Result \"\"] 1. 32-28 -");
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 3u);
  const PdnGame& first = (*games)[0];
  EXPECT_EQ(*first.FindTag("Round"), "");
  EXPECT_EQ(*first.FindTag("Site"), "?");
  EXPECT_EQ(*first.FindTag("Event"), "Club \"Open\" 2024");
  EXPECT_EQ(*first.FindTag("Date"), "2024");
  EXPECT_EQ(first.result, PdnResult::kWhiteWins);
  EXPECT_EQ((*games)[1].result, PdnResult::kDraw);
  EXPECT_TRUE((*games)[1].first_move_by_second_player);
  EXPECT_EQ((*games)[2].result, PdnResult::kUnknown);
  EXPECT_EQ((*games)[2].moves.size(), 1u);
}

TEST(PdnRead, MoveFormsAreNormalised) {
  auto games =
      ReadPdn("1. 05 - 10 2. 28 :19:10 3. C3-D4 4. d4:f6 5. ed4 6. e:c5 7. 12 ... 9-14 8. a3b4 *");
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  std::vector<std::string> texts;
  for (const PdnMove& move : (*games)[0].moves) texts.push_back(move.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"5-10", "28:19:10", "c3-d4", "d4:f6", "ed4", "e:c5",
                                             "9-14", "a3-b4"}));
  EXPECT_EQ((*games)[0].moves[0].move, (MoveText{{5, 10}, false}));
  EXPECT_TRUE((*games)[0].moves[2].move.squares.empty());  // coordinates
}

TEST(PdnWrite, NumbersWrapsAndSetsTheResultTag) {
  PdnGame game;
  game.tags = {{"Event", "A \"b\""}, {"GameType", "20"}, {"Result", "*"}};
  game.result = PdnResult::kBlackWins;
  game.leading_comment = "intro";
  for (int i = 0; i < 30; ++i) {
    game.moves.push_back(PdnMove{MoveText{{31 + i % 5, 26 + i % 5}, false}, "", 0, 0, 0});
  }
  game.moves[1].comment = "a } brace";
  const std::string text = WritePdn(game);
  EXPECT_THAT(text, HasSubstr("[Event \"A \\\"b\\\"\"]\n[GameType \"20\"]\n[Result \"0-2\"]\n\n"));
  std::string movetext = text.substr(text.find("\n\n") + 2);
  std::replace(movetext.begin(), movetext.end(), '\n', ' ');
  // A '}' cannot go inside braces: that comment is written after ';'.
  EXPECT_THAT(movetext, HasSubstr("{intro} 1. 31-26 32-27 ; a } brace 2. 33-28 34-29 3. 35-30"));
  EXPECT_THAT(text, HasSubstr("; a } brace\n2. 33-28"));
  EXPECT_THAT(movetext, HasSubstr("14. 32-27 33-28 15. 34-29 35-30 0-2 "));
  EXPECT_EQ(text.back(), '\n');
  std::size_t line_start = 0;
  while (line_start < text.size()) {
    const std::size_t end = text.find('\n', line_start);
    EXPECT_LE(end - line_start, 80u) << text.substr(line_start, end - line_start);
    line_start = end + 1;
  }
}

TEST(PdnWrite, EnglishUsesOnePointScoresAndSecondPlayerNumbering) {
  PdnGame game;
  game.tags = {{"GameType", "21"}};
  game.result = PdnResult::kDraw;
  game.first_move_number = 7;
  game.first_move_by_second_player = true;
  game.moves = {PdnMove{MoveText{{22, 18}, false}, "", 0, 0, 0},
                PdnMove{MoveText{{15, 22}, true}, "", 0, 0, 0}};
  EXPECT_EQ(WritePdn(game),
            "[GameType \"21\"]\n[Result \"1/2-1/2\"]\n\n7... 22-18 8. 15x22 1/2-1/2\n");
}

TEST(PdnRoundTrip, ReadWriteReadKeepsEverything) {
  auto first = ReadPdn(kTwoGames);
  ASSERT_TRUE(first.ok());
  const std::string written = WritePdn(*first);
  auto second = ReadPdn(written);
  ASSERT_TRUE(second.ok()) << second.error().ToString() << "\n" << written;
  ASSERT_EQ(second->size(), first->size());
  for (std::size_t g = 0; g < first->size(); ++g) {
    const PdnGame& a = (*first)[g];
    const PdnGame& b = (*second)[g];
    EXPECT_EQ(b.tags.size(), a.tags.size() + (a.FindTag("Result") ? 0 : 1));
    for (const PdnTag& tag : a.tags) {
      ASSERT_NE(b.FindTag(tag.name), nullptr) << tag.name;
      EXPECT_EQ(*b.FindTag(tag.name), tag.value) << tag.name;
    }
    EXPECT_EQ(MoveStrings(b), MoveStrings(a));
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
      EXPECT_EQ(b.moves[i].comment, a.moves[i].comment) << i;
    }
    EXPECT_EQ(b.leading_comment, a.leading_comment);
    EXPECT_EQ(b.result, a.result);
    EXPECT_EQ(b.first_move_number, a.first_move_number);
    EXPECT_EQ(b.first_move_by_second_player, a.first_move_by_second_player);
  }
  // Writing is a fixed point after the first normalisation.
  EXPECT_EQ(WritePdn(*second), written);
}

}  // namespace
}  // namespace draughts::rules
