// The learned pattern evaluation: window indices against a square-by-square
// reading of the board, the half-turn, the weights file (round trip, refusal
// of corrupt or mismatched files), colour symmetry and the built-in weights.

#include <gtest/gtest.h>

#include <random>

#include "engine/engine.h"
#include "engine/eval_params.h"
#include "engine/pattern_evaluator.h"
#include "engine/pattern_features.h"
#include "engine/pattern_weights.h"
#include "rules/fen.h"
#include "rules/geometry.h"
#include "rules/layout.h"
#include "rules/movegen_impl.h"
#include "test_support.h"

namespace draughts::engine {
namespace {

using testing::Mirror;
using testing::RandomGames;
using testing::VariantOrDie;

PatternWeights RandomWeights(const std::string& family, int dimension, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  PatternWeights w;
  w.family = family;
  w.board_dimension = dimension;
  w.values.resize(static_cast<std::size_t>(PatternWeightCount(dimension)));
  for (auto& v : w.values) v = static_cast<std::int16_t>(static_cast<int>(rng() % 201) - 100);
  return w;
}

// The window's index read square by square: rows top to bottom, left
// square first, 1 for an own man, 2 for an opponent man.
template <class L>
int SlowWindowIndex(int window, typename L::Bits own, typename L::Bits opp) {
  using S = pattern::Shape<L>;
  const int top = 2 * (window / S::kBands);
  const int left = 2 * (window % S::kBands);
  int index = 0, power = 1;
  for (int row = top; row < top + 4; ++row) {
    for (int col = left; col < left + 4; ++col) {
      const int square = rules::RowColumnToSquare(L::kBoard, {row, col});
      if (square == 0) continue;
      const int bit = L::BitOfSquare(square);
      const int state = ((own >> bit) & 1) ? 1 : ((opp >> bit) & 1) ? 2 : 0;
      index += state * power;
      power *= 3;
    }
  }
  return index;
}

template <class L>
void CheckWindowsAndTurn(const rules::Variant& variant) {
  using S = pattern::Shape<L>;
  for (const rules::GameRecord& record : RandomGames(variant, 30, 120, 5)) {
    const auto b = rules::internal::Board<L>::FromPosition(record.position());
    const auto wm = b.white & ~b.kings;
    const auto bm = b.black & ~b.kings;
    for (int w = 0; w < S::kWindows; ++w) {
      EXPECT_EQ(S::WindowIndex(w, wm, bm), SlowWindowIndex<L>(w, wm, bm)) << variant.id << " " << w;
    }
    EXPECT_EQ(S::Turn(S::Turn(b.white)), b.white);
    for (int square = 1; square <= L::kSquares; ++square) {
      const auto one = rules::BitAt<typename L::Bits>(L::BitOfSquare(square));
      EXPECT_EQ(S::Turn(one),
                rules::BitAt<typename L::Bits>(L::BitOfSquare(L::kSquares + 1 - square)));
    }
  }
}

TEST(EnginePatternEval, WindowIndicesAndHalfTurnMatchTheBoard) {
  CheckWindowsAndTurn<rules::Layout10>(VariantOrDie("international"));
  CheckWindowsAndTurn<rules::Layout8>(VariantOrDie("english"));
}

TEST(EnginePatternEval, WeightsFileRoundTrips) {
  for (auto [family, dimension] : {std::pair{"international", 10}, std::pair{"english", 8}}) {
    const PatternWeights w = RandomWeights(family, dimension, 11);
    const auto bytes = SerializeWeights(w);
    auto parsed = ParseWeights(bytes, family, dimension);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->family, family);
    EXPECT_EQ(parsed->board_dimension, dimension);
    EXPECT_EQ(parsed->values, w.values);
  }
}

TEST(EnginePatternEval, CorruptOrMismatchedFilesAreRefusedWithAReason) {
  const PatternWeights w = RandomWeights("international", 10, 12);
  const auto good = SerializeWeights(w);
  auto refused = [&](std::vector<std::uint8_t> bytes, std::string_view family, int dimension,
                     std::string_view reason) {
    auto parsed = ParseWeights(bytes, family, dimension);
    ASSERT_FALSE(parsed.ok()) << reason;
    EXPECT_NE(parsed.error().message.find(reason), std::string::npos) << parsed.error().message;
  };
  auto flipped = good;
  flipped[flipped.size() / 2] ^= 0x40;
  refused(flipped, "international", 10, "checksum");
  refused(std::vector<std::uint8_t>(good.begin(), good.begin() + 40), "international", 10,
          "truncated");
  refused(std::vector<std::uint8_t>(good.begin(), good.end() - 1), "international", 10,
          "truncated");
  auto magic = good;
  magic[0] = 'X';
  refused(magic, "international", 10, "magic");
  auto version = good;
  version[8] = 2;
  refused(version, "international", 10, "version");
  refused(good, "english", 10, "family");
  refused(good, "international", 8, "board");
  auto longer = good;
  longer.push_back(0);
  refused(longer, "international", 10, "trailing");
  // Weights for 8x8 relabelled as 10x10: the layout (and count) differ.
  PatternWeights small = RandomWeights("international", 8, 13);
  auto small_bytes = SerializeWeights(small);
  refused(small_bytes, "international", 10, "board");
  refused({}, "international", 10, "magic");
}

template <class L>
void CheckSymmetry(const rules::Variant& variant, const PatternWeights& weights) {
  const PatternEvaluator<L> eval(weights, EvalParamsFor(variant));
  int nonzero = 0;
  for (const rules::GameRecord& record : RandomGames(variant, 60, 150, 21)) {
    const rules::Position& p = record.position();
    const rules::Position m = Mirror(variant, p);
    const int score = eval.Evaluate(rules::internal::Board<L>::FromPosition(p),
                                    p.side_to_move() == rules::Color::kWhite);
    const int mirrored = eval.Evaluate(rules::internal::Board<L>::FromPosition(m),
                                       m.side_to_move() == rules::Color::kWhite);
    EXPECT_EQ(score, mirrored) << variant.id << " " << rules::FormatFen(p);
    nonzero += score != 0;
  }
  EXPECT_GT(nonzero, 30) << variant.id;  // the weights do act
}

TEST(EnginePatternEval, ColourSymmetricWithAnyWeights) {
  CheckSymmetry<rules::Layout10>(VariantOrDie("international"),
                                 RandomWeights("international", 10, 14));
  CheckSymmetry<rules::Layout8>(VariantOrDie("english"), RandomWeights("english", 8, 15));
}

TEST(EnginePatternEval, BuiltInWeightsLoadAndAreSymmetric) {
  // Both families ship learned weights (each beat the hand-set evaluation
  // in a match, docs/EVALUATION.md); a file that is built in must load.
  for (auto [family, dimension] : {std::pair{"english", 8}, std::pair{"international", 10}}) {
    const PatternWeights* weights = BuiltInWeights(family);
    ASSERT_NE(weights, nullptr) << BuiltInWeightsError(family);
    EXPECT_EQ(weights->board_dimension, dimension);
    EXPECT_EQ(BuiltInWeightsError(family), "");
  }
  CheckSymmetry<rules::Layout8>(VariantOrDie("english"), *BuiltInWeights("english"));
  CheckSymmetry<rules::Layout10>(VariantOrDie("international"), *BuiltInWeights("international"));
}

TEST(EnginePatternEval, RuleSetsWithoutWeightsKeepTheHandSetEvaluation) {
  EXPECT_FALSE(PatternFamily(VariantOrDie("russian")).has_value());
  EXPECT_FALSE(PatternFamily(VariantOrDie("frisian")).has_value());
  EXPECT_EQ(MakePatternEvaluator<rules::Layout8>(VariantOrDie("russian"),
                                                 EvalParamsFor(VariantOrDie("russian"))),
            nullptr);
  EXPECT_EQ(BuiltInWeights("no-such-family"), nullptr);
  EXPECT_NE(BuiltInWeightsError("no-such-family"), "");
}

TEST(EnginePatternEval, ClassicSwitchChangesTheSearchNotItsLegality) {
  // The same fixed-depth search with either evaluation returns a legal move;
  // the node counts differ because the evaluations differ.
  const rules::Variant variant = VariantOrDie("english");
  const rules::GameRecord record(variant);
  Engine engine(1);
  SearchLimits limits;
  limits.max_depth = 8;
  engine.SetClassicEvaluation(true);
  auto classic = engine.Search(record, limits);
  engine.NewGame();
  engine.SetClassicEvaluation(false);
  auto learned = engine.Search(record, limits);
  ASSERT_TRUE(classic.ok());
  ASSERT_TRUE(learned.ok());
  EXPECT_NE(classic->info.nodes, learned->info.nodes);
}

}  // namespace
}  // namespace draughts::engine
