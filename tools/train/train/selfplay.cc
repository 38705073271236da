#include "train/selfplay.h"

#include <random>

#include "rules/game.h"
#include "rules/movegen.h"

namespace draughts::train {

bool IsQuiet(const rules::Variant& variant, const rules::Position& position) {
  if (rules::HasCapture(variant, position)) return false;
  const rules::Position other_side =
      rules::Position::FromBits(position.board(), rules::Opponent(position.side_to_move()),
                                position.white(), position.black(), position.kings());
  return !rules::HasCapture(variant, other_side);
}

GameSamples PlaySelfPlayGame(const rules::Variant& variant, const SelfPlayOptions& options,
                             engine::Engine& engine, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  GameSamples game;
  rules::GameRecord record(variant);
  engine.NewGame();
  engine.SetClassicEvaluation(options.classic_eval);

  const int random_plies =
      std::uniform_int_distribution<int>(options.min_random_plies, options.max_random_plies)(rng);
  std::bernoulli_distribution keep(options.sample_rate);
  while (!record.is_over() && record.ply_count() < options.max_plies) {
    rules::Move move;
    if (record.ply_count() < random_plies) {
      const auto& legal = record.legal_moves();
      move = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    } else {
      engine::SearchLimits limits;
      limits.max_nodes = options.nodes_per_move;
      auto searched = engine.Search(record, limits);
      if (!searched.ok()) break;
      move = searched->best;
      const rules::Position& here = record.position();
      const int score = searched->info.score_cp;
      if (!engine::IsMateScore(score) && keep(rng) && IsQuiet(variant, here)) {
        const bool white = here.side_to_move() == rules::Color::kWhite;
        game.samples.push_back({0.5, white ? score : -score, here});
      }
    }
    if (auto error = record.Apply(move)) break;
  }
  game.plies = record.ply_count();
  const auto winner = record.outcome().winner();
  game.result = !winner ? 0.5 : *winner == rules::Color::kWhite ? 1.0 : 0.0;
  for (Sample& s : game.samples) s.result = game.result;
  return game;
}

}  // namespace draughts::train
