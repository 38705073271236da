#pragma once

// PDN (Portable Draughts Notation) games as text: tag pairs, move numbers,
// moves, comments and the result, several games per file. This layer knows
// no rules; pdn_replay.h plays the moves through them.
//
// Accepted on reading (PDN 3.0, pdn.fmjd.org, and what real archives hold):
//   [Name "value"]           tag pairs, value with \" and \\ escapes; also
//                            [Name] and [Name value] (no quotes), a quote left
//                            unescaped inside the value, a missing ']' at the
//                            end of the line, names in other languages (the
//                            common ones for Result, White, Black, Event,
//                            Date are read as those: see PdnTagAlias)
//   1.  1...  12.  12. ...   move numbers (not checked against the moves),
//                            zero-padded or not
//   32-28  28x19  28x19x10   moves, with spaces around the separator allowed,
//   05-10  28:19  c3-d4      ':' or the sign for a capture, numbers zero-padded,
//   d4:f6:h4  ed4  G3-F4     algebraic squares in either case, the Russian
//                            short form (origin file, destination); '!', '?',
//                            '+' annotations after a move
//   {comment}  ; to end of line  % line escape
//   (variation)  $12         skipped
//   2-0 0-2 1-1 1-0 0-1 1/2-1/2 * - 0-0, with or without spaces: results,
//                            ending the game
// A game may also end at the end of the input or where the next game's tag
// pairs start. Tag values and comments that are not UTF-8 are read as
// Latin-1; CR, LF and CRLF all end a line.
//
// A game that cannot be read is reported (its number in the file,
// line:column, why) and skipped up to the next game's tags; the others are
// read (ReadPdnGames). The result: the Result tag when it names one, else
// the result ending the moves; a difference between the two is a note.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/move_text.h"
#include "rules/result.h"

namespace draughts::rules {

// PDN derives from PGN, where the first figure of a score is White's:
// "2-0" (10x10 style) and "1-0" (8x8 style) both mean White won, whatever
// colour moves first in the rule set.
enum class PdnResult { kUnknown, kWhiteWins, kBlackWins, kDraw };

enum class PdnScoreStyle {
  kTwoPoints,  // 2-0, 0-2, 1-1: international and Canadian draughts
  kOnePoint,   // 1-0, 0-1, 1/2-1/2: English checkers
};

// Parses one of the result forms listed above; nullopt if `text` is none.
std::optional<PdnResult> ParsePdnResult(std::string_view text);
std::string FormatPdnResult(PdnResult result, PdnScoreStyle style);

struct PdnTag {
  std::string name;
  std::string value;

  friend bool operator==(const PdnTag&, const PdnTag&) = default;
};

struct PdnMove {
  // The squares as written when they are numbers (in the numbering of the
  // file's rule set, see square_notation.h); no squares when the move is
  // written with coordinates. Moves built in code may set only this.
  MoveText move;
  std::string comment;  // comments that follow the move, joined by a space

  // Where the move was read, to point at it when replaying fails; zero for
  // moves that were not read from text.
  std::size_t offset = 0;
  int line = 0;
  int column = 0;

  // The move as written, normalised ("32-28", "28x19x10", "c3-d4", "d4:f6",
  // "ed4"): what the writer writes and the replay reads. Empty for a move
  // built in code from `move` alone.
  std::string text{};
};

struct PdnGame {
  std::vector<PdnTag> tags;     // in the order read or set
  std::string leading_comment;  // comments before the first move
  std::vector<PdnMove> moves;
  PdnResult result = PdnResult::kUnknown;

  // How the first move is numbered: "1." or, when the side that moves second
  // in the rule set starts (a FEN), "1...".
  int first_move_number = 1;
  bool first_move_by_second_player = false;

  std::size_t offset = 0;  // where the game starts in the input
  int number = 0;          // 1-based place in the file, failed games counted

  // The value of the first tag with this exact (case-sensitive) name.
  const std::string* FindTag(std::string_view name) const;
  // Replaces the first tag with this name, or appends one.
  void SetTag(std::string_view name, std::string value);
  // The leading number of the GameType tag ("20" or "20,W,10,10,N2,0").
  std::optional<int> GameType() const;
};

// Something the reader could not read or had to guess, with where it is.
struct PdnProblem {
  int game = 0;  // 1-based number of the game in the file
  std::size_t offset = 0;
  int line = 0;
  int column = 0;
  std::string message;

  // "game 3, line 12, column 7: <message>"
  std::string ToString() const;
};

struct PdnReadReport {
  std::vector<PdnGame> games;        // every game read, in file order
  std::vector<PdnProblem> failures;  // one per game skipped
  std::vector<PdnProblem> notes;     // quirks read by a guess (a read game's number)
};

// Reads every game it can; never fails.
PdnReadReport ReadPdnGames(std::string_view text);

// The games, or the first failure (its message says "game N, line L,
// column C: ..." and its offset points at it).
Result<std::vector<PdnGame>> ReadPdn(std::string_view text);

// The standard tag name for a tag name as some archives write it (any case;
// "Resultaat", "Résultat", "Результат" -> "Result", "Wit" -> "White", ...),
// else `name` unchanged.
std::string PdnTagAlias(std::string_view name);

// Writes tag pairs (the Result tag set to the game's result), a blank line,
// the movetext wrapped at 80 columns (each move's `text`, else its `move`)
// and the result. The score style is
// one point for GameType 21 (English) and two points otherwise.
std::string WritePdn(const PdnGame& game);
// Games separated by a blank line.
std::string WritePdn(const std::vector<PdnGame>& games);

}  // namespace draughts::rules
