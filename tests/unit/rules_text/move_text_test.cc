#include "rules/move_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace draughts::rules {
namespace {

using ::testing::HasSubstr;

TEST(MoveTextParse, QuietMove) {
  auto move = ParseMoveText("32-28");
  ASSERT_TRUE(move.ok()) << move.error().ToString();
  EXPECT_EQ(move->squares, (std::vector<int>{32, 28}));
  EXPECT_FALSE(move->capture);
  EXPECT_EQ(move->from(), 32);
  EXPECT_EQ(move->to(), 28);
}

TEST(MoveTextParse, ShortAndFullCaptures) {
  auto short_form = ParseMoveText("28x19");
  ASSERT_TRUE(short_form.ok());
  EXPECT_EQ(short_form->squares, (std::vector<int>{28, 19}));
  EXPECT_TRUE(short_form->capture);

  auto full = ParseMoveText("28x19x10");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->squares, (std::vector<int>{28, 19, 10}));
  EXPECT_TRUE(full->capture);
}

TEST(MoveTextParse, ColonAndCapitalXMeanCapture) {
  for (const char* text : {"28:19:10", "28X19X10", "28x19:10", " 28x19x10\n"}) {
    auto move = ParseMoveText(text);
    ASSERT_TRUE(move.ok()) << text << ": " << move.error().ToString();
    EXPECT_EQ(move->squares, (std::vector<int>{28, 19, 10})) << text;
    EXPECT_TRUE(move->capture) << text;
  }
}

TEST(MoveTextParse, BaseOffsetIsAddedToErrors) {
  auto move = ParseMoveText("32-", 100);
  ASSERT_FALSE(move.ok());
  EXPECT_EQ(move.error().offset, 103u);
}

struct BadMove {
  const char* text;
  std::size_t offset;
  const char* message_part;
};

class MoveTextErrors : public ::testing::TestWithParam<BadMove> {};

TEST_P(MoveTextErrors, ReportsWhatAndWhere) {
  const BadMove& bad = GetParam();
  auto move = ParseMoveText(bad.text);
  ASSERT_FALSE(move.ok()) << bad.text;
  EXPECT_EQ(move.error().offset, bad.offset) << bad.text << ": " << move.error().ToString();
  EXPECT_THAT(move.error().message, HasSubstr(bad.message_part)) << bad.text;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MoveTextErrors,
    ::testing::Values(
        BadMove{"", 0, "square number"}, BadMove{"x19", 0, "square number"},
        BadMove{"32", 2, "expected '-' or 'x'"}, BadMove{"32 28", 2, "expected '-' or 'x'"},
        BadMove{"32-", 3, "square number"}, BadMove{"32--28", 3, "square number"},
        BadMove{"32-28-23", 5, "one square to one other"}, BadMove{"28x19-10", 5, "mixes"},
        BadMove{"0-5", 0, "start at 1"}, BadMove{"5x0", 2, "start at 1"},
        BadMove{"1-0", 2, "start at 1"}, BadMove{"300-5", 0, "too large"},
        BadMove{"32-28 x", 6, "after the move"}, BadMove{"32-28a", 5, "after the move"},
        BadMove{"7-7", 0, "must leave its square"}, BadMove{"01-1", 0, "must leave its square"}));

TEST(MoveTextParse, CaptureMayEndOnItsOrigin) {
  // International: a man can take four pieces around a square and come back.
  auto move = ParseMoveText("43x43");
  ASSERT_TRUE(move.ok()) << move.error().ToString();
  EXPECT_EQ(move->squares, (std::vector<int>{43, 43}));
}

TEST(MoveTextParse, RejectsPathsLongerThanTheLimit) {
  std::string text = "1";
  for (std::size_t i = 1; i < kMaxMoveTextSquares; ++i) text += "x2";
  EXPECT_TRUE(ParseMoveText(text).ok());
  const std::size_t limit_offset = text.size();
  text += "x3";
  auto move = ParseMoveText(text);
  ASSERT_FALSE(move.ok());
  EXPECT_EQ(move.error().offset, limit_offset);
}

TEST(MoveTextFormat, WritesEverySquareWithItsSeparator) {
  EXPECT_EQ(FormatMoveText(MoveText{{32, 28}, false}), "32-28");
  EXPECT_EQ(FormatMoveText(MoveText{{28, 19}, true}), "28x19");
  EXPECT_EQ(FormatMoveText(MoveText{{28, 19, 10}, true}), "28x19x10");
}

}  // namespace
}  // namespace draughts::rules
