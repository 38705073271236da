#include "hub/position_text.h"

#include <gtest/gtest.h>

#include <string>

#include "rules/fen.h"
#include "rules/variant.h"

namespace draughts::hub {
namespace {

rules::Variant Get(std::string_view id) {
  return rules::FindVariant(id).value();
}

// Runs of one character, e.g. {{'W', 1}, {'b', 20}}. Built with append:
// chains of std::string operator+ trip a GCC 12 -Wrestrict false positive.
std::string Runs(std::initializer_list<std::pair<char, int>> runs) {
  std::string out;
  for (const auto& [c, n] : runs) out.append(static_cast<std::size_t>(n), c);
  return out;
}

TEST(HubPositionTest, InitialPositionsOfEveryBoard) {
  // International: the example of the Hub protocol description.
  EXPECT_EQ(FormatHubPosition(rules::Position::Initial(Get("international"))),
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
  // English: Black (squares 1-12) moves first.
  EXPECT_EQ(FormatHubPosition(rules::Position::Initial(Get("english"))),
            Runs({{'B', 1}, {'b', 12}, {'e', 8}, {'w', 12}}));
  // Canadian 12x12: 30 men each, two empty rows of 6 squares.
  EXPECT_EQ(FormatHubPosition(rules::Position::Initial(Get("canadian"))),
            Runs({{'W', 1}, {'b', 30}, {'e', 12}, {'w', 30}}));
  // Turkish: all 64 squares, the back rows empty, 16 men each.
  EXPECT_EQ(FormatHubPosition(rules::Position::Initial(Get("turkish"))),
            Runs({{'W', 1}, {'e', 8}, {'b', 16}, {'e', 16}, {'w', 16}, {'e', 8}}));
}

TEST(HubPositionTest, RoundTripsEveryVariantAndKings) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    const rules::Position start = rules::Position::Initial(variant);
    auto parsed = ParseHubPosition(variant, FormatHubPosition(start));
    ASSERT_TRUE(parsed.ok()) << variant.id << ": " << parsed.error().ToString();
    EXPECT_TRUE(*parsed == start) << variant.id;
  }
  const rules::Variant international = Get("international");
  auto kings = rules::ParseFen(international, "B:WK3,28,K49:BK1,19,K50");
  ASSERT_TRUE(kings.ok());
  const std::string text = FormatHubPosition(*kings);
  EXPECT_EQ(text, Runs({{'B', 1},
                        {'B', 1},
                        {'e', 1},
                        {'W', 1},
                        {'e', 15},
                        {'b', 1},
                        {'e', 8},
                        {'w', 1},
                        {'e', 20},
                        {'W', 1},
                        {'B', 1}}));
  auto back = ParseHubPosition(international, text);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == *kings);
}

TEST(HubPositionTest, SideToMoveInEitherCase) {
  const rules::Variant english = Get("english");
  auto lower = ParseHubPosition(english, Runs({{'w', 1}, {'b', 12}, {'e', 8}, {'w', 12}}));
  ASSERT_TRUE(lower.ok());
  EXPECT_EQ(lower->side_to_move(), rules::Color::kWhite);
}

TEST(HubPositionTest, WrongLengthSaysWhichBoardItFits) {
  auto result =
      ParseHubPosition(Get("english"), "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("8x8"), std::string::npos) << result.error().message;
  EXPECT_NE(result.error().message.find("10x10"), std::string::npos) << result.error().message;
  EXPECT_FALSE(ParseHubPosition(Get("international"), "").ok());
  EXPECT_FALSE(ParseHubPosition(Get("international"), "W").ok());
}

TEST(HubPositionTest, BadCharactersAreReportedAtTheirOffset) {
  const rules::Variant international = Get("international");
  std::string text = FormatHubPosition(rules::Position::Initial(international));
  text[7] = 'x';
  auto result = ParseHubPosition(international, text);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().offset, 7u);
  EXPECT_NE(result.error().message.find("square 7"), std::string::npos);

  text = FormatHubPosition(rules::Position::Initial(international));
  text[0] = 'X';
  result = ParseHubPosition(international, text);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().offset, 0u);
}

TEST(HubPositionTest, BoardChecksOfTheRulesApply) {
  // A white man on square 1 (its own promotion row) cannot exist.
  const rules::Variant international = Get("international");
  std::string text = Runs({{'W', 1}, {'e', 50}});
  text[1] = 'w';
  EXPECT_FALSE(ParseHubPosition(international, text).ok());
  text[1] = 'W';
  EXPECT_TRUE(ParseHubPosition(international, text).ok());
}

TEST(HubPositionTest, BoardForLength) {
  EXPECT_EQ(BoardForHubPositionLength(33), rules::BoardSize::k8x8);
  EXPECT_EQ(BoardForHubPositionLength(51), rules::BoardSize::k10x10);
  EXPECT_EQ(BoardForHubPositionLength(73), rules::BoardSize::k12x12);
  EXPECT_EQ(BoardForHubPositionLength(65), rules::BoardSize::kFull8x8);
  EXPECT_FALSE(BoardForHubPositionLength(50).has_value());
}

}  // namespace
}  // namespace draughts::hub
