#pragma once

// The retrograde solver. A slice is solved once every slice its captures
// and promotions lead to is in the database (CanonicalSignatures order):
//
//  1. Every position is generated forward once with the rules library's own
//     move generator (so compulsory and majority captures, promotion rules,
//     etc. are exactly the rule set's). A move that captures or crowns
//     leaves the slice and its result is read from the smaller slices; the
//     other moves (quiet, non-crowning) stay inside and are counted. A
//     position is then a win if a leaving move wins, a loss if it has no
//     move or every move leaves and loses, a draw if every move leaves and
//     one draws; otherwise it waits with its count of inside moves.
//  2. Results spread backwards, one distance at a time, by "unmoves": the
//     quiet moves that could have led to a solved position (a king stepping
//     or flying back, a man stepping back). A predecessor still waiting
//     wins if the solved position is lost; it loses when the last of its
//     inside moves turns out to win for the opponent (and none of its
//     leaving moves draws). A position with a capture never waits (its
//     moves all leave the slice), so unmoves need no capture rules.
//  3. What still waits at the end is a draw.
//
// Distances come out exact (value.h) because each round handles the
// positions of one distance.

#include <cstdint>
#include <functional>

#include "egdb/database.h"
#include "rules/result.h"

namespace draughts::egdb {

struct SliceReport {
  Signature signature;
  std::uint64_t positions = 0;  // valid positions, both sides to move
  std::uint64_t wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  int max_plies = 0;  // the longest distance to conversion
  double seconds = 0;
};

// Solves the canonical slice `signature` into `db`. Errors: a slice it
// depends on is missing, or the signature is not canonical or too big.
rules::Result<SliceReport> SolveSlice(Database& db, Signature signature);

// Solves every slice up to `max_pieces` that `db` lacks, in dependency
// order, calling `on_slice` after each (it may save the slice).
rules::Result<std::vector<SliceReport>> SolveUpTo(
    Database& db, int max_pieces,
    const std::function<rules::Result<bool>(const Slice&, const SliceReport&)>& on_slice = {});

}  // namespace draughts::egdb
