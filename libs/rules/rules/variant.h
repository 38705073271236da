#pragma once

// A rule set is a value: every difference between draughts games that the
// move generator or the game record has to know about is a field here, and a
// new rule set is a new row in variant.cc. Code paths exist per *rule*
// (flying kings, majority capture, ...), never per rule-set name.
//
// Copies may be changed: an English table with "mandatory capture" off is
// FindVariant("english") with `mandatory_capture = false`. CheckVariant()
// says whether a hand-made value is one the library can play.

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "rules/geometry.h"
#include "rules/result.h"
#include "rules/setup.h"

namespace draughts::rules {

// How far a king moves and captures along a diagonal.
enum class KingRange : std::uint8_t {
  kFlying,  // any distance; captures at distance, lands on any empty square beyond
  kShort,   // one square; captures by jumping an adjacent piece, like a man
};

// Which captures are legal when several are possible.
enum class CaptureChoice : std::uint8_t {
  kMajority,  // only the sequences taking the most pieces (a man counts as a king)
  kFree,      // any maximal sequence (a started capture must still be completed)
};

// What happens when a man reaches its promotion row in the middle of a capture.
enum class PromotionInCapture : std::uint8_t {
  kPassThrough,  // stays a man and goes on capturing; crowned only if the move ends there
  kEndsMove,     // crowned at once and the move ends, even if more jumps were possible
};

// When two capture sequences are the same move.
enum class CaptureIdentity : std::uint8_t {
  kPieceSet,  // same origin, destination and SET of captured pieces: one move (FMJD 10x10)
  kPath,      // every distinct sequence of landing squares is its own move (English)
};

// How a "moves without progress" limit is counted.
enum class MoveCounting : std::uint8_t {
  kPerSide,  // N moves by each player (2N plies)
  kTotal,    // N plies in total
};

// Parameters of the draw rules. They are evaluated by the game record
// (rules/game.h); the move generator ignores them.
struct DrawRules {
  // The same position with the same side to move for the n-th time (0 = off).
  int repetitions = 3;

  // No capture and no man move for this many moves (0 = off): international
  // "25 moves each with kings only", English "40 moves" (per side in seed
  // 001, in total in seed 003).
  int no_progress_moves = 0;
  MoveCounting no_progress_counting = MoveCounting::kPerSide;

  // One side has a single king and the other between `min_pieces` and
  // `max_pieces` pieces including at least one king: draw after
  // `moves_per_side` moves each (international 16- and 5-move rules).
  // Entries with moves_per_side == 0 are unused.
  struct LoneKingRule {
    int min_pieces = 0;
    int max_pieces = 0;
    int moves_per_side = 0;
    friend bool operator==(const LoneKingRule&, const LoneKingRule&) = default;
  };
  std::array<LoneKingRule, 2> lone_king = {};

  // Draw once this many plies have been played in the game (0 = no limit);
  // a table option of seed 003.
  int move_limit_plies = 0;

  // Plies of the no-progress rule (0 = off).
  constexpr int NoProgressPlies() const {
    return no_progress_counting == MoveCounting::kPerSide ? 2 * no_progress_moves
                                                          : no_progress_moves;
  }

  friend bool operator==(const DrawRules&, const DrawRules&) = default;
};

struct Variant {
  std::string_view id;    // stable key: "international", "english", ...
  std::string_view name;  // English display name
  // PDN GameType tag; 0 when the rule set has no official number.
  int pdn_game_type = 0;

  BoardSize board = BoardSize::k10x10;
  int initial_rows = 4;  // rows of men per side at the start

  Color first_to_move = Color::kWhite;
  // What the two colours are called on screen. kWhite is always the side
  // that starts on the high-numbered squares (bottom of the diagram).
  std::string_view white_name = "White";
  std::string_view black_name = "Black";

  bool men_capture_backward = true;
  KingRange king_range = KingRange::kFlying;
  CaptureChoice capture_choice = CaptureChoice::kMajority;
  PromotionInCapture promotion_in_capture = PromotionInCapture::kPassThrough;
  CaptureIdentity capture_identity = CaptureIdentity::kPieceSet;
  bool mandatory_capture = true;

  DrawRules draw;

  int MenPerSide() const { return initial_rows * BoardDimension(board) / 2; }
  std::string_view ColorName(Color c) const { return c == Color::kWhite ? white_name : black_name; }

  friend bool operator==(const Variant&, const Variant&) = default;
};

// Every built-in rule set, in a stable order (international first).
const std::vector<Variant>& AllVariants();

// The built-in rule set with this id, or an error naming the known ids.
Result<Variant> FindVariant(std::string_view id);

// nullopt if the library can play this (possibly hand-edited) value;
// otherwise why not (e.g. more initial rows than fit the board).
std::optional<Error> CheckVariant(const Variant& variant);

}  // namespace draughts::rules
