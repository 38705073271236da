#include "rules/pdn_lexer.h"

#include <array>

namespace draughts::rules::pdn_lexer {
namespace {

constexpr int kMaxWrittenNumber = 999;

bool IsFileLetter(char c) {
  return (c >= 'a' && c <= 'l') || (c >= 'A' && c <= 'L');
}
char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
bool IsLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Length of a separator at the start of `rest` (0 if none) and whether it
// marks a capture: '-', 'x', 'X', ':', and the UTF-8 signs "×", "–", "—".
std::pair<std::size_t, bool> SeparatorAt(std::string_view rest) {
  if (rest.empty()) return {0, false};
  const char c = rest[0];
  if (c == '-') return {1, false};
  if (c == 'x' || c == 'X') return {1, true};
  if (c == ':') return {1, true};
  if (rest.substr(0, 2) == "\xc3\x97") return {2, true};  // multiplication sign
  if (rest.substr(0, 3) == "\xe2\x80\x93" || rest.substr(0, 3) == "\xe2\x80\x94") {
    return {3, false};  // en and em dashes
  }
  return {0, false};
}

// Characters that end a result: it must not run on into a move or a number.
bool EndsWord(std::string_view rest) {
  if (rest.empty()) return true;
  const char c = rest[0];
  return text::IsSpace(c) || c == '[' || c == '{' || c == '(' || c == ';' || c == ')' || c == '$';
}

// "0", "1", "2", "1/2" or "½" at the start of `rest`: its length and value
// in half points, or length 0.
std::pair<std::size_t, int> ScoreAt(std::string_view rest) {
  if (rest.substr(0, 3) == "1/2") return {3, 1};
  if (rest.substr(0, 2) == "\xc2\xbd") return {2, 1};
  if (rest.empty()) return {0, 0};
  if (rest[0] == '0') return {1, 0};
  if (rest[0] == '1') return {1, 2};
  if (rest[0] == '2') return {1, 4};
  return {0, 0};
}

std::size_t SkipBlanks(std::string_view text, std::size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i;
}

// A result at the start of `rest`: its length and value, or length 0.
std::pair<std::size_t, PdnResult> ResultAt(std::string_view rest) {
  if (!rest.empty() && rest[0] == '*') return {1, PdnResult::kUnknown};
  if (!rest.empty() && rest[0] == '-' && EndsWord(rest.substr(1))) return {1, PdnResult::kUnknown};
  const auto [first_length, first] = ScoreAt(rest);
  if (first_length == 0) return {0, PdnResult::kUnknown};
  std::size_t i = SkipBlanks(rest, first_length);
  if (i >= rest.size() || rest[i] != '-') return {0, PdnResult::kUnknown};
  i = SkipBlanks(rest, i + 1);
  const auto [second_length, second] = ScoreAt(rest.substr(i));
  if (second_length == 0) return {0, PdnResult::kUnknown};
  i += second_length;
  if (!EndsWord(rest.substr(i))) return {0, PdnResult::kUnknown};
  // The same score on either scale: 1-0 and 2-0 both mean White won.
  PdnResult result = PdnResult::kUnknown;
  if (first > second) result = PdnResult::kWhiteWins;
  if (first < second) result = PdnResult::kBlackWins;
  if (first == second && first > 0) result = PdnResult::kDraw;
  if (first == 1 && second == 1) result = PdnResult::kDraw;  // 1/2-1/2
  // Scores that do not add up (1-2, 2-1/2) are no result a game can have;
  // 0-0 (both lost, or not played) is one without a winner.
  const int total = first + second;
  if (total != 0 && total != 2 && total != 4) return {0, PdnResult::kUnknown};
  return {i, result};
}

Token Fail(std::string message, std::size_t offset) {
  Token token;
  token.kind = Token::kError;
  token.error = std::move(message);
  token.error_offset = offset;
  return token;
}

// A square at the cursor, or nullopt (cursor unchanged) when none starts
// there; an error for a number too large.
Result<std::optional<WrittenSquare>> ReadSquare(text::Cursor& in) {
  if (text::IsDigit(in.Peek()) && !in.AtEnd()) {
    const std::size_t at = in.Offset();
    auto number = in.ReadNumber("a square number", kMaxWrittenNumber);
    if (!number.ok()) return number.error();
    if (*number < 1) return MakeError("square numbers start at 1", at);
    return std::optional<WrittenSquare>(WrittenSquare{0, *number});
  }
  if (IsFileLetter(in.Peek()) && text::IsDigit(in.PeekAt(1))) {
    const char file = Lower(in.Peek());
    in.Advance();
    const std::size_t at = in.Offset();
    auto rank = in.ReadNumber("a rank", 99);
    if (!rank.ok()) return rank.error();
    if (*rank < 1) return MakeError("ranks start at 1", at);
    return std::optional<WrittenSquare>(WrittenSquare{file, *rank});
  }
  return std::optional<WrittenSquare>();
}

// The rest of a move after its first square (or the short form's file).
Token ReadMoveRest(text::Cursor& in, WrittenMove move, std::size_t start) {
  bool any_capture_sign = move.capture;
  bool colon = move.separator == ':';
  while (!in.AtEnd()) {
    text::Cursor save = in;
    while (in.Peek() == ' ' || in.Peek() == '\t') in.Advance();
    const bool spaced = in.Offset() != save.Offset();
    auto [length, capture_sign] = SeparatorAt(in.Rest());
    // "a3b4": coordinates written without a separator (the kind of move is
    // left to the position).
    const bool implicit = length == 0 && !spaced && move.squares.back().file != 0 &&
                          IsFileLetter(in.Peek()) && text::IsDigit(in.PeekAt(1));
    if (length == 0 && !implicit) {
      in = save;
      break;
    }
    const std::size_t separator_offset = in.Offset();
    const bool is_colon = in.Peek() == ':';
    in.Advance(length);
    while (in.Peek() == ' ' || in.Peek() == '\t') in.Advance();
    auto square = ReadSquare(in);
    if (!square.ok()) return Fail(square.error().message, square.error().offset);
    if (!*square) {
      // "45-40 -" is a move then the result "-"; "28x" is a broken move.
      if (spaced) {
        in = save;
        break;
      }
      return Fail("expected a square after the separator, found " + in.DescribeHere(), in.Offset());
    }
    if (move.squares.size() >= kMaxMoveTextSquares) {
      return Fail("a move lists more than " + std::to_string(kMaxMoveTextSquares) + " squares",
                  separator_offset);
    }
    any_capture_sign = any_capture_sign || capture_sign;
    colon = colon || is_colon;
    move.squares.push_back(**square);
  }
  const std::size_t needed = move.origin_file != 0 ? 1 : 2;
  if (move.squares.size() < needed) {
    return Fail("expected '-' or 'x' after the first square, found " + in.DescribeHere(),
                in.Offset());
  }
  const bool numbers = move.squares.front().file == 0;
  for (const WrittenSquare& square : move.squares) {
    if ((square.file == 0) != numbers || (move.origin_file != 0 && numbers)) {
      return Fail("a move mixes square numbers and coordinates", start);
    }
  }
  move.capture = any_capture_sign;
  move.separator = any_capture_sign ? (colon ? ':' : 'x') : '-';
  if (!move.capture && move.origin_file == 0 && move.squares.size() == 2 &&
      move.squares[0] == move.squares[1]) {
    // Also keeps "01-1" from becoming "1-1", which reads as a result.
    return Fail("a move without capture must leave its square", start);
  }
  // Annotations glued to the move.
  while (in.Peek() == '!' || in.Peek() == '?' || in.Peek() == '+' || in.Peek() == '#') {
    in.Advance();
  }
  Token token;
  token.kind = Token::kMove;
  token.written = move;
  token.text = FormatWrittenMove(move);
  if (numbers) {
    token.move.capture = move.capture;
    for (const WrittenSquare& square : move.squares) {
      if (square.number > kMaxMoveTextSquare) {
        return Fail("square number " + std::to_string(square.number) + " is too large (at most " +
                        std::to_string(kMaxMoveTextSquare) + ")",
                    start);
      }
      token.move.squares.push_back(square.number);
    }
  }
  return token;
}

}  // namespace

Token Next(text::Cursor& in) {
  const std::size_t start = in.Offset();
  const std::string_view rest = in.Rest();
  if (const auto [length, result] = ResultAt(rest); length > 0) {
    Token token;
    token.kind = Token::kResult;
    token.result = result;
    token.text = std::string(rest.substr(0, length));
    in.Advance(length);
    return token;
  }
  const char c = in.Peek();
  if (c == '.' || rest.substr(0, 3) == "\xe2\x80\xa6") {
    while (in.Peek() == '.' || in.Rest().substr(0, 3) == "\xe2\x80\xa6") {
      in.Advance(in.Peek() == '.' ? 1 : 3);
    }
    Token token;
    token.kind = Token::kEllipsis;
    return token;
  }
  if (c == '!' || c == '?') {
    while (in.Peek() == '!' || in.Peek() == '?') in.Advance();
    Token token;
    token.kind = Token::kWord;
    token.text = std::string(rest.substr(0, in.Offset() - start));
    return token;
  }
  if (text::IsDigit(c)) {
    std::size_t digits = 0;
    while (digits < rest.size() && text::IsDigit(rest[digits])) ++digits;
    // "12." and "12 ..." (spaces before the dots) are move numbers.
    const std::string_view after = rest.substr(SkipBlanks(rest, digits));
    if (!after.empty() && (after[0] == '.' || after.substr(0, 3) == "\xe2\x80\xa6")) {
      Token token;
      token.kind = Token::kMoveNumber;
      token.text = std::string(rest.substr(0, digits));
      auto number = in.ReadNumber("a move number", 1 << 30);
      token.number = number.ok() ? *number : -1;
      while (in.Peek() == ' ' || in.Peek() == '\t') in.Advance();
      std::size_t dots = 0;
      while (in.Peek() == '.' || in.Rest().substr(0, 3) == "\xe2\x80\xa6") {
        dots += in.Peek() == '.' ? 1 : 3;
        in.Advance(in.Peek() == '.' ? 1 : 3);
      }
      token.black_number = dots > 1;
      return token;
    }
  }
  if (text::IsDigit(c) || (IsFileLetter(c) && text::IsDigit(in.PeekAt(1)))) {
    auto first = ReadSquare(in);
    if (!first.ok()) return Fail(first.error().message, first.error().offset);
    WrittenMove move;
    move.squares.push_back(**first);
    return ReadMoveRest(in, move, start);
  }
  // The Russian short form: the origin's file, then the destination ("cd4",
  // "c:e5", with further landings "c:e5:g3").
  if (IsFileLetter(c)) {
    std::size_t i = 1;
    const auto [length, capture_sign] = SeparatorAt(rest.substr(1));
    if (capture_sign && rest[1] != 'x' && rest[1] != 'X') i += length;
    if (capture_sign && (rest[1] == 'x' || rest[1] == 'X') && rest.size() > 3 &&
        IsFileLetter(rest[2]) && text::IsDigit(rest[3])) {
      i += 1;
    }
    if (i < rest.size() && IsFileLetter(rest[i]) && i + 1 < rest.size() &&
        text::IsDigit(rest[i + 1])) {
      WrittenMove move;
      move.origin_file = Lower(c);
      move.capture = i > 1;
      move.separator = i > 1 ? (rest[1] == ':' ? ':' : 'x') : '-';
      in.Advance(i);
      auto destination = ReadSquare(in);
      if (!destination.ok()) return Fail(destination.error().message, destination.error().offset);
      move.squares.push_back(**destination);
      return ReadMoveRest(in, move, start);
    }
  }
  if (IsLetter(c)) {
    // A word such as "draw" or "resigns" outside a comment.
    while (!in.AtEnd() && !EndsWord(in.Rest())) in.Advance();
    Token token;
    token.kind = Token::kWord;
    token.text = std::string(rest.substr(0, in.Offset() - start));
    return token;
  }
  return Fail("unexpected " + in.DescribeHere() + " in the moves", start);
}

std::optional<PdnResult> ParseResult(std::string_view text) {
  while (!text.empty() && text::IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && text::IsSpace(text.back())) text.remove_suffix(1);
  if (text.empty() || text == "?") return PdnResult::kUnknown;
  const auto [length, result] = ResultAt(text);
  if (length != text.size()) return std::nullopt;
  return result;
}

Result<WrittenMove> ParseWrittenMove(std::string_view text) {
  text::Cursor in(text);
  Token token = Next(in);
  if (token.kind == Token::kError) return MakeError(token.error, token.error_offset);
  if (token.kind != Token::kMove || !in.AtEnd()) {
    return MakeError("\"" + text::Excerpt(text) + "\" is not a move", 0);
  }
  return token.written;
}

std::string FormatWrittenMove(const WrittenMove& move) {
  std::string out;
  if (move.origin_file != 0) {
    out += move.origin_file;
    if (move.capture) out += move.separator;
  }
  for (std::size_t i = 0; i < move.squares.size(); ++i) {
    if (i > 0) out += move.separator;
    if (move.squares[i].file != 0) out += move.squares[i].file;
    out += std::to_string(move.squares[i].number);
  }
  return out;
}

}  // namespace draughts::rules::pdn_lexer
