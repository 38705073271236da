#include "rules/move_notation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rules/fen.h"
#include "rules/variant.h"

namespace draughts::rules {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

Variant Named(std::string_view id) {
  auto variant = FindVariant(id);
  EXPECT_TRUE(variant.ok()) << id;
  return *variant;
}

Position At(const Variant& variant, std::string_view fen) {
  auto position = ParseFen(variant, fen);
  EXPECT_TRUE(position.ok()) << fen << ": " << position.error().ToString();
  return *position;
}

std::vector<int> PathOf(const Move& move) {
  std::vector<int> path{move.from};
  for (auto square : move.landing_squares()) path.push_back(square);
  return path;
}

TEST(MoveNotation, OpeningMoveInShortForm) {
  const Variant international = Named("international");
  const Position start = Position::Initial(international);
  auto move = ParseMove(international, start, "32-28");
  ASSERT_TRUE(move.ok()) << move.error().ToString();
  EXPECT_EQ(move->from, 32);
  EXPECT_EQ(move->to, 28);
  EXPECT_FALSE(move->is_capture());
  EXPECT_EQ(FormatMove(international, start, *move), "32-28");
}

TEST(MoveNotation, IllegalMoveListsTheLegalOnes) {
  const Variant international = Named("international");
  const Position start = Position::Initial(international);
  auto move = ParseMove(international, start, "32-26");
  ASSERT_FALSE(move.ok());
  // The nine opening moves of international draughts: 31-26, 31-27,
  // 32-27, 32-28, 33-28, 33-29, 34-29, 34-30, 35-30.
  EXPECT_THAT(move.error().message,
              AllOf(HasSubstr("32-26 is not legal"), HasSubstr("31-26"), HasSubstr("35-30")));
}

TEST(MoveNotation, WrongSeparatorIsExplained) {
  const Variant international = Named("international");
  const Position start = Position::Initial(international);
  auto move = ParseMove(international, start, "32x28");
  ASSERT_FALSE(move.ok());
  EXPECT_THAT(move.error().message, HasSubstr("written as a capture but is not one: 32-28"));
}

TEST(MoveNotation, SyntaxErrorKeepsItsOffset) {
  const Variant international = Named("international");
  auto move = ParseMove(international, Position::Initial(international), "32-2a");
  ASSERT_FALSE(move.ok());
  EXPECT_EQ(move.error().offset, 4u);
}

TEST(MoveNotation, CompulsoryCaptureIsExplained) {
  // White man on 32 (row 6, column 3); a black man on 27 just up-left of it
  // and 21 empty behind, so 32x21 is the only legal move.
  const Variant international = Named("international");
  const Position position = At(international, "W:W32,45:B27");
  auto quiet = ParseMove(international, position, "45-40");
  ASSERT_FALSE(quiet.ok());
  EXPECT_THAT(quiet.error().message, HasSubstr("a capture is compulsory (32x21)"));
  auto capture = ParseMove(international, position, "32x21");
  ASSERT_TRUE(capture.ok()) << capture.error().ToString();
  EXPECT_EQ(PathOf(*capture), (std::vector<int>{32, 21}));
  EXPECT_EQ(
      std::vector<int>(capture->captured_squares().begin(), capture->captured_squares().end()),
      (std::vector<int>{27}));
  EXPECT_EQ(FormatMove(international, position, *capture), "32x21");
}

// English: a white man on 26 (row 6, column 3) and black men on 22, 23
// (row 5) and 14, 15 (row 3). It can jump 22 to 17 then 14 to 10, or 23 to
// 19 then 15 to 10; from 10 nothing more (6 and 7 are empty), and men do
// not capture backwards. So two legal captures go from 26 to 10.
constexpr std::string_view kEnglishFork = "W:W26:B14,15,22,23";

TEST(MoveNotation, AmbiguousShortFormListsFullPaths) {
  const Variant english = Named("english");
  const Position position = At(english, kEnglishFork);
  auto move = ParseMove(english, position, "26x10");
  ASSERT_FALSE(move.ok());
  EXPECT_THAT(move.error().message,
              AllOf(HasSubstr("26x10 is ambiguous"), HasSubstr("26x17x10"), HasSubstr("26x19x10")));
}

TEST(MoveNotation, FullPathSelectsExactly) {
  const Variant english = Named("english");
  const Position position = At(english, kEnglishFork);
  for (const auto& [text, path, captured] :
       std::vector<std::tuple<std::string, std::vector<int>, std::vector<int>>>{
           {"26x17x10", {26, 17, 10}, {22, 14}}, {"26x19x10", {26, 19, 10}, {23, 15}}}) {
    auto move = ParseMove(english, position, text);
    ASSERT_TRUE(move.ok()) << text << ": " << move.error().ToString();
    EXPECT_EQ(PathOf(*move), path) << text;
    EXPECT_EQ(std::vector<int>(move->captured_squares().begin(), move->captured_squares().end()),
              captured)
        << text;
    // Written back in full, since the short form would be ambiguous.
    EXPECT_EQ(FormatMove(english, position, *move), text);
  }
}

TEST(MoveNotation, PathThatFitsNoMoveIsRejected) {
  const Variant english = Named("english");
  const Position position = At(english, kEnglishFork);
  for (const char* text : {"26x18x10", "26x17", "26x17x19x10", "26-17"}) {
    auto move = ParseMove(english, position, text);
    EXPECT_FALSE(move.ok()) << text;
  }
}

// International: a white king on 20 and black men on 9, 27, 29, 37, 40, 41.
// The king takes 29 on the long diagonal (landing 33, 38, 42 or 47), and
// only from 42 (over 37 to 31) or from 47 (over 41 to 36) can it go on: then
// up the diagonal 31-27-22-18-13-9-4, over 27 and over 9 to 4 (it may stop
// on 22, 18 or 13 between the two: the same move). Four pieces either way;
// the sets differ (37 or 41), so these are two moves from 20 to 4 and
// "20x4" is ambiguous.
constexpr std::string_view kKingFork = "W:WK20:B9,27,29,37,40,41";

std::vector<int> SortedCaptures(const Move& move) {
  std::vector<int> taken(move.captured_squares().begin(), move.captured_squares().end());
  std::sort(taken.begin(), taken.end());
  return taken;
}

TEST(MoveNotation, AmbiguousKingCaptureInInternational) {
  const Variant international = Named("international");
  const Position position = At(international, kKingFork);
  auto short_form = ParseMove(international, position, "20x4");
  ASSERT_FALSE(short_form.ok());
  EXPECT_THAT(short_form.error().message,
              AllOf(HasSubstr("ambiguous"), HasSubstr("20x42x31x"), HasSubstr("20x47x36x")));

  for (const char* text : {"20x42x31x22x4", "20x42x31x18x4", "20x42x31x13x4"}) {
    auto via_42 = ParseMove(international, position, text);
    ASSERT_TRUE(via_42.ok()) << text << ": " << via_42.error().ToString();
    EXPECT_EQ(SortedCaptures(*via_42), (std::vector<int>{9, 27, 29, 37})) << text;
    // However the generator chose to land between 27 and 9, the full path
    // it is written with selects it again.
    const std::string written = FormatMove(international, position, *via_42);
    EXPECT_THAT(written, ::testing::StartsWith("20x42x31x")) << text;
    auto again = ParseMove(international, position, written);
    ASSERT_TRUE(again.ok()) << written;
    EXPECT_TRUE(*again == *via_42) << written;
  }

  // A partial path is enough when it names a square only one move visits.
  auto via_47 = ParseMove(international, position, "20x47x4");
  ASSERT_TRUE(via_47.ok()) << via_47.error().ToString();
  EXPECT_EQ(SortedCaptures(*via_47), (std::vector<int>{9, 27, 29, 41}));

  // Landing on 9 itself, or off the diagonal, is no path at all.
  EXPECT_FALSE(ParseMove(international, position, "20x42x31x9x4").ok());
  EXPECT_FALSE(ParseMove(international, position, "20x42x31x17x4").ok());
  // Neither is changing the landing where the king turns a corner.
  EXPECT_FALSE(ParseMove(international, position, "20x38x31x22x4").ok());
}

TEST(MoveNotation, SquaresOffTheBoardAreNamed) {
  const Variant english = Named("english");
  auto move = ParseMove(english, Position::Initial(english), "9-33");
  ASSERT_FALSE(move.ok());
  EXPECT_THAT(move.error().message, HasSubstr("not on the board (1-32)"));
}

TEST(MoveNotation, NoLegalMoveAtAll) {
  MoveList none;
  auto move = MatchMove(BoardSize::k10x10, none, MoveText{{32, 28}, false});
  ASSERT_FALSE(move.ok());
  EXPECT_THAT(move.error().message, HasSubstr("no legal move"));
}

TEST(MoveNotation, MoveOutsideTheListIsWrittenInFull) {
  Move move;
  move.from = 28;
  move.to = 10;
  move.capture_count = 2;
  move.landings[0] = 19;
  move.landings[1] = 10;
  move.captured[0] = 23;
  move.captured[1] = 14;
  EXPECT_EQ(FormatMove(MoveList{}, move), "28x19x10");
  EXPECT_EQ(FormatMovePath(move), "28x19x10");
  EXPECT_THAT(FormatMove(MoveList{move}, move), Not(HasSubstr("19")));
}

}  // namespace
}  // namespace draughts::rules
