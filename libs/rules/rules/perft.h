#pragma once

// Perft: the number of legal move sequences of a given length, the standard
// check of a move generator against published counts. Moves are counted as
// the move generator defines them (capture_identity), and the last ply is
// bulk-counted (the moves are counted, not played). It runs on bit boards
// alone, so Variant::king_move_limit (Frisian: it first matters at depth 13
// from the start) is not applied, except to PerftDivide's root moves.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rules/move.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::rules {

struct PerftOptions {
  // Size of a transposition table of subtree counts; 0 = none. The counts
  // are the same either way, only faster with it.
  std::size_t hash_bytes = 0;
};

// Perft(depth 0) == 1.
std::uint64_t Perft(const Variant& variant, const Position& position, int depth,
                    const PerftOptions& options = {});

struct PerftDivideEntry {
  Move move;
  std::uint64_t count = 0;  // Perft of the position after `move`, depth - 1
};

// One entry per legal move, in move-generator order. Precondition: depth >= 1.
std::vector<PerftDivideEntry> PerftDivide(const Variant& variant, const Position& position,
                                          int depth, const PerftOptions& options = {});

}  // namespace draughts::rules
