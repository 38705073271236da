#pragma once

// The draw rules of rules::GameRecord (rules/game.h), followed move by move
// inside the search so that a line running into the no-progress rule, a
// lone-king count or a move limit is scored as the draw it is. Repetition
// is checked separately, against the hashes of the game and the search path.
//
// The bookkeeping mirrors GameRecord::Apply exactly; the unit tests compare
// the two over random games.

#include "rules/variant.h"

namespace draughts::engine {

struct PieceCounts {
  int white_men = 0;
  int white_kings = 0;
  int black_men = 0;
  int black_kings = 0;
};

struct DrawCounters {
  int no_progress = 0;   // plies since a capture or a man move
  int lone_rule = -1;    // index into Variant::draw.lone_king, -1 if none applies
  int lone_plies = 0;    // plies since that rule's configuration arose
  int plies_played = 0;  // in the whole game
};

class DrawRuleTracker {
 public:
  explicit DrawRuleTracker(const rules::Variant& variant);

  bool has_lone_king_rules() const { return has_lone_king_rules_; }
  bool repetition_counts() const { return repetition_counts_; }

  // Which lone-king rule applies to a position with these pieces (-1: none).
  int LoneKingRule(const PieceCounts& counts) const;

  // The counters after a move; `progress` is a capture or a man move.
  // `after` is only read when the variant has lone-king rules.
  DrawCounters After(const DrawCounters& before, bool progress, const PieceCounts& after) const;

  // Whether the no-progress, lone-king or move-limit rule has drawn the game.
  bool Drawn(const DrawCounters& counters) const;

  // Plies before one of those rules draws the game (a large number when
  // none is running).
  int PliesLeft(const DrawCounters& counters) const;

 private:
  rules::DrawRules rules_;
  int no_progress_limit_ = 0;
  bool has_lone_king_rules_ = false;
  bool repetition_counts_ = false;
};

}  // namespace draughts::engine
