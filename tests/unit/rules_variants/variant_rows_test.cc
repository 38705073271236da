// The rows of the rule sets beyond the seeds: what the services and the web
// client read from AllVariants() (names, PDN GameType, draw rules).

#include <set>

#include <gtest/gtest.h>

#include "rules/variant.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using testing::GetVariant;

TEST(VariantRows, EveryRuleSetHasNamesAndAPlayableRow) {
  std::set<int> game_types;
  for (const Variant& v : AllVariants()) {
    EXPECT_FALSE(v.name.empty()) << v.id;
    EXPECT_FALSE(v.white_name.empty()) << v.id;
    EXPECT_FALSE(v.black_name.empty()) << v.id;
    EXPECT_NE(v.white_name, v.black_name) << v.id;
    EXPECT_FALSE(CheckVariant(v).has_value()) << v.id;
    EXPECT_GT(v.draw.repetitions, 0) << v.id;
    // One rule set per official GameType, so a PDN file names one.
    if (v.pdn_game_type != 0) {
      EXPECT_TRUE(game_types.insert(v.pdn_game_type).second) << v.id;
    }
  }
}

TEST(VariantRows, PdnGameTypes) {
  const std::pair<std::string_view, int> expected[] = {
      {"italian", 22}, {"pool", 23},    {"spanish", 24}, {"russian", 25}, {"brazilian", 26},
      {"czech", 29},   {"turkish", 30}, {"thai", 31},    {"frisian", 40},
  };
  for (const auto& [id, type] : expected) {
    auto v = FindVariant(id);
    if (!v.ok()) continue;  // rule sets still to come are checked once they exist
    EXPECT_EQ(v->pdn_game_type, type) << id;
  }
}

TEST(VariantRows, RussianBrazilianPool) {
  const Variant russian = GetVariant("russian");
  EXPECT_EQ(russian.board, BoardSize::k8x8);
  EXPECT_EQ(russian.MenPerSide(), 12);
  EXPECT_EQ(russian.first_to_move, Color::kWhite);
  EXPECT_EQ(russian.capture_choice, CaptureChoice::kFree);
  EXPECT_EQ(russian.promotion_in_capture, PromotionInCapture::kContinuesAsKing);
  EXPECT_EQ(russian.draw.NoProgressPlies(), 30);

  const Variant brazilian = GetVariant("brazilian");
  const Variant international = GetVariant("international");
  EXPECT_EQ(brazilian.board, BoardSize::k8x8);
  EXPECT_EQ(brazilian.capture_choice, international.capture_choice);
  EXPECT_EQ(brazilian.promotion_in_capture, international.promotion_in_capture);
  EXPECT_EQ(brazilian.capture_identity, international.capture_identity);
  EXPECT_EQ(brazilian.draw, international.draw);

  const Variant pool = GetVariant("pool");
  EXPECT_EQ(pool.first_to_move, Color::kBlack);  // APCA rule 7: the dark pieces start
  EXPECT_EQ(pool.promotion_in_capture, PromotionInCapture::kPassThrough);
  EXPECT_EQ(pool.draw.lone_king[0].moves_per_side, 13);
}

TEST(VariantRows, MirroredSquaresAreAnInvolutionWithinTheRow) {
  EXPECT_EQ(MirroredSquare(BoardSize::k8x8, 1), 4);
  EXPECT_EQ(MirroredSquare(BoardSize::k8x8, 5), 8);
  EXPECT_EQ(MirroredSquare(BoardSize::k8x8, 29), 32);
  EXPECT_EQ(MirroredSquare(BoardSize::k8x8, 0), 0);
  EXPECT_EQ(MirroredSquare(BoardSize::k8x8, 33), 0);
  for (BoardSize b : {BoardSize::k8x8, BoardSize::k10x10, BoardSize::k12x12}) {
    for (int s = 1; s <= SquareCount(b); ++s) {
      const int m = MirroredSquare(b, s);
      EXPECT_EQ(MirroredSquare(b, m), s);
      const RowColumn a = SquareToRowColumn(b, s);
      const RowColumn c = SquareToRowColumn(b, m);
      EXPECT_EQ(a.row, c.row);
      // Index i of the row becomes index half-1-i.
      EXPECT_EQ(a.column + c.column, BoardDimension(b) - 2 + (a.row % 2 == 0 ? 2 : 0)) << s;
    }
  }
}

}  // namespace
}  // namespace draughts::rules
