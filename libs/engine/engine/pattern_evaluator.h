#pragma once

// The learned evaluation (pattern_features.h, weights from tools/train):
// per-window pattern weights plus material, king terms, the wings' balance
// and the hand-set evaluation as one more learned input, each with an
// opening and an ending weight, blended by the number of men left. Scores are in the hand-set
// evaluation's units (hundredths of a man) because the trainer starts from
// it (classic weight 1, everything else 0) and keeps its logistic scale.

#include <cstdint>
#include <memory>

#include "engine/evaluator.h"
#include "engine/pattern_features.h"
#include "engine/pattern_weights.h"

namespace draughts::engine {

template <class L>
class PatternEvaluator {
 public:
  using Board = rules::internal::Board<L>;
  using S = pattern::Shape<L>;

  // `weights` must outlive the evaluator and hold S::kWeightCount values.
  PatternEvaluator(const PatternWeights& weights, const EvalParams& params)
      : w_(weights.values.data()),
        classic_(params),
        men_per_side_(params.men_per_side),
        king_and_balance_(UsesKingAndBalanceTerms(weights)) {}

  // From the point of view of the side to move.
  int Evaluate(const Board& b, bool white_to_move) const {
    const int white_view = EvaluateForWhite(b);
    return white_to_move ? white_view : -white_view;
  }

  int EvaluateForWhite(const Board& b) const {
    const int classic = classic_.EvaluateForWhite(b);
    const auto wm = b.white & ~b.kings;
    const auto bm = b.black & ~b.kings;
    const int wm_n = rules::PopCount(wm);
    const int bm_n = rules::PopCount(bm);
    const int wk_n = rules::PopCount(b.white & b.kings);
    const int bk_n = rules::PopCount(b.black & b.kings);
    if (pattern::ClassicOnly(wm_n, wk_n, bm_n, bk_n)) return classic;

    const auto f = pattern::ExtractFeatures<L>(b, men_per_side_, king_and_balance_);
    int mg = 0;
    int eg = 0;
    for (int w = 0; w < S::kWindows; ++w) {
      const std::int16_t* plus = w_ + 2 * (w * pattern::kWindowStates + f.white_index[w]);
      const std::int16_t* minus = w_ + 2 * (w * pattern::kWindowStates + f.black_index[w]);
      mg += plus[0] - minus[0];
      eg += plus[1] - minus[1];
    }
    const std::int16_t* s = w_ + S::kPatternWeights;
    for (int phase = 0; phase < 2; ++phase) {
      const int terms = s[2 * pattern::kManDiff + phase] * f.man_diff +
                        s[2 * pattern::kKingDiff + phase] * f.king_diff +
                        s[2 * pattern::kClassic + phase] * classic / pattern::kClassicScale +
                        s[2 * pattern::kFirstKing + phase] * f.first_king +
                        s[2 * pattern::kBalance + phase] * f.balance / pattern::kBalanceScale;
      (phase == 0 ? mg : eg) += terms;
    }
    const std::int16_t* king_square = w_ + S::kKingSquareWeights;
    pattern::ForEachKingSquare<L>(f.white_kings, [&](int square) {
      mg += king_square[2 * square];
      eg += king_square[2 * square + 1];
    });
    pattern::ForEachKingSquare<L>(f.black_kings_turned, [&](int square) {
      mg -= king_square[2 * square];
      eg -= king_square[2 * square + 1];
    });
    return (mg * f.phase + eg * (pattern::kPhaseMax - f.phase)) / pattern::kPhaseMax;
  }

 private:
  // Weights of the first layout give the king and balance terms nothing.
  static bool UsesKingAndBalanceTerms(const PatternWeights& weights) {
    const auto first = weights.values.begin() + S::kPatternWeights;
    for (auto it = first + 2 * pattern::kFirstKing; it != weights.values.end(); ++it) {
      if (*it != 0) return true;
    }
    return false;
  }

  const std::int16_t* w_;
  Evaluator<L> classic_;
  int men_per_side_;
  bool king_and_balance_;
};

// The learned evaluation of `variant`, or null when it has no built-in
// weights (or they failed to load: BuiltInWeightsError).
template <class L>
std::unique_ptr<PatternEvaluator<L>> MakePatternEvaluator(const rules::Variant& variant,
                                                          const EvalParams& params) {
  const auto family = PatternFamily(variant);
  if (!family) return nullptr;
  const PatternWeights* weights = BuiltInWeights(*family);
  if (weights == nullptr || weights->board_dimension != L::kSize) return nullptr;
  return std::make_unique<PatternEvaluator<L>>(*weights, params);
}

}  // namespace draughts::engine
