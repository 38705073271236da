#pragma once

// PDN (Portable Draughts Notation) games as text: tag pairs, move numbers,
// moves, comments and the result, several games per file. This layer knows
// no rules; pdn_replay.h plays the moves through them.
//
// Accepted on reading:
//   [Name "value"]           tag pairs, value with \" and \\ escapes
//   1.  1...  12.            move numbers (not checked against the moves)
//   32-28  28x19  28x19x10   moves; '!' and '?' annotations after a move
//   {comment}  ; to end of line
//   (variation)  $12         skipped
//   2-0 0-2 1-1 1-0 0-1 1/2-1/2 *     results, ending the game
// A game may also end at the end of the input or where the next game's tag
// pairs start. Errors carry the offset and say "line L, column C".

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
  MoveText move;
  std::string comment;  // comments that follow the move, joined by a space

  // Where the move was read, to point at it when replaying fails; zero for
  // moves that were not read from text.
  std::size_t offset = 0;
  int line = 0;
  int column = 0;
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

  // The value of the first tag with this exact (case-sensitive) name.
  const std::string* FindTag(std::string_view name) const;
  // Replaces the first tag with this name, or appends one.
  void SetTag(std::string_view name, std::string value);
  // The leading number of the GameType tag ("20" or "20,W,10,10,N2,0").
  std::optional<int> GameType() const;
};

Result<std::vector<PdnGame>> ReadPdn(std::string_view text);

// Writes tag pairs (the Result tag set to the game's result), a blank line,
// the movetext wrapped at 80 columns and the result. The score style is
// one point for GameType 21 (English) and two points otherwise.
std::string WritePdn(const PdnGame& game);
// Games separated by a blank line.
std::string WritePdn(const std::vector<PdnGame>& games);

}  // namespace draughts::rules
