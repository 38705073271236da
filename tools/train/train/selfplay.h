#pragma once

// Self-play games for training the evaluation: each game starts with a few
// random plies from the initial position (variety), then the engine plays
// both sides at a small fixed node budget. Quiet positions (no capture for
// either side) after the random plies are kept, each with the engine's
// search score, and labelled with the game's result once it ends.

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/engine.h"
#include "rules/variant.h"
#include "train/training_data.h"

namespace draughts::train {

struct SelfPlayOptions {
  int min_random_plies = 2;
  int max_random_plies = 8;
  std::int64_t nodes_per_move = 3000;
  // A game still running after this many plies is scored a draw.
  int max_plies = 400;
  // Keep each quiet position with this probability (neighbouring plies are
  // much alike).
  double sample_rate = 0.5;
  // The hand-set evaluation only (the first generation), or the built-in
  // weights when the rule set has them.
  bool classic_eval = true;
};

// Neither side to move could capture: the evaluation sees what a search
// leaf sees.
bool IsQuiet(const rules::Variant& variant, const rules::Position& position);

struct GameSamples {
  std::vector<Sample> samples;
  int plies = 0;
  double result = 0.5;  // for white
};

GameSamples PlaySelfPlayGame(const rules::Variant& variant, const SelfPlayOptions& options,
                             engine::Engine& engine, std::uint64_t seed);

}  // namespace draughts::train
