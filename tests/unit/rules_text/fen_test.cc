#include "rules/fen.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace draughts::rules {
namespace {

using ::testing::HasSubstr;

std::vector<SetupPiece> Sorted(std::vector<SetupPiece> pieces) {
  std::sort(pieces.begin(), pieces.end(),
            [](const SetupPiece& a, const SetupPiece& b) { return a.square < b.square; });
  return pieces;
}

std::vector<SetupPiece> Men(Color color, int first, int last) {
  std::vector<SetupPiece> out;
  for (int s = first; s <= last; ++s) out.push_back({s, color, PieceKind::kMan});
  return out;
}

std::vector<SetupPiece> Concat(std::vector<SetupPiece> a, const std::vector<SetupPiece>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(FenParse, InternationalStartingPosition) {
  auto setup = ParseFen("W:W31-50:B1-20");
  ASSERT_TRUE(setup.ok()) << setup.error().ToString();
  EXPECT_EQ(setup->side_to_move, Color::kWhite);
  EXPECT_EQ(Sorted(setup->pieces),
            Sorted(Concat(Men(Color::kWhite, 31, 50), Men(Color::kBlack, 1, 20))));
}

TEST(FenParse, BlackToMoveEnglish) {
  auto setup = ParseFen("B:W21-32:B1-12");
  ASSERT_TRUE(setup.ok()) << setup.error().ToString();
  EXPECT_EQ(setup->side_to_move, Color::kBlack);
  EXPECT_EQ(setup->pieces.size(), 24u);
}

TEST(FenParse, KingsAndRanges) {
  auto setup = ParseFen("W:WK10,31-33:B1,K2");
  ASSERT_TRUE(setup.ok()) << setup.error().ToString();
  const std::vector<SetupPiece> expected = {
      {1, Color::kBlack, PieceKind::kMan},   {2, Color::kBlack, PieceKind::kKing},
      {10, Color::kWhite, PieceKind::kKing}, {31, Color::kWhite, PieceKind::kMan},
      {32, Color::kWhite, PieceKind::kMan},  {33, Color::kWhite, PieceKind::kMan},
  };
  EXPECT_EQ(Sorted(setup->pieces), expected);
}

TEST(FenParse, KingRangeMarksEverySquare) {
  for (const char* text : {"B:WK5-7:B", "B:WK5-K7:B"}) {
    auto setup = ParseFen(text);
    ASSERT_TRUE(setup.ok()) << text << ": " << setup.error().ToString();
    const std::vector<SetupPiece> expected = {{5, Color::kWhite, PieceKind::kKing},
                                              {6, Color::kWhite, PieceKind::kKing},
                                              {7, Color::kWhite, PieceKind::kKing}};
    EXPECT_EQ(Sorted(setup->pieces), expected) << text;
  }
}

TEST(FenParse, ToleratesSpacesCaseColourOrderAndTrailingDot) {
  auto loose = ParseFen("  w : b 1 - 3 , k 7 : W k 40 , 45 .  ");
  auto strict = ParseFen("W:WK40,45:B1-3,K7");
  ASSERT_TRUE(loose.ok()) << loose.error().ToString();
  ASSERT_TRUE(strict.ok());
  EXPECT_EQ(loose->side_to_move, strict->side_to_move);
  EXPECT_EQ(Sorted(loose->pieces), Sorted(strict->pieces));
}

TEST(FenParse, EmptyAndMissingSides) {
  for (const char* text : {"B:W:B4", "B:B4", "B:B4:W", "B:W:B4."}) {
    auto setup = ParseFen(text);
    ASSERT_TRUE(setup.ok()) << text << ": " << setup.error().ToString();
    EXPECT_EQ(setup->side_to_move, Color::kBlack) << text;
    EXPECT_EQ(setup->pieces, (std::vector<SetupPiece>{{4, Color::kBlack, PieceKind::kMan}}))
        << text;
  }
}

struct BadFen {
  const char* text;
  std::size_t offset;
  const char* message_part;
};

class FenErrors : public ::testing::TestWithParam<BadFen> {};

TEST_P(FenErrors, ReportsWhatAndWhere) {
  const BadFen& bad = GetParam();
  auto setup = ParseFen(bad.text);
  ASSERT_FALSE(setup.ok()) << bad.text;
  EXPECT_EQ(setup.error().offset, bad.offset) << bad.text << ": " << setup.error().ToString();
  EXPECT_THAT(setup.error().message, HasSubstr(bad.message_part)) << bad.text;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, FenErrors,
    ::testing::Values(BadFen{"", 0, "side to move"}, BadFen{"X:W1", 0, "side to move"},
                      BadFen{"W:X1", 2, "colour"}, BadFen{"W:W1,", 5, "square number"},
                      BadFen{"W:W1-", 5, "last square"}, BadFen{"W:W9-3", 5, "downwards"},
                      BadFen{"W:W0", 3, "start at 1"}, BadFen{"W:W1:B1", 6, "listed twice"},
                      BadFen{"W:W1-5,3", 7, "square 3 is listed twice"},
                      BadFen{"W:W1:W2", 5, "colour W is listed twice"},
                      BadFen{"W:W256", 3, "too large"},
                      BadFen{"W:W99999999999999999999", 3, "too large"},
                      BadFen{"W:W1-K3", 5, "range of kings"}, BadFen{"W:W1 2", 5, "unexpected"},
                      BadFen{"W:W1.x", 5, "unexpected 'x'"}, BadFen{"W;W1", 1, "unexpected ';'"},
                      BadFen{"W:W1\x01", 4, "byte 0x01"}));

TEST(FenFormat, CollapsesRunsAndListsKings) {
  PositionSetup setup;
  setup.side_to_move = Color::kBlack;
  // Deliberately unsorted, with a king inside a run of men.
  setup.pieces = {{35, Color::kWhite, PieceKind::kMan},  {31, Color::kWhite, PieceKind::kMan},
                  {33, Color::kWhite, PieceKind::kKing}, {32, Color::kWhite, PieceKind::kMan},
                  {34, Color::kWhite, PieceKind::kMan},  {10, Color::kWhite, PieceKind::kKing},
                  {3, Color::kBlack, PieceKind::kMan},   {1, Color::kBlack, PieceKind::kMan},
                  {2, Color::kBlack, PieceKind::kMan},   {5, Color::kBlack, PieceKind::kMan}};
  EXPECT_EQ(FormatFen(setup), "B:WK10,31-32,K33,34-35:B1-3,5");
}

TEST(FenFormat, RunsStopWhereTheColourChanges) {
  PositionSetup setup;
  setup.pieces = {{20, Color::kBlack, PieceKind::kMan},
                  {21, Color::kWhite, PieceKind::kMan},
                  {22, Color::kBlack, PieceKind::kMan}};
  EXPECT_EQ(FormatFen(setup), "W:W21:B20,22");
}

TEST(FenFormat, EmptySideKeepsItsColourLetter) {
  PositionSetup setup;
  setup.side_to_move = Color::kWhite;
  setup.pieces = {{7, Color::kBlack, PieceKind::kKing}};
  EXPECT_EQ(FormatFen(setup), "W:W:BK7");
}

TEST(FenRoundTrip, TextToSetupToCanonicalText) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"W:W31-50:B1-20", "W:W31-50:B1-20"},
      {"B:B1-12:W21-32", "B:W21-32:B1-12"},
      {"W:W 45,K10, 46 ,47:BK1", "W:WK10,45-47:BK1"},
      {"B:WK1-K3:B", "B:WK1,K2,K3:B"},
  };
  for (const auto& [text, canonical] : cases) {
    auto setup = ParseFen(text);
    ASSERT_TRUE(setup.ok()) << text;
    EXPECT_EQ(FormatFen(*setup), canonical) << text;
    auto again = ParseFen(canonical);
    ASSERT_TRUE(again.ok()) << canonical;
    EXPECT_EQ(Sorted(again->pieces), Sorted(setup->pieces)) << text;
    EXPECT_EQ(again->side_to_move, setup->side_to_move) << text;
  }
}

}  // namespace
}  // namespace draughts::rules
