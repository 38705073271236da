// Differential test: the bitboard generator against the simple reference
// generator, on positions from random games and on random positions full
// of kings, for every built-in rule set and for rule combinations that no
// built-in set has (to keep the rule parameters independent).

#include <random>

#include <gtest/gtest.h>

#include "reference_movegen.h"
#include "rules/movegen.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using ::draughts::rules::testing::ReferenceMoves;

std::vector<std::string> Texts(const Variant& v, const MoveList& moves) {
  return testing::IdentityTexts(v, moves);
}

// Compares everything the generator offers on one position; returns false
// (after reporting) on the first difference.
bool Agrees(const Variant& v, const Position& p) {
  const MoveList moves = LegalMoves(v, p);
  const auto expected = ReferenceMoves(v, p);
  const auto actual = Texts(v, moves);
  EXPECT_EQ(actual, expected) << v.id << " " << (p.side_to_move() == Color::kWhite ? "W" : "B");
  if (actual != expected) {
    for (const SetupPiece& sp : p.ToSetup().pieces)
      ADD_FAILURE() << "piece " << sp.square << (sp.color == Color::kWhite ? " white" : " black")
                    << (sp.kind == PieceKind::kKing ? " king" : " man");
    return false;
  }
  EXPECT_EQ(CountLegalMoves(v, p), static_cast<int>(moves.size()));
  const bool any_capture =
      std::any_of(moves.begin(), moves.end(), [](const Move& m) { return m.is_capture(); });
  EXPECT_EQ(HasCapture(v, p), any_capture);
  for (const Move& m : moves) {
    const Position after = p.Play(m);
    EXPECT_EQ(after.hash(), Position::FromSetup(v, after.ToSetup())->hash());
  }
  return true;
}

std::vector<Variant> RuleCombinations() {
  std::vector<Variant> all = AllVariants();
  for (const Variant& base : AllVariants()) {
    Variant v = base;
    v.mandatory_capture = false;
    all.push_back(v);
    v = base;
    v.capture_choice = base.capture_choice == CaptureChoice::kMajority ? CaptureChoice::kFree
                                                                       : CaptureChoice::kMajority;
    // (CheckVariant refuses kOrder with orthogonal captures.)
    v.capture_identity = base.capture_identity != CaptureIdentity::kPieceSet
                             ? CaptureIdentity::kPieceSet
                         : base.orthogonal_captures ? CaptureIdentity::kPath
                                                    : CaptureIdentity::kOrder;
    all.push_back(v);
    v = base;
    v.king_range = base.king_range == KingRange::kFlying ? KingRange::kShort : KingRange::kFlying;
    v.men_capture_backward = !base.men_capture_backward;
    v.promotion_in_capture = base.promotion_in_capture == PromotionInCapture::kEndsMove
                                 ? PromotionInCapture::kPassThrough
                                 : PromotionInCapture::kEndsMove;
    all.push_back(v);
  }
  // The full board's own rule switches: a man crowned mid-capture going on
  // as a king, and a king that may turn straight back.
  Variant turkish = FindVariant("turkish").value();
  turkish.promotion_in_capture = PromotionInCapture::kContinuesAsKing;
  all.push_back(turkish);
  turkish = FindVariant("turkish").value();
  turkish.king_may_turn_back = true;
  turkish.captured_removal = CapturedRemoval::kAtOnce;
  all.push_back(turkish);
  turkish = FindVariant("turkish").value();
  turkish.captured_removal = CapturedRemoval::kAtEnd;
  turkish.king_landing = KingLanding::kRightBehind;
  all.push_back(turkish);
  return all;
}

TEST(ReferenceMovegen, RandomGames) {
  std::mt19937 rng(20240611);
  for (const Variant& v : RuleCombinations()) {
    for (int game = 0; game < 8; ++game) {
      Position p = Position::Initial(v);
      for (int ply = 0; ply < 150; ++ply) {
        if (!Agrees(v, p)) return;
        const MoveList moves = LegalMoves(v, p);
        if (moves.empty()) break;
        p = p.Play(moves[rng() % moves.size()]);
      }
    }
  }
}

TEST(ReferenceMovegen, RandomPositionsWithKings) {
  std::mt19937 rng(7);
  for (const Variant& v : RuleCombinations()) {
    const int squares = SquareCount(v.board);
    const int dim = BoardDimension(v.board);
    for (int trial = 0; trial < 200; ++trial) {
      PositionSetup setup;
      setup.side_to_move = rng() % 2 ? Color::kWhite : Color::kBlack;
      const int density = 15 + static_cast<int>(rng() % 40);  // percent
      int counts[2] = {0, 0};
      for (int s = 1; s <= squares; ++s) {
        if (static_cast<int>(rng() % 100) >= density) continue;
        const Color c = rng() % 2 ? Color::kWhite : Color::kBlack;
        if (counts[static_cast<int>(c)] == v.MenPerSide()) continue;
        const int row = SquareToRowColumn(v.board, s).row;
        const bool on_own_promotion_row = row == (c == Color::kWhite ? 0 : dim - 1);
        const bool king = on_own_promotion_row || rng() % 3 == 0;
        setup.pieces.push_back({s, c, king ? PieceKind::kKing : PieceKind::kMan});
        ++counts[static_cast<int>(c)];
      }
      auto p = Position::FromSetup(v, setup);
      ASSERT_TRUE(p.ok()) << p.error().ToString();
      if (!Agrees(v, *p)) return;
    }
  }
}

}  // namespace
}  // namespace draughts::rules
