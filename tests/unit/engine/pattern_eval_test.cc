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

// A file of the first layout (patterns, material, hand-set weight only),
// written as the trainer wrote them before the king and balance terms.
std::vector<std::uint8_t> LegacyFile(const PatternWeights& w) {
  auto bytes = SerializeWeights(w);
  const std::size_t layout_at = 8 + 4 + 4 + w.family.size() + 4;
  const std::uint64_t legacy = LegacyPatternLayoutHash(w.board_dimension);
  for (int i = 0; i < 8; ++i) bytes[layout_at + i] = static_cast<std::uint8_t>(legacy >> (8 * i));
  const std::size_t legacy_count =
      w.values.size() - 2 * (pattern::kScalarCount - pattern::kLegacyScalarCount) -
      2 * static_cast<std::size_t>(w.board_dimension * w.board_dimension / 2);
  for (int i = 0; i < 4; ++i) {
    bytes[layout_at + 8 + i] = static_cast<std::uint8_t>(legacy_count >> (8 * i));
  }
  bytes.resize(layout_at + 8 + 4 + 2 * legacy_count);
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a 64, as the format says
  for (std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<std::uint8_t>(h >> (8 * i)));
  return bytes;
}

TEST(EnginePatternEval, FirstLayoutFilesReadWithTheNewTermsAtZero) {
  const PatternWeights w = RandomWeights("international", 10, 16);
  const std::size_t legacy_count = pattern::Shape<rules::Layout10>::kLegacyWeightCount;
  auto parsed = ParseWeights(LegacyFile(w), "international", 10);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->values.size(), w.values.size());
  for (std::size_t i = 0; i < w.values.size(); ++i) {
    ASSERT_EQ(parsed->values[i], i < legacy_count ? w.values[i] : 0) << i;
  }
  // The first layout's hash with today's weight count is neither layout.
  auto mixed = LegacyFile(w);
  mixed[8 + 4 + 4 + 13 + 4] ^= 1;
  EXPECT_FALSE(ParseWeights(mixed, "international", 10).ok());
}

// The king and wing terms, read off a hand-made position: every other
// weight is 0, so the score is exactly what they say.
TEST(EnginePatternEval, KingSquaresFirstKingAndBalanceScoreAsDocumented) {
  using L = rules::Layout10;
  using S = pattern::Shape<L>;
  const rules::Variant variant = VariantOrDie("international");
  PatternWeights w;
  w.family = "international";
  w.board_dimension = 10;
  w.values.assign(S::kWeightCount, 0);
  std::int16_t* s = w.values.data() + S::kPatternWeights;
  s[2 * pattern::kFirstKing] = 100;      // opening
  s[2 * pattern::kFirstKing + 1] = 300;  // ending
  s[2 * pattern::kBalance] = 2 * pattern::kBalanceScale;
  s[2 * pattern::kBalance + 1] = 2 * pattern::kBalanceScale;
  std::int16_t* king_square = w.values.data() + S::kKingSquareWeights;
  king_square[2 * (28 - 1)] = 7;  // a king on square 28, from its own side
  king_square[2 * (28 - 1) + 1] = 7;
  king_square[2 * (23 - 1)] = 11;
  king_square[2 * (23 - 1) + 1] = 11;
  const PatternEvaluator<L> eval(w, EvalParamsFor(variant));

  // White: a king on 28, men on 46 and 50 (columns 0 and 8: -9 and +7, a
  // skew of -2); black: a king on 23 (square 28 from black's side) and men
  // on 1 and 6 (columns 1 and 0: -7 and -9, a skew of -16). Both have a
  // king, so the first-king term is 0; the kings on the same square from
  // their sides cancel; balance = |-16| - |-2| = 14, times 2.
  auto position = rules::ParseFen(variant, "W:WK28,46,50:BK23,1,6");
  ASSERT_TRUE(position.ok()) << position.error().message;
  const auto board = rules::internal::Board<L>::FromPosition(*position);
  const auto f = pattern::ExtractFeatures<L>(board, 20);
  EXPECT_EQ(f.balance, 14);
  EXPECT_EQ(f.first_king, 0);
  EXPECT_EQ(eval.EvaluateForWhite(board), 28);

  // Without black's king: white alone has one (+100 opening, +300 ending,
  // blended by 5 men of 40: phase 8 of 64), its king on 28 counts 7, and
  // black's men on 1, 6 and 10 have a skew of -7 - 9 + 7 = -9.
  auto no_black_king = rules::ParseFen(variant, "W:WK28,46,50:B1,6,10");
  ASSERT_TRUE(no_black_king.ok());
  const auto board2 = rules::internal::Board<L>::FromPosition(*no_black_king);
  const auto f2 = pattern::ExtractFeatures<L>(board2, 20);
  EXPECT_EQ(f2.first_king, 1);
  EXPECT_EQ(f2.balance, 9 - 2);
  EXPECT_EQ(f2.phase, 8);
  const int phase = f2.phase;
  const int mg = 100 + 7 + 2 * f2.balance;
  const int eg = 300 + 7 + 2 * f2.balance;
  EXPECT_EQ(eval.EvaluateForWhite(board2),
            (mg * phase + eg * (pattern::kPhaseMax - phase)) / pattern::kPhaseMax);
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
