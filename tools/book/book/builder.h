#pragma once

// Builds an opening book with the engine's own search: from the initial
// position, breadth first, every legal move of a position is searched (one
// search of the position after it, within the given depth and time), the
// moves within a margin of the best are kept (at most `width`, best first)
// and the positions they lead to are expanded in turn, up to a ply limit
// and a budget of positions. Breadth first keeps the book even: every line
// reaches the same depth before any goes deeper.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "engine/book.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::book {

struct BuildOptions {
  // Positions up to this many plies from the start get book moves.
  int plies = 10;
  // Each candidate move's search: at most this long and this deep.
  std::chrono::milliseconds move_time{100};
  int search_depth = 0;  // 0: as deep as move_time allows
  // Moves scoring at most this much below the best are kept.
  int margin_cp = 20;
  int width = 4;
  // Stop once the book holds this many positions.
  std::int64_t max_positions = 2000;
  std::size_t table_megabytes = 64;
};

struct BuildStats {
  std::int64_t positions = 0;  // entries in the book
  std::int64_t searches = 0;
  std::int64_t nodes = 0;
  int deepest_ply = 0;  // of a position with book moves (0 = the start)
  std::chrono::milliseconds elapsed{0};
  bool budget_reached = false;  // stopped by max_positions before the ply limit
};

using BuildProgress = std::function<void(const BuildStats&)>;

// `progress` (may be empty) is called after every position expanded.
rules::Result<engine::Book> BuildBook(const rules::Variant& variant, const BuildOptions& options,
                                      BuildStats& stats, const BuildProgress& progress = {});

// Checks every move of every entry against the move generator: the error
// names the first position (FEN) and move that is not legal there.
std::optional<rules::Error> CheckBook(const engine::Book& book);

}  // namespace draughts::book
