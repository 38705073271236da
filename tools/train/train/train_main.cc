// train: fits the pattern evaluation to selfplay positions and writes the
// weights file the engine builds in (docs/EVALUATION.md).
//
//   train --variant=international --data=FILE [--data=FILE]... --out=FILE
//         [--epochs=8] [--lr=1.0] [--l2=1e-4] [--batch=256] [--holdout=0.05]
//         [--lambda=1.0] [--freeze-material=0|1] [--freeze-classic=0|1]
//         [--shuffle-holdout=0|1] [--seed=1] [--init=WEIGHTS] [--freeze-patterns=0|1]
//
// --lambda blends the label: lambda * game result + (1 - lambda) *
// sigmoid(search score / K). --init starts from an earlier weights file
// (of either layout, pattern_weights.h) instead of the hand-set
// evaluation; with --freeze-patterns=1 only the other terms then learn.
// Prints K, the held-out loss of the hand-set evaluation, of the start and
// of the learned weights after each epoch.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "engine/eval_params.h"
#include "engine/evaluator.h"
#include "engine/pattern_features.h"
#include "engine/pattern_weights.h"
#include "rules/layout.h"
#include "rules/variant.h"
#include "train/fit.h"
#include "train/training_data.h"

namespace {

using namespace draughts;

int Usage(std::string_view why) {
  std::cerr << "train: " << why << "\n"
            << "usage: train --variant=ID --data=FILE [--data=FILE]... --out=FILE [--epochs=N]\n"
               "             [--lr=X] [--l2=X] [--batch=N] [--holdout=X] [--lambda=X] [--seed=N]\n"
               "             [--init=WEIGHTS] [--freeze-patterns=0|1]\n";
  return 2;
}

struct Args {
  std::vector<std::string> data;
  std::string out;
  std::string init;
  double lambda = 1.0;
  train::FitOptions fit;
};

template <class L>
int Run(const rules::Variant& variant, std::string_view family, const Args& args) {
  const auto start = std::chrono::steady_clock::now();
  const engine::EvalParams params = engine::EvalParamsFor(variant);
  const engine::Evaluator<L> classic(params);
  std::vector<train::Example<L>> examples;
  std::vector<float> scores;
  long long lines = 0, skipped = 0;
  for (const std::string& path : args.data) {
    std::ifstream in(path);
    if (!in) return Usage("cannot read " + path);
    std::string line;
    while (std::getline(in, line)) {
      ++lines;
      auto sample = train::ParseSample(variant, line);
      if (!sample.ok()) {
        std::cerr << "train: " << path << ":" << lines << ": " << sample.error().message << "\n";
        return 1;
      }
      const auto& p = sample->position;
      if (engine::pattern::ClassicOnly(
              p.CountMen(rules::Color::kWhite), p.CountKings(rules::Color::kWhite),
              p.CountMen(rules::Color::kBlack), p.CountKings(rules::Color::kBlack))) {
        ++skipped;
        continue;
      }
      examples.push_back(train::MakeExample<L>(rules::internal::Board<L>::FromPosition(p), classic,
                                               params.men_per_side, sample->result));
      scores.push_back(static_cast<float>(sample->score));
    }
  }
  if (examples.size() < 100) return Usage("fewer than 100 usable positions");
  std::printf("train %s: %zu positions (%lld skipped: no man or a lone piece)\n", variant.id.data(),
              examples.size(), skipped);

  train::FitOptions fit = args.fit;
  if (args.lambda < 1.0) {
    // Blend in the search score, on the scale the results give the
    // hand-set evaluation.
    const double k = train::FitScale(examples, examples.size());
    for (std::size_t i = 0; i < examples.size(); ++i) {
      examples[i].target = static_cast<float>(args.lambda * examples[i].target +
                                              (1 - args.lambda) * train::Sigmoid(scores[i] / k));
    }
    fit.fixed_k = k;
  }
  std::vector<float> w = train::InitialWeights<L>();
  if (!args.init.empty()) {
    std::ifstream in(args.init, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    auto start = engine::ParseWeights(bytes, family, L::kSize);
    if (!start.ok()) return Usage("--init: " + start.error().message);
    w.assign(start->values.begin(), start->values.end());
  }
  const auto report = train::Fit<L>(examples, fit, w, [&](int epoch, const train::FitReport& r) {
    if (epoch == 0) {
      std::printf(
          "K = %.1f; held-out loss of the hand-set evaluation: %.5f, of the start: %.5f (%zu "
          "train, %zu held out)\n",
          r.k, r.holdout_loss_classic, r.holdout_loss_start, r.train_count, r.holdout_count);
    }
    std::printf("epoch %d: train loss %.5f, held-out loss %.5f\n", epoch + 1, r.train_loss.back(),
                r.holdout_loss.back());
    std::fflush(stdout);
  });
  using S = engine::pattern::Shape<L>;
  namespace p = engine::pattern;
  const float* s = w.data() + S::kPatternWeights;
  std::printf(
      "man %+.1f/%+.1f, king %+.1f/%+.1f, first king %+.1f/%+.1f, balance %+.2f/%+.2f a half "
      "column, hand-set x%.3f/x%.3f (opening/ending)\n",
      s[2 * p::kManDiff], s[2 * p::kManDiff + 1], s[2 * p::kKingDiff], s[2 * p::kKingDiff + 1],
      s[2 * p::kFirstKing], s[2 * p::kFirstKing + 1], s[2 * p::kBalance] / p::kBalanceScale,
      s[2 * p::kBalance + 1] / p::kBalanceScale, s[2 * p::kClassic] / p::kClassicScale,
      s[2 * p::kClassic + 1] / p::kClassicScale);
  std::printf("king squares (opening/ending), square 1 first:");
  for (int square = 0; square < L::kSquares; ++square) {
    const float* k = w.data() + S::kKingSquareWeights + 2 * square;
    std::printf(" %.0f/%.0f", k[0], k[1]);
  }
  std::printf("\n");

  engine::PatternWeights weights;
  weights.family = std::string(family);
  weights.board_dimension = L::kSize;
  weights.values = train::Quantize(w);
  const auto bytes = engine::SerializeWeights(weights);
  std::ofstream out(args.out, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) return Usage("cannot write " + args.out);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("wrote %s (%zu bytes) in %.0f s\n", args.out.c_str(), bytes.size(), secs);
  return report.holdout_loss.empty() ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string variant_id = "international";
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string_view::npos) return Usage("bad argument '" + std::string(arg) + "'");
    const std::string_view flag = arg.substr(0, eq);
    const std::string value(arg.substr(eq + 1));
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    const bool numeric = !value.empty() && *end == '\0';
    if (flag == "--variant") {
      variant_id = value;
    } else if (flag == "--data") {
      args.data.push_back(value);
    } else if (flag == "--out") {
      args.out = value;
    } else if (flag == "--init") {
      args.init = value;
    } else if (!numeric) {
      return Usage("bad " + std::string(flag));
    } else if (flag == "--epochs" && number >= 1 && number <= 1000) {
      args.fit.epochs = static_cast<int>(number);
    } else if (flag == "--lr" && number > 0) {
      args.fit.learning_rate = number;
    } else if (flag == "--l2" && number >= 0) {
      args.fit.l2 = number;
    } else if (flag == "--batch" && number >= 1) {
      args.fit.batch = static_cast<int>(number);
    } else if (flag == "--holdout" && number > 0 && number < 1) {
      args.fit.holdout = number;
    } else if (flag == "--lambda" && number >= 0 && number <= 1) {
      args.lambda = number;
    } else if (flag == "--freeze-material" && (number == 0 || number == 1)) {
      args.fit.freeze_material = number == 1;
    } else if (flag == "--freeze-classic" && (number == 0 || number == 1)) {
      args.fit.freeze_classic = number == 1;
    } else if (flag == "--freeze-patterns" && (number == 0 || number == 1)) {
      args.fit.freeze_patterns = number == 1;
    } else if (flag == "--shuffle-holdout" && (number == 0 || number == 1)) {
      args.fit.shuffle_before_holdout = number == 1;
    } else if (flag == "--seed" && number >= 0) {
      args.fit.seed = static_cast<std::uint64_t>(number);
    } else {
      return Usage("bad or unknown " + std::string(flag));
    }
  }
  if (args.data.empty() || args.out.empty()) return Usage("--data and --out are required");
  auto variant = rules::FindVariant(variant_id);
  if (!variant.ok()) return Usage(variant.error().message);
  const auto family = engine::PatternFamily(*variant);
  if (!family) return Usage("no pattern family for " + variant_id);
  if (variant->board == rules::BoardSize::k10x10)
    return Run<rules::Layout10>(*variant, *family, args);
  if (variant->board == rules::BoardSize::k8x8) return Run<rules::Layout8>(*variant, *family, args);
  return Usage("patterns exist only for 8x8 and 10x10 boards");
}
