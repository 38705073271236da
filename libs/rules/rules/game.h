#pragma once

// The record of one game: its positions and moves, the bookkeeping every
// draw rule needs, and the outcome. The draw parameters come from
// Variant::draw; the wording of each rule is in /work/shared/seeds:
//
//  - repetition: the same position with the same side to move for the
//    `repetitions`-th time (seeds 000-003: the third time);
//  - no progress: `NoProgressPlies()` plies in a row without a capture and
//    without a man moving (international 25 moves each with kings only =
//    50 plies; English 40 moves each = 80 plies, or 40 in total as a table
//    option of seed 003);
//  - lone king: one side has a single king, the other `min..max` pieces
//    including a king; drawn after `moves_per_side` moves each, counted from
//    the ply that brought about that rule's configuration (16 moves for three
//    pieces, 5 for one or two). The count restarts when the position moves to
//    another rule's configuration (say three pieces against the king become
//    two) but not within the same one (a man crowned, or the lone king
//    taking a piece while still inside it);
//  - move limit: the game is drawn when this many plies have been played.
//
// A side to move with no pieces or no legal move has lost (Goal::
// kLoseEverything, antidraughts: has won); under Goal::kFirstKing
// (breakthrough) the side with a king has won. That is checked before the
// draw rules, so a move that blocks the opponent on the last ply of a count
// still wins. Counters start at zero for a record started from a FEN, which
// carries none.
//
// Resignation, agreement, time forfeit and abandonment are decided outside
// the rules (by the services) and recorded with Decide*().

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rules/move.h"
#include "rules/move_text.h"
#include "rules/movegen.h"
#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::rules {

enum class GameStatus : std::uint8_t { kOngoing, kWhiteWins, kBlackWins, kDraw };

enum class OutcomeReason : std::uint8_t {
  kNone,  // ongoing
  // Decided by the rules.
  kNoPieces,      // the side to move has no piece left
  kNoLegalMoves,  // the side to move is blocked
  kRepetition,
  kNoProgress,  // 25-move rule (international), 40-move rule (English)
  kLoneKing,    // 16- and 5-move rules
  kMoveLimit,
  // Decided by the services.
  kResignation,
  kAgreement,
  kTimeForfeit,  // e.g. three automatic moves in a row
  kAbandonment,  // left the table or stayed disconnected too long
  // Decided by the rules (appended to keep the numbers above stable).
  kFirstKing,  // breakthrough: that side crowned a man
};

std::string_view OutcomeReasonName(OutcomeReason reason);

struct Outcome {
  GameStatus status = GameStatus::kOngoing;
  OutcomeReason reason = OutcomeReason::kNone;

  bool is_over() const { return status != GameStatus::kOngoing; }
  std::optional<Color> winner() const;
  // "white wins: no legal moves", "draw: repetition", "ongoing".
  std::string ToString() const;

  friend bool operator==(const Outcome&, const Outcome&) = default;
};

class GameRecord {
 public:
  // The variant's initial position, or any position (from a FEN, say).
  explicit GameRecord(const Variant& variant);
  GameRecord(const Variant& variant, const Position& start);

  const Variant& variant() const { return variant_; }
  const Position& start() const { return plies_.front().position; }
  const Position& position() const { return plies_.back().position; }
  // positions()[i] is the position before moves()[i]; one more position
  // than moves.
  std::vector<Position> positions() const;
  const std::vector<Move>& moves() const { return moves_; }
  int ply_count() const { return static_cast<int>(moves_.size()); }
  // The legal moves in position(); empty once the game is over.
  const MoveList& legal_moves() const { return legal_; }

  const Outcome& outcome() const { return outcome_; }
  bool is_over() const { return outcome_.is_over(); }

  // The record after `move`, which must be one of legal_moves().
  Result<GameRecord> Play(const Move& move) const;
  // The same, from notation ("32-28", "28x19", "28x19x10"; see move_notation.h).
  Result<GameRecord> Play(std::string_view notation) const;
  // In place; on error the record is unchanged.
  std::optional<Error> Apply(const Move& move);

  // Outcomes the rules cannot see. Errors if the game is already over.
  Result<GameRecord> DecideResignation(Color resigning) const;
  Result<GameRecord> DecideAgreedDraw() const;
  Result<GameRecord> DecideTimeForfeit(Color loser) const;
  Result<GameRecord> DecideAbandonment(Color loser) const;

  // Takes back the last `plies` moves (undo against a bot). An outcome the
  // rules reached is taken back with them; one decided by the services is
  // final and makes this an error, as does asking for more plies than played.
  Result<GameRecord> TakeBack(int plies) const;

  // Bookkeeping, exposed for display ("12 moves left before a draw") and tests.
  // Plies in a row without a capture or a man move.
  int no_progress_plies() const { return plies_.back().no_progress; }
  // Which Variant::draw.lone_king entry applies to position() (-1 if none),
  // and the plies played since its configuration arose.
  int lone_king_rule() const { return plies_.back().lone_rule; }
  int lone_king_plies() const { return plies_.back().lone_plies; }
  // How many times position() has occurred with the same side to move.
  int repetition_count() const;

 private:
  struct PlyState {
    Position position;
    int no_progress = 0;
    int lone_rule = -1;
    int lone_plies = 0;
  };

  void Refresh();
  Outcome RulesOutcome() const;
  int LoneKingRule(const Position& position) const;
  Result<GameRecord> Decide(GameStatus status, OutcomeReason reason) const;

  Variant variant_;
  std::vector<PlyState> plies_;  // one more than moves_
  std::vector<Move> moves_;
  MoveList legal_;
  Outcome outcome_;
};

}  // namespace draughts::rules
