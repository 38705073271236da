#pragma once

// Internal: the state an Engine keeps between searches (transposition
// table, move history) and the per-layout alpha-beta runners that use it.
// Input is already validated by Engine.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>

#include "engine/move_history.h"
#include "engine/search_types.h"
#include "engine/transposition_table.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::engine {

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
  std::array<std::unique_ptr<LayoutSearch>, 3> by_layout_;  // 8x8, 10x10, 12x12
};

}  // namespace draughts::engine
