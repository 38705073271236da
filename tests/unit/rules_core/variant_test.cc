#include "rules/variant.h"

#include <set>

#include <gtest/gtest.h>

namespace draughts::rules {
namespace {

TEST(Variant, BuiltInRows) {
  auto intl = FindVariant("international");
  ASSERT_TRUE(intl.ok());
  EXPECT_EQ(intl->board, BoardSize::k10x10);
  EXPECT_EQ(intl->MenPerSide(), 20);
  EXPECT_EQ(intl->first_to_move, Color::kWhite);
  EXPECT_EQ(intl->pdn_game_type, 20);
  EXPECT_EQ(intl->capture_choice, CaptureChoice::kMajority);
  EXPECT_EQ(intl->draw.NoProgressPlies(), 50);
  EXPECT_EQ(intl->draw.lone_king[0].moves_per_side, 16);
  EXPECT_EQ(intl->draw.lone_king[1].moves_per_side, 5);

  auto canadian = FindVariant("canadian");
  ASSERT_TRUE(canadian.ok());
  EXPECT_EQ(canadian->board, BoardSize::k12x12);
  EXPECT_EQ(canadian->MenPerSide(), 30);
  EXPECT_EQ(canadian->pdn_game_type, 27);

  auto english = FindVariant("english");
  ASSERT_TRUE(english.ok());
  EXPECT_EQ(english->MenPerSide(), 12);
  EXPECT_EQ(english->first_to_move, Color::kBlack);
  EXPECT_EQ(english->ColorName(Color::kBlack), "Black");
  EXPECT_EQ(english->pdn_game_type, 21);
  EXPECT_FALSE(english->men_capture_backward);
  EXPECT_EQ(english->king_range, KingRange::kShort);
  EXPECT_EQ(english->promotion_in_capture, PromotionInCapture::kEndsMove);
  EXPECT_EQ(english->draw.NoProgressPlies(), 80);

  auto tutorial = FindVariant("tutorial-8x8");
  ASSERT_TRUE(tutorial.ok());
  EXPECT_EQ(tutorial->first_to_move, Color::kWhite);
  EXPECT_EQ(tutorial->ColorName(Color::kWhite), "Red");
  EXPECT_EQ(tutorial->pdn_game_type, 0);
  EXPECT_TRUE(tutorial->men_capture_backward);
  EXPECT_EQ(tutorial->king_range, KingRange::kFlying);
  EXPECT_EQ(tutorial->capture_choice, CaptureChoice::kFree);
  EXPECT_EQ(tutorial->draw, english->draw);
}

TEST(Variant, IdsAreUniqueAndValid) {
  std::set<std::string_view> ids;
  for (const Variant& v : AllVariants()) {
    EXPECT_TRUE(ids.insert(v.id).second) << v.id;
    EXPECT_FALSE(CheckVariant(v).has_value()) << v.id;
    EXPECT_EQ(FindVariant(v.id)->id, v.id);
  }
  EXPECT_EQ(AllVariants().front().id, "international");
}

TEST(Variant, UnknownIdNamesTheKnownOnes) {
  auto v = FindVariant("russian-ish");
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("russian-ish"), std::string::npos);
  EXPECT_NE(v.error().message.find("english"), std::string::npos);
}

TEST(Variant, TableOptionsAreFieldsOfACopy) {
  Variant english = *FindVariant("english");
  english.mandatory_capture = false;
  english.draw.no_progress_counting = MoveCounting::kTotal;
  english.draw.move_limit_plies = 200;
  EXPECT_FALSE(CheckVariant(english).has_value());
  EXPECT_EQ(english.draw.NoProgressPlies(), 40);
  EXPECT_NE(english, *FindVariant("english"));
  EXPECT_TRUE(FindVariant("english")->mandatory_capture);  // the built-in row is unchanged
}

TEST(Variant, CheckVariantRejectsImpossibleValues) {
  Variant v = *FindVariant("english");
  v.initial_rows = 4;  // 8x8: the two sides would touch
  EXPECT_TRUE(CheckVariant(v).has_value());
  v.initial_rows = 0;
  EXPECT_TRUE(CheckVariant(v).has_value());
  v = *FindVariant("international");
  v.board = static_cast<BoardSize>(9);
  EXPECT_TRUE(CheckVariant(v).has_value());
  v = *FindVariant("international");
  v.draw.no_progress_moves = -1;
  EXPECT_TRUE(CheckVariant(v).has_value());
  v = *FindVariant("international");
  v.draw.lone_king[0].min_pieces = 0;
  EXPECT_TRUE(CheckVariant(v).has_value());
}

}  // namespace
}  // namespace draughts::rules
