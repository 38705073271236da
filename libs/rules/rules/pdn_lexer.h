#pragma once

// The words of PDN movetext as real archives write them: results, move
// numbers and moves in numbers or coordinates. Internal to the PDN reader
// and replay; pdn.h lists what is accepted.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/move_text.h"
#include "rules/pdn.h"
#include "rules/result.h"
#include "rules/text_cursor.h"

namespace draughts::rules::pdn_lexer {

// A square as written: a number, or a coordinate (file letter, rank).
struct WrittenSquare {
  char file = 0;   // 'a'.. lower case; 0 for a number
  int number = 0;  // the number, or the rank
  friend bool operator==(const WrittenSquare&, const WrittenSquare&) = default;
};

struct WrittenMove {
  // The Russian short form "cd4" gives only the origin's file; then
  // `squares` holds the landings alone.
  char origin_file = 0;
  std::vector<WrittenSquare> squares;  // origin (unless short form), then landings
  bool capture = false;                // written with a capture sign ('x', ':', ...)
  char separator = '-';                // '-', 'x' or ':' as written (normalised)
};

struct Token {
  enum Kind { kResult, kMoveNumber, kEllipsis, kMove, kWord, kError } kind = kError;
  std::string text;  // normalised move text, the number or word as written
  PdnResult result = PdnResult::kUnknown;
  int number = 0;
  bool black_number = false;  // "12..." numbers the second player's move
  WrittenMove written;
  MoveText move;  // the numbers as written; no squares for coordinates
  std::string error;
  std::size_t error_offset = 0;
};

// Reads one token at the cursor (which is at a non-space character that
// opens none of '{', ';', '(', ')', '$', '[').
Token Next(text::Cursor& in);

// A result written alone ("2-0", " 1 - 1 ", "1/2-1/2", "*", "-", "" ...),
// as in a Result tag; nullopt when `text` is none.
std::optional<PdnResult> ParseResult(std::string_view text);

// A move's normalised text (PdnMove::text) back into its squares.
Result<WrittenMove> ParseWrittenMove(std::string_view text);

// The normalised text of a written move.
std::string FormatWrittenMove(const WrittenMove& move);

}  // namespace draughts::rules::pdn_lexer
