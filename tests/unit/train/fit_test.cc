// The trainer on synthetic labels: positions scored by known weights, soft
// labels sigmoid(score / K); the fit must find weights that score held-out
// positions like the known ones, and the identifiable ones themselves.

#include "train/fit.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/eval_params.h"
#include "engine/evaluator.h"
#include "rules/layout.h"
#include "test_support.h"

namespace draughts::train {
namespace {

using L = rules::Layout8;
using S = engine::pattern::Shape<L>;

TEST(TrainFit, RecoversKnownWeightsFromSyntheticLabels) {
  const rules::Variant variant = engine::testing::VariantOrDie("english");
  const engine::EvalParams params = engine::EvalParamsFor(variant);
  const engine::Evaluator<L> classic(params);

  // Known weights: the hand-set evaluation scaled by 0.5, king material
  // (kings are outside the patterns), and one weight per window state seen.
  std::mt19937_64 rng(3);
  std::vector<float> truth(S::kWeightCount, 0.0f);
  for (int i = 0; i < S::kPatternWeights; ++i) {
    truth[static_cast<std::size_t>(i)] = static_cast<float>(static_cast<int>(rng() % 41) - 20);
  }
  float* s = truth.data() + S::kPatternWeights;
  s[2 * engine::pattern::kKingDiff] = 40;
  s[2 * engine::pattern::kKingDiff + 1] = 90;
  s[2 * engine::pattern::kClassic] = engine::pattern::kClassicScale / 2;
  s[2 * engine::pattern::kClassic + 1] = engine::pattern::kClassicScale / 2;

  constexpr double kK = 60;
  std::vector<Example<L>> examples;
  for (const rules::GameRecord& record : engine::testing::RandomGames(variant, 3000, 60, 9)) {
    const rules::Position& p = record.position();
    if (engine::pattern::ClassicOnly(
            p.CountMen(rules::Color::kWhite), p.CountKings(rules::Color::kWhite),
            p.CountMen(rules::Color::kBlack), p.CountKings(rules::Color::kBlack))) {
      continue;
    }
    auto e = MakeExample<L>(rules::internal::Board<L>::FromPosition(p), classic,
                            params.men_per_side, 0.0);
    e.target = static_cast<float>(Sigmoid(Score(truth, e) / kK));
    examples.push_back(e);
  }
  ASSERT_GT(examples.size(), 2000u);

  FitOptions options;
  options.fixed_k = kK;
  options.l2 = 0;
  options.epochs = 60;
  options.learning_rate = 1.0;
  options.batch = 64;
  options.holdout = 0.1;
  std::vector<float> w = InitialWeights<L>();
  const FitReport report = Fit<L>(examples, options, w, [](int, const FitReport&) {});

  // The best possible loss is the labels' own entropy.
  double floor = 0;
  for (std::size_t i = report.train_count; i < examples.size(); ++i) {
    floor += CrossEntropy(examples[i].target, examples[i].target);
  }
  floor /= static_cast<double>(report.holdout_count);
  EXPECT_LT(report.holdout_loss.back(), report.holdout_loss_classic);
  EXPECT_LT(report.holdout_loss.back() - floor, 0.25 * (report.holdout_loss_classic - floor));

  // Training positions get the known scores back.
  double error = 0, spread = 0;
  for (std::size_t i = 0; i < report.train_count; ++i) {
    error += std::abs(Score(w, examples[i]) - Score(truth, examples[i]));
    spread += std::abs(Score(truth, examples[i]) - Score(InitialWeights<L>(), examples[i]));
  }
  EXPECT_LT(error, 0.2 * spread);
}

// Weights are only identifiable up to what the features cannot tell apart
// (on real boards the hand-set evaluation, the man count and the patterns
// overlap), so this set is built feature by feature: window 0 takes one of
// ten states on white's side, every other window and black's side stay in
// state 0, and the material counts and the phase vary freely. The fit must
// find each state's weight relative to state 0 and both material weights
// in both phases.
TEST(TrainFit, RecoversEachIdentifiableWeight) {
  namespace p = engine::pattern;
  std::vector<float> truth(S::kWeightCount, 0.0f);
  for (int state = 1; state < 10; ++state) {
    truth[2 * state] = static_cast<float>(10 * state - 45);     // opening
    truth[2 * state + 1] = static_cast<float>(30 - 6 * state);  // ending
  }
  float* s = truth.data() + S::kPatternWeights;
  s[2 * p::kManDiff] = 70;
  s[2 * p::kManDiff + 1] = 110;
  s[2 * p::kKingDiff] = 150;
  s[2 * p::kKingDiff + 1] = 220;
  s[2 * p::kFirstKing] = 90;
  s[2 * p::kFirstKing + 1] = 40;
  s[2 * p::kBalance] = -48;  // -3 a half column
  s[2 * p::kBalance + 1] = 32;
  float* king_square = truth.data() + S::kKingSquareWeights;
  king_square[2 * 4] = 60;  // a king on square 5 (from its side)
  king_square[2 * 4 + 1] = -40;

  constexpr double kK = 80;
  std::mt19937_64 rng(17);
  std::vector<Example<L>> examples(20000);
  for (Example<L>& e : examples) {
    e.features.white_index[0] = static_cast<std::uint16_t>(rng() % 10);
    e.features.phase = static_cast<int>(rng() % (p::kPhaseMax + 1));
    e.features.man_diff = static_cast<int>(rng() % 5) - 2;
    e.features.king_diff = static_cast<int>(rng() % 3) - 1;
    e.features.first_king = static_cast<int>(rng() % 3) - 1;
    e.features.balance = static_cast<int>(rng() % 41) - 20;
    // A white king on square 5 or 6, black's on its square 5 or none.
    e.features.white_kings = rules::BitAt<L::Bits>(L::BitOfIndex(4 + static_cast<int>(rng() % 2)));
    e.features.black_kings_turned = rng() % 2 ? rules::BitAt<L::Bits>(L::BitOfIndex(4)) : 0;
    e.classic = 0;
    e.target = static_cast<float>(Sigmoid(Score(truth, e) / kK));
  }
  FitOptions options;
  options.fixed_k = kK;
  options.l2 = 0;
  options.epochs = 15;
  options.batch = 64;
  options.learning_rate = 0.5;
  std::vector<float> w = InitialWeights<L>();
  const FitReport report = Fit<L>(examples, options, w, [](int, const FitReport&) {});
  EXPECT_LT(report.holdout_loss.back(), report.holdout_loss_classic);

  for (int state = 1; state < 10; ++state) {
    for (int phase = 0; phase < 2; ++phase) {
      EXPECT_NEAR(w[2 * state + phase] - w[phase], truth[2 * state + phase], 3.0)
          << "state " << state << " phase " << phase;
    }
  }
  const float* fitted = w.data() + S::kPatternWeights;
  for (int i : {2 * p::kManDiff, 2 * p::kManDiff + 1, 2 * p::kKingDiff, 2 * p::kKingDiff + 1,
                2 * p::kFirstKing, 2 * p::kFirstKing + 1, 2 * p::kBalance, 2 * p::kBalance + 1}) {
    EXPECT_NEAR(fitted[i], s[i], 0.05 * std::abs(s[i])) << "scalar " << i;
  }
  // Square 5's weight is seen apart from square 6's (the king count is not
  // tied to it), so the difference of the two is identifiable.
  const float* fitted_square = w.data() + S::kKingSquareWeights;
  for (int phase = 0; phase < 2; ++phase) {
    EXPECT_NEAR(fitted_square[2 * 4 + phase] - fitted_square[2 * 5 + phase],
                king_square[2 * 4 + phase], 3.0)
        << "king square 5, phase " << phase;
  }
}

// --freeze-material, --freeze-classic and --freeze-patterns: labels that
// call for other weights must leave the frozen ones at their start while
// the rest still learns.
TEST(TrainFit, FrozenScalarsKeepTheirStartWhileTheRestLearns) {
  namespace p = engine::pattern;
  std::vector<float> truth(S::kWeightCount, 0.0f);
  for (int state = 1; state < 10; ++state) truth[2 * state] = static_cast<float>(10 * state - 45);
  float* s = truth.data() + S::kPatternWeights;
  s[2 * p::kManDiff] = 70;
  s[2 * p::kKingDiff + 1] = 200;
  s[2 * p::kClassic] = p::kClassicScale / 2;
  s[2 * p::kClassic + 1] = 2 * p::kClassicScale;
  s[2 * p::kFirstKing + 1] = 120;

  constexpr double kK = 80;
  std::mt19937_64 rng(23);
  std::vector<Example<L>> examples(8000);
  for (Example<L>& e : examples) {
    e.features.white_index[0] = static_cast<std::uint16_t>(rng() % 10);
    e.features.phase = static_cast<int>(rng() % (p::kPhaseMax + 1));
    e.features.man_diff = static_cast<int>(rng() % 5) - 2;
    e.features.king_diff = static_cast<int>(rng() % 3) - 1;
    e.features.first_king = static_cast<int>(rng() % 3) - 1;
    e.classic = static_cast<float>(static_cast<int>(rng() % 201) - 100);
    e.target = static_cast<float>(Sigmoid(Score(truth, e) / kK));
  }
  for (int flags = 0; flags < 8; ++flags) {
    const bool freeze_material = flags & 1;
    const bool freeze_classic = flags & 2;
    const bool freeze_patterns = flags & 4;
    FitOptions options;
    options.fixed_k = kK;
    options.l2 = 0;
    options.epochs = 4;
    options.batch = 64;
    options.freeze_material = freeze_material;
    options.freeze_classic = freeze_classic;
    options.freeze_patterns = freeze_patterns;
    const std::vector<float> start = InitialWeights<L>();
    std::vector<float> w = start;
    std::vector<Example<L>> copy = examples;
    const FitReport report = Fit<L>(copy, options, w, [](int, const FitReport&) {});
    EXPECT_LT(report.holdout_loss.back(), report.holdout_loss_classic) << flags;
    if (freeze_patterns) {
      for (int i = 0; i < S::kPatternWeights; ++i) ASSERT_EQ(w[i], start[i]) << "pattern " << i;
    } else {
      EXPECT_NE(w[2 * 9] - w[0], start[2 * 9] - start[0]) << "patterns must still learn";
    }
    const float* fitted = w.data() + S::kPatternWeights;
    const float* initial = start.data() + S::kPatternWeights;
    for (int i = 0; i < 2 * p::kScalarCount; ++i) {
      const int scalar = i / 2;
      const bool frozen = scalar == p::kClassic                               ? freeze_classic
                          : (scalar == p::kManDiff || scalar == p::kKingDiff) ? freeze_material
                                                                              : false;
      if (frozen) {
        EXPECT_EQ(fitted[i], initial[i]) << "scalar " << i << " flags " << flags;
      } else if (s[i] != initial[i]) {
        EXPECT_NE(fitted[i], initial[i]) << "scalar " << i << " flags " << flags;
      }
    }
  }
}

}  // namespace
}  // namespace draughts::train
