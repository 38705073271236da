#include "engine/draw_rules.h"

#include <algorithm>
#include <climits>

namespace draughts::engine {

DrawRuleTracker::DrawRuleTracker(const rules::Variant& variant)
    : rules_(variant.draw),
      no_progress_limit_(variant.draw.NoProgressPlies()),
      repetition_counts_(variant.draw.repetitions > 0) {
  for (const auto& rule : rules_.lone_king) has_lone_king_rules_ |= rule.moves_per_side > 0;
}

int DrawRuleTracker::LoneKingRule(const PieceCounts& c) const {
  if (!has_lone_king_rules_) return -1;
  for (int r = 0; r < static_cast<int>(rules_.lone_king.size()); ++r) {
    const auto& rule = rules_.lone_king[static_cast<std::size_t>(r)];
    if (rule.moves_per_side <= 0) continue;
    // Same test as GameRecord: one side is a single king, the other has
    // min..max pieces with at least one king.
    const auto holds = [&](int lone_men, int lone_kings, int men, int kings) {
      const int others = men + kings;
      return lone_men == 0 && lone_kings == 1 && others >= rule.min_pieces &&
             others <= rule.max_pieces && kings >= 1;
    };
    if (holds(c.white_men, c.white_kings, c.black_men, c.black_kings) ||
        holds(c.black_men, c.black_kings, c.white_men, c.white_kings)) {
      return r;
    }
  }
  return -1;
}

DrawCounters DrawRuleTracker::After(const DrawCounters& before, bool progress,
                                    const PieceCounts& after) const {
  DrawCounters next;
  next.no_progress = progress ? 0 : before.no_progress + 1;
  next.plies_played = before.plies_played + 1;
  if (has_lone_king_rules_) {
    next.lone_rule = LoneKingRule(after);
    next.lone_plies =
        next.lone_rule >= 0 && next.lone_rule == before.lone_rule ? before.lone_plies + 1 : 0;
  }
  return next;
}

bool DrawRuleTracker::Drawn(const DrawCounters& c) const {
  return PliesLeft(c) <= 0;
}

int DrawRuleTracker::PliesLeft(const DrawCounters& c) const {
  int left = INT_MAX;
  if (no_progress_limit_ > 0) left = std::min(left, no_progress_limit_ - c.no_progress);
  if (c.lone_rule >= 0) {
    const auto& rule = rules_.lone_king[static_cast<std::size_t>(c.lone_rule)];
    left = std::min(left, 2 * rule.moves_per_side - c.lone_plies);
  }
  if (rules_.move_limit_plies > 0) left = std::min(left, rules_.move_limit_plies - c.plies_played);
  return left;
}

}  // namespace draughts::engine
