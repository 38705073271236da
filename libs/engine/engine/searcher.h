#pragma once

// Internal: the state an Engine keeps between searches (transposition
// table, move history) and the per-layout alpha-beta runners that use it.
// Input is already validated by Engine.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "engine/eval_params.h"
#include "engine/move_history.h"
#include "engine/search_types.h"
#include "engine/transposition_table.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::egdb {
class Database;
}

namespace draughts::engine {

// Knobs of the search, fixed in production (the defaults) and varied by
// experiments that compare two settings in self-play.
struct SearchTuning {
  // Quiet plies quiescence may add when the opponent threatens a capture.
  int threat_budget = 1;
  // Late-move reductions: quiet moves from this index on, at this depth or
  // more, are searched one ply shallower (two from `lmr_deep_index` on at
  // `lmr_deep_depth`), then again at full depth if they surprise.
  int lmr_min_index = 3;
  int lmr_min_depth = 3;
  int lmr_deep_index = 8;
  int lmr_deep_depth = 6;
  // ProbCut: at this depth or more, outside principal-variation nodes and
  // where nothing can be captured, a search `probcut_reduction` plies
  // shallower that beats beta by `probcut_margin` hundredths of a man
  // stands for the full one. Margin 0 disables it. (With the static cut
  // below, +49 Elo on international at 0.1 s a move: docs/BENCHMARKS.md.)
  int probcut_margin = 60;
  int probcut_min_depth = 5;
  int probcut_reduction = 4;
  // Static-evaluation cut near the horizon: at depth `futility_max_depth`
  // or less, in the same quiet non-PV nodes, an evaluation at least
  // depth * futility_margin above beta is taken as a fail high. 0
  // disables it. (Depth 4 rather than 2: +17 Elo on international, +12 on
  // English at 0.1 s a move, each within its margin.)
  int futility_margin = 60;
  int futility_max_depth = 4;
  // A position with a single legal move costs no depth.
  bool single_reply_extension = true;
  // Weights of the evaluation; nullopt = EvalParamsFor(variant).
  std::optional<EvalParams> eval;
  // The hand-set evaluation only, even where learned pattern weights exist
  // (pattern_evaluator.h), to compare the two.
  bool classic_eval = false;
};

struct SearchRequest {
  rules::Variant variant;
  rules::Position position;
  const GameHistory* history = nullptr;  // never null
  SearchLimits limits;
  std::function<void(const SearchInfo&)> on_info;
  // Deliberate errors for the lower levels: each root move's score is
  // shifted by a pseudo-random amount in [-noise_cp, noise_cp] drawn from
  // noise_seed before the best one is chosen.
  int noise_cp = 0;
  std::uint64_t noise_seed = 0;
  SearchTuning tuning;
  // Endgame databases for this variant (engine/endgame_probe.h); may be null.
  const egdb::Database* endgame = nullptr;
};

// One alpha-beta implementation per board layout (alpha_beta.h).
class LayoutSearch {
 public:
  virtual ~LayoutSearch() = default;
  virtual SearchResult Run(const SearchRequest& request) = 0;
};

class Searcher {
 public:
  explicit Searcher(std::size_t tt_megabytes);
  ~Searcher();

  void NewGame();
  void ResizeTable(std::size_t tt_megabytes);
  // Precondition: the request is valid (the position has a legal move).
  SearchResult Run(const SearchRequest& request);

 private:
  TranspositionTable table_;
  std::unique_ptr<MoveHistory> history_;
  // 8x8, 10x10, 12x12 and the full 8x8 board.
  std::array<std::unique_ptr<LayoutSearch>, 4> by_layout_;
};

}  // namespace draughts::engine
