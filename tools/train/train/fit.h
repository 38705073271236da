#pragma once

// Fits the pattern evaluation's weights (engine/pattern_features.h) to
// labelled positions: logistic regression of the label on
// sigmoid(score / K), score being exactly what PatternEvaluator computes
// (in floating point), minimised by Adam over mini-batches with an L2
// penalty on the pattern weights. K is fitted first so that the hand-set
// evaluation alone predicts the labels best; training then starts from it
// (classic weight 1, everything else 0) or from an earlier set's weights,
// so the learned weights stay in the hand-set evaluation's units.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "engine/eval_params.h"
#include "engine/evaluator.h"
#include "engine/pattern_features.h"

namespace draughts::train {

template <class L>
struct Example {
  engine::pattern::Features<L> features;
  float classic = 0;  // the hand-set evaluation, for white
  float target = 0;   // 0..1, for white
};

struct FitOptions {
  int epochs = 8;
  int batch = 256;
  double learning_rate = 1.0;  // Adam step, in weight units (hundredths of a man)
  double l2 = 1e-4;            // per pattern weight, on the mean loss
  double holdout = 0.05;       // share of examples kept out for the loss
  double fixed_k = 0;          // > 0: use this K instead of fitting it
  // Keep the man and king weights at their start (0): material is then
  // valued by the hand-set evaluation alone, as rescaled by its weight.
  bool freeze_material = false;
  // Keep the hand-set evaluation's weight at 1 in both phases, so that only
  // the patterns (and material, unless frozen) are learned. On International
  // this lost to the learned rescaling (docs/BENCHMARKS.md).
  bool freeze_classic = false;
  // Keep the pattern tables at their start (with --init, the weights of an
  // earlier set), so that only the scalars and the king squares learn.
  bool freeze_patterns = false;
  // Shuffle all examples before setting the held-out share apart (the
  // held-out loss then shares games with training, so it flatters; kept to
  // rebuild data/eval/english-v1.weights exactly).
  bool shuffle_before_holdout = false;
  std::uint64_t seed = 1;
};

struct FitReport {
  double k = 0;
  std::size_t train_count = 0;
  std::size_t holdout_count = 0;
  double holdout_loss_classic = 0;   // the hand-set evaluation
  double holdout_loss_start = 0;     // the weights training starts from
  std::vector<double> holdout_loss;  // after each epoch
  std::vector<double> train_loss;
};

inline double Sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

inline double CrossEntropy(double p, double t) {
  p = std::clamp(p, 1e-9, 1 - 1e-9);
  return -(t * std::log(p) + (1 - t) * std::log(1 - p));
}

template <class L>
Example<L> MakeExample(const rules::internal::Board<L>& board, const engine::Evaluator<L>& classic,
                       int men_per_side, double target) {
  Example<L> e;
  e.features = engine::pattern::ExtractFeatures<L>(board, men_per_side);
  e.classic = static_cast<float>(classic.EvaluateForWhite(board));
  e.target = static_cast<float>(target);
  return e;
}

// The score PatternEvaluator gives, with real-valued weights.
template <class L>
double Score(const std::vector<float>& w, const Example<L>& e) {
  using S = engine::pattern::Shape<L>;
  namespace p = engine::pattern;
  double mg = 0, eg = 0;
  for (int i = 0; i < S::kWindows; ++i) {
    const std::size_t plus =
        2 * (static_cast<std::size_t>(i) * p::kWindowStates + e.features.white_index[i]);
    const std::size_t minus =
        2 * (static_cast<std::size_t>(i) * p::kWindowStates + e.features.black_index[i]);
    mg += w[plus] - w[minus];
    eg += w[plus + 1] - w[minus + 1];
  }
  const float* s = w.data() + S::kPatternWeights;
  const double classic = e.classic / p::kClassicScale;
  const double balance = static_cast<double>(e.features.balance) / p::kBalanceScale;
  for (int phase = 0; phase < 2; ++phase) {
    (phase == 0 ? mg : eg) +=
        s[2 * p::kManDiff + phase] * e.features.man_diff +
        s[2 * p::kKingDiff + phase] * e.features.king_diff + s[2 * p::kClassic + phase] * classic +
        s[2 * p::kFirstKing + phase] * e.features.first_king + s[2 * p::kBalance + phase] * balance;
  }
  const float* king_square = w.data() + S::kKingSquareWeights;
  p::ForEachKingSquare<L>(e.features.white_kings, [&](int square) {
    mg += king_square[2 * square];
    eg += king_square[2 * square + 1];
  });
  p::ForEachKingSquare<L>(e.features.black_kings_turned, [&](int square) {
    mg -= king_square[2 * square];
    eg -= king_square[2 * square + 1];
  });
  const double a = static_cast<double>(e.features.phase) / p::kPhaseMax;
  return mg * a + eg * (1 - a);
}

// Adds d(score)/d(w) * g to grad.
template <class L>
void AddGradient(const Example<L>& e, double g, std::vector<double>& grad) {
  using S = engine::pattern::Shape<L>;
  namespace p = engine::pattern;
  const double a = static_cast<double>(e.features.phase) / p::kPhaseMax;
  const double gm = g * a, ge = g * (1 - a);
  for (int i = 0; i < S::kWindows; ++i) {
    const std::size_t plus =
        2 * (static_cast<std::size_t>(i) * p::kWindowStates + e.features.white_index[i]);
    const std::size_t minus =
        2 * (static_cast<std::size_t>(i) * p::kWindowStates + e.features.black_index[i]);
    grad[plus] += gm;
    grad[plus + 1] += ge;
    grad[minus] -= gm;
    grad[minus + 1] -= ge;
  }
  double* s = grad.data() + S::kPatternWeights;
  const double classic = e.classic / p::kClassicScale;
  const double balance = static_cast<double>(e.features.balance) / p::kBalanceScale;
  const double values[p::kScalarCount] = {static_cast<double>(e.features.man_diff),
                                          static_cast<double>(e.features.king_diff), classic,
                                          static_cast<double>(e.features.first_king), balance};
  for (int i = 0; i < p::kScalarCount; ++i) {
    s[2 * i] += gm * values[i];
    s[2 * i + 1] += ge * values[i];
  }
  double* king_square = grad.data() + S::kKingSquareWeights;
  p::ForEachKingSquare<L>(e.features.white_kings, [&](int square) {
    king_square[2 * square] += gm;
    king_square[2 * square + 1] += ge;
  });
  p::ForEachKingSquare<L>(e.features.black_kings_turned, [&](int square) {
    king_square[2 * square] -= gm;
    king_square[2 * square + 1] -= ge;
  });
}

template <class L>
double MeanLoss(const std::vector<float>& w, const std::vector<Example<L>>& examples,
                std::size_t begin, std::size_t end, double k) {
  double sum = 0;
  for (std::size_t i = begin; i < end; ++i) {
    sum += CrossEntropy(Sigmoid(Score(w, examples[i]) / k), examples[i].target);
  }
  return end > begin ? sum / static_cast<double>(end - begin) : 0;
}

// The K for which sigmoid(classic / K) predicts the targets best (golden
// section search on log K).
template <class L>
double FitScale(const std::vector<Example<L>>& examples, std::size_t end) {
  auto loss = [&](double log_k) {
    const double k = std::exp(log_k);
    double sum = 0;
    for (std::size_t i = 0; i < end; ++i) {
      sum += CrossEntropy(Sigmoid(examples[i].classic / k), examples[i].target);
    }
    return sum;
  };
  double lo = std::log(5.0), hi = std::log(5000.0);
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
  double f1 = loss(x1), f2 = loss(x2);
  for (int it = 0; it < 40; ++it) {
    if (f1 < f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - phi * (hi - lo);
      f1 = loss(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + phi * (hi - lo);
      f2 = loss(x2);
    }
  }
  return std::exp((lo + hi) / 2);
}

// The starting weights: the hand-set evaluation, unchanged.
template <class L>
std::vector<float> InitialWeights() {
  using S = engine::pattern::Shape<L>;
  std::vector<float> w(S::kWeightCount, 0.0f);
  w[S::kPatternWeights + 2 * engine::pattern::kClassic] = engine::pattern::kClassicScale;
  w[S::kPatternWeights + 2 * engine::pattern::kClassic + 1] = engine::pattern::kClassicScale;
  return w;
}

// Whether weight `j` keeps its start under `options`.
template <class L>
bool Frozen(std::size_t j, const FitOptions& options) {
  using S = engine::pattern::Shape<L>;
  namespace p = engine::pattern;
  if (j < static_cast<std::size_t>(S::kPatternWeights)) return options.freeze_patterns;
  if (j >= static_cast<std::size_t>(S::kKingSquareWeights)) return false;
  const auto scalar = static_cast<int>(j - S::kPatternWeights) / 2;
  if (scalar == p::kManDiff || scalar == p::kKingDiff) return options.freeze_material;
  if (scalar == p::kClassic) return options.freeze_classic;
  return false;
}

// Fits `w` in place and reports the losses. The last options.holdout
// share of `examples` is held out: keep them in file order, so the held-out
// positions come from other games than the trained ones (positions of one
// game are alike). `on_epoch` may print progress.
template <class L, class OnEpoch>
FitReport Fit(std::vector<Example<L>>& examples, const FitOptions& options, std::vector<float>& w,
              OnEpoch&& on_epoch) {
  using S = engine::pattern::Shape<L>;
  std::mt19937_64 rng(options.seed);
  if (options.shuffle_before_holdout) std::shuffle(examples.begin(), examples.end(), rng);
  FitReport report;
  const auto holdout =
      static_cast<std::size_t>(static_cast<double>(examples.size()) * options.holdout);
  const std::size_t train_end = examples.size() - holdout;
  report.train_count = train_end;
  report.holdout_count = holdout;
  report.k = options.fixed_k > 0 ? options.fixed_k : FitScale(examples, train_end);
  const double k = report.k;
  report.holdout_loss_classic =
      MeanLoss(InitialWeights<L>(), examples, train_end, examples.size(), k);
  report.holdout_loss_start = MeanLoss(w, examples, train_end, examples.size(), k);

  const std::size_t n = w.size();
  std::vector<double> grad(n, 0.0), m(n, 0.0), v(n, 0.0);
  const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  std::int64_t step = 0;
  std::vector<std::size_t> order(train_end);
  for (std::size_t i = 0; i < train_end; ++i) order[i] = i;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    double train_sum = 0;
    for (std::size_t b = 0; b < train_end; b += static_cast<std::size_t>(options.batch)) {
      const std::size_t e = std::min(train_end, b + static_cast<std::size_t>(options.batch));
      const double scale = 1.0 / static_cast<double>(e - b);
      for (std::size_t i = b; i < e; ++i) {
        const Example<L>& ex = examples[order[i]];
        const double p = Sigmoid(Score(w, ex) / k);
        train_sum += CrossEntropy(p, ex.target);
        AddGradient(ex, (p - ex.target) / k * scale, grad);
      }
      ++step;
      const double c1 = 1 - std::pow(beta1, static_cast<double>(step));
      const double c2 = 1 - std::pow(beta2, static_cast<double>(step));
      for (std::size_t j = 0; j < n; ++j) {
        double g = grad[j];
        if (j < static_cast<std::size_t>(S::kPatternWeights)) g += options.l2 * w[j];
        if (Frozen<L>(j, options)) g = 0;
        grad[j] = 0;
        if (g == 0 && m[j] == 0) continue;  // untouched pattern, nothing to move
        m[j] = beta1 * m[j] + (1 - beta1) * g;
        v[j] = beta2 * v[j] + (1 - beta2) * g * g;
        w[j] -=
            static_cast<float>(options.learning_rate * (m[j] / c1) / (std::sqrt(v[j] / c2) + eps));
      }
    }
    report.train_loss.push_back(train_end ? train_sum / static_cast<double>(train_end) : 0);
    report.holdout_loss.push_back(MeanLoss(w, examples, train_end, examples.size(), k));
    on_epoch(epoch, report);
  }
  return report;
}

// The weights as the engine stores them (int16, rounded and clamped).
inline std::vector<std::int16_t> Quantize(const std::vector<float>& w) {
  std::vector<std::int16_t> q(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    q[i] = static_cast<std::int16_t>(std::clamp(std::lround(w[i]), -32767L, 32767L));
  }
  return q;
}

}  // namespace draughts::train
