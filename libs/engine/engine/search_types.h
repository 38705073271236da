#pragma once

// The values exchanged with the search: what limits it, what it reports
// while it runs, what it answers, and what it must know about the game so
// far to see draws by repetition and by the draw rules.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "rules/move.h"

namespace draughts::engine {

// Scores are in hundredths of a man ("centipawns"), from the side to move's
// point of view. A won (lost) position is worth kMateScore minus (plus) the
// number of plies to the end, so a shorter win scores higher.
inline constexpr int kMateScore = 30000;
inline constexpr int kMaxPly = 128;  // deepest ply the search ever reaches
inline constexpr int kMaxSearchDepth = 64;

constexpr bool IsMateScore(int score) {
  return score >= kMateScore - kMaxPly || score <= -(kMateScore - kMaxPly);
}
// Plies to the end of the game for a mate score: > 0 when the side to move
// wins, < 0 when it loses, 0 when `score` is not a mate score.
constexpr int MatePlies(int score) {
  if (!IsMateScore(score)) return 0;
  return score > 0 ? kMateScore - score : -(kMateScore + score);
}

struct SearchLimits {
  // Iterative deepening stops after this depth (in plies).
  int max_depth = kMaxSearchDepth;
  // Stop after about this many nodes; 0 = no limit.
  std::int64_t max_nodes = 0;
  // Hard cap on the thinking time: the search returns before it, whatever
  // it was doing (the clock is checked every few thousand nodes). 0 = none.
  std::chrono::milliseconds move_time{0};
  // The time the search aims to use: it starts no new iteration once the
  // next one is unlikely to finish within it, and stops at move_time
  // anyway. 0 = use move_time.
  std::chrono::milliseconds target_time{0};
  // Set to true from another thread to stop the search as soon as possible;
  // the best move found so far is returned. May be null.
  std::atomic<bool>* stop = nullptr;
  // With a time limit the search returns as soon as its choice cannot
  // change: one legal move, or a win or loss proven within the searched
  // depth. With keep_pace it thinks until target_time anyway, so a bot
  // keeps an even pace: it goes on searching (past a forced move this fills
  // the table for the next decision) and, when nothing is left to search,
  // waits for the target time or a stop request.
  bool keep_pace = false;
};

struct SearchInfo {
  int depth = 0;     // last completed iteration
  int seldepth = 0;  // deepest ply reached, captures included
  int score_cp = 0;  // see kMateScore
  std::int64_t nodes = 0;
  std::chrono::milliseconds elapsed{0};
  std::vector<rules::Move> pv;  // principal variation, starting with the best move
};

struct SearchResult {
  rules::Move best;
  std::optional<rules::Move> ponder;  // the expected reply, when known
  SearchInfo info;
};

// What the search needs from the game played so far, beyond the current
// position. All zero / empty for a position set up from a FEN.
struct GameHistory {
  // Zobrist hashes (rules::Position::hash) of the earlier positions of the
  // game, oldest first, not including the current one. Only the last
  // `no_progress_plies` can repeat, so older ones may be left out.
  std::vector<std::uint64_t> hashes;
  // rules::GameRecord::no_progress_plies(): plies since the last capture or
  // man move.
  int no_progress_plies = 0;
  // rules::GameRecord::lone_king_rule() / lone_king_plies().
  int lone_king_rule = -1;
  int lone_king_plies = 0;
  // Plies played in the game so far (for a table's move limit).
  int plies_played = 0;
};

}  // namespace draughts::engine
