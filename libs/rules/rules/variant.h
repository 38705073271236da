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
  kValue,     // only those of the highest value, a king worth a little less than two
              // men: n kings weigh more than 2n-1 men, less than 2n (Frisian)
};

// Tie-breaks applied after CaptureChoice, in this order, among the captures
// it leaves (all false: free choice among them). Italian rules use all
// three, Spanish the second, Czech and Frisian the first.
struct CapturePriority {
  bool with_king = false;      // a capture made by a king before one made by a man
  bool most_kings = false;     // then the one taking the most kings
  bool earliest_king = false;  // then the one that meets a king first (then the next, ...)
  friend bool operator==(const CapturePriority&, const CapturePriority&) = default;
};

// What happens when a man reaches its promotion row in the middle of a capture.
enum class PromotionInCapture : std::uint8_t {
  kPassThrough,      // stays a man and goes on capturing; crowned only if the move ends there
  kEndsMove,         // crowned at once and the move ends, even if more jumps were possible
  kContinuesAsKing,  // crowned at once and, if it can, goes on capturing as a king (Russian)
};

// Where a flying king may land after jumping a piece.
enum class KingLanding : std::uint8_t {
  kAnyBeyond,    // any empty square beyond it (but one that continues, if any does)
  kRightBehind,  // only the square right behind it (Thai)
};

// When the pieces jumped in a capture leave the board.
enum class CapturedRemoval : std::uint8_t {
  kAtEnd,   // when the capture is complete: they block, and cannot be jumped twice
  kAtOnce,  // as each is jumped: its square is free for the rest of the capture (Thai, Turkish)
};

// How a game is won.
enum class Goal : std::uint8_t {
  kCaptureOrBlock,  // the side that cannot move (no pieces, or blocked) loses
  kLoseEverything,  // antidraughts: the side that cannot move WINS
  kFirstKing,       // breakthrough: the first side to crown a man wins (and cannot move loses)
};

// When two capture sequences are the same move.
enum class CaptureIdentity : std::uint8_t {
  kPieceSet,  // same origin, destination and SET of captured pieces: one move (FMJD 10x10)
  kPath,      // every distinct sequence of landing squares is its own move (English)
  kOrder,     // same origin, destination and pieces taken in the same ORDER: one move; the
              // square where a flying king stops between two pieces it takes on one line
              // makes no other move (Russian, Pool: the published path counts)
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

  // BoardSize::kFull8x8 plays on every square with the orthogonal move
  // generator (orthogonal_movegen.h); the others on the dark squares.
  BoardSize board = BoardSize::k10x10;
  int initial_rows = 4;  // rows of men per side at the start
  // Rows left empty behind the men at the start (Turkish: the back row).
  int empty_back_rows = 0;

  Color first_to_move = Color::kWhite;
  // What the two colours are called on screen. kWhite is always the side
  // that starts on the high-numbered squares (bottom of the diagram).
  std::string_view white_name = "White";
  std::string_view black_name = "Black";

  // The board is shown mirrored: its bottom-left corner is a light square
  // and the double corner is on each player's left (Italian, Spanish). The
  // rules are symmetric, so play and square numbers are those of the usual
  // diagram; MirroredSquare() gives the numbers of the mirrored board.
  bool mirrored = false;

  bool men_capture_backward = true;
  bool men_capture_kings = true;  // false: a man may not jump a king (Italian)
  // Men and kings also capture along rows and columns, jumping the next
  // square of the playing colour (two columns or rows away) (Frisian).
  bool orthogonal_captures = false;
  KingRange king_range = KingRange::kFlying;
  KingLanding king_landing = KingLanding::kAnyBeyond;
  CaptureChoice capture_choice = CaptureChoice::kMajority;
  CapturePriority capture_priority = {};
  PromotionInCapture promotion_in_capture = PromotionInCapture::kPassThrough;
  CapturedRemoval captured_removal = CapturedRemoval::kAtEnd;
  // With CapturedRemoval::kAtOnce: a flying king may jump back the way it
  // came (Thai). With kAtEnd only the piece just taken lies that way.
  bool king_may_turn_back = false;
  CaptureIdentity capture_identity = CaptureIdentity::kPieceSet;
  bool mandatory_capture = true;

  Goal goal = Goal::kCaptureOrBlock;

  // A king may make at most this many moves in a row without capturing
  // while its side still has men (0 = no limit; Frisian: 3). Kept in the
  // Position; see Position::KingRun().
  int king_move_limit = 0;

  DrawRules draw;

  int MenPerSide() const { return initial_rows * SquaresPerRow(board); }
  std::string_view ColorName(Color c) const { return c == Color::kWhite ? white_name : black_name; }

  friend bool operator==(const Variant&, const Variant&) = default;
};

// Every built-in rule set, in a stable order (international first).
const std::vector<Variant>& AllVariants();

// The built-in rule set with this id, or an error naming the known ids.
Result<Variant> FindVariant(std::string_view id);

// The number of `square` on the mirrored board (Variant::mirrored): the
// same row, counted from the other side; its own inverse. The Italian and
// Spanish federations number the mirrored board 1..32 row by row from the
// top-left corner square (a8, in Black's camp) as White sees it: their
// square k is our square MirroredSquare(k8x8, k) (their 1 is our 4, their
// 32 our 29), and our moves are theirs through the same function.
int MirroredSquare(BoardSize board, int square);

// nullopt if the library can play this (possibly hand-edited) value;
// otherwise why not (e.g. more initial rows than fit the board).
std::optional<Error> CheckVariant(const Variant& variant);

}  // namespace draughts::rules
