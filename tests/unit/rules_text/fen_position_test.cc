// FEN on a real board: square ranges per variant and Position round trips.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/variant.h"

namespace draughts::rules {
namespace {

using ::testing::HasSubstr;

Variant Named(std::string_view id) {
  auto variant = FindVariant(id);
  EXPECT_TRUE(variant.ok()) << id;
  return *variant;
}

TEST(FenPosition, StartingPositionsMatchTheRules) {
  // RULES.md: international 20 men each on 1-20 / 31-50, White first;
  // English 12 each on 1-12 / 21-32, Black first; Canadian 30 each on
  // 1-30 / 43-72, White first.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"international", "W:W31-50:B1-20"},
      {"english", "B:W21-32:B1-12"},
      {"canadian", "W:W43-72:B1-30"},
  };
  for (const auto& [id, fen] : cases) {
    const Variant variant = Named(id);
    auto position = ParseFen(variant, fen);
    ASSERT_TRUE(position.ok()) << id << ": " << position.error().ToString();
    EXPECT_TRUE(*position == Position::Initial(variant)) << id;
    EXPECT_EQ(FormatFen(Position::Initial(variant)), fen) << id;
  }
}

TEST(FenPosition, SquareBeyondTheBoardIsReportedAtItsOffset) {
  auto on_10x10 = ParseFen(Named("international"), "W:W31,51:B1");
  ASSERT_FALSE(on_10x10.ok());
  EXPECT_EQ(on_10x10.error().offset, 6u);
  EXPECT_THAT(on_10x10.error().message, HasSubstr("square 51"));
  EXPECT_THAT(on_10x10.error().message, HasSubstr("1-50"));

  auto on_8x8 = ParseFen(Named("english"), "B:W21-33:B1");
  ASSERT_FALSE(on_8x8.ok());
  EXPECT_EQ(on_8x8.error().offset, 3u);  // the range that runs past 32
  EXPECT_THAT(on_8x8.error().message, HasSubstr("square 33"));

  EXPECT_TRUE(ParseFen(Named("canadian"), "W:W72:B1").ok());
  auto on_12x12 = ParseFen(Named("canadian"), "W:W73:B1");
  ASSERT_FALSE(on_12x12.ok());
  EXPECT_EQ(on_12x12.error().offset, 3u);
}

TEST(FenPosition, BoardChecksFromPositionArePassedOn) {
  // A white man on square 1 would stand on its own promotion row.
  auto position = ParseFen(Named("international"), "W:W1:B20");
  EXPECT_FALSE(position.ok());
}

TEST(FenPosition, SyntaxErrorsComeFirst) {
  auto position = ParseFen(Named("international"), "W:W31,");
  ASSERT_FALSE(position.ok());
  EXPECT_EQ(position.error().offset, 6u);
}

TEST(FenPosition, RoundTripThroughPosition) {
  const Variant international = Named("international");
  for (const char* fen : {"B:WK10,31-35:B1-5,K46", "W:W:BK3", "W:WK50:B"}) {
    auto position = ParseFen(international, fen);
    ASSERT_TRUE(position.ok()) << fen << ": " << position.error().ToString();
    EXPECT_EQ(FormatFen(*position), fen);
  }
}

}  // namespace
}  // namespace draughts::rules
