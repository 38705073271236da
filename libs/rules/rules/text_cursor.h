#pragma once

// A read position over a piece of text, shared by the FEN, move and PDN
// parsers so each reports errors with the offset of the offending character.
// Internal to the rules library's text formats; not part of the public API.

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

#include "rules/result.h"

namespace draughts::rules::text {

inline bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
inline bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// Printable form of one character for error messages, so control bytes in
// hostile input never end up raw in a log line.
inline std::string Describe(char c) {
  if (c >= 0x21 && c <= 0x7e) return std::string("'") + c + "'";
  if (c == ' ') return "a space";
  static constexpr char kHex[] = "0123456789abcdef";
  const auto byte = static_cast<unsigned char>(c);
  return std::string("byte 0x") + kHex[byte >> 4] + kHex[byte & 0xf];
}

// At most `limit` characters of `text` for an error message, marked when cut.
inline std::string Excerpt(std::string_view text, std::size_t limit = 40) {
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "...";
}

class Cursor {
 public:
  explicit Cursor(std::string_view text, std::size_t base_offset = 0)
      : text_(text), base_(base_offset) {}

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  char PeekAt(std::size_t ahead) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void Advance(std::size_t n = 1) { pos_ = pos_ + n > text_.size() ? text_.size() : pos_ + n; }
  // Offset in the whole input (the cursor may scan a slice of a larger text).
  std::size_t Offset() const { return base_ + pos_; }
  std::size_t Position() const { return pos_; }
  std::string_view Rest() const { return text_.substr(pos_); }
  std::string_view Text() const { return text_; }

  void SkipSpaces() {
    while (!AtEnd() && IsSpace(text_[pos_])) ++pos_;
  }
  bool Consume(char c) {
    if (Peek() != c || AtEnd()) return false;
    ++pos_;
    return true;
  }

  // Reads a decimal number no larger than `max_value`. Errors point at the
  // first character when there is no digit, or at the number when too large.
  Result<int> ReadNumber(std::string_view what, int max_value) {
    const std::size_t start = pos_;
    while (!AtEnd() && IsDigit(text_[pos_])) ++pos_;
    if (start == pos_) {
      return MakeError("expected " + std::string(what) + ", found " + DescribeHere(),
                       base_ + start);
    }
    int value = 0;
    const std::string_view digits = text_.substr(start, pos_ - start);
    const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (parsed.ec != std::errc() || value > max_value) {
      // Hostile input can hold thousands of digits; quote only the start.
      return MakeError(std::string(what) + " " + Excerpt(digits, 12) + " is too large (at most " +
                           std::to_string(max_value) + ")",
                       base_ + start);
    }
    return value;
  }

  std::string DescribeHere() const { return AtEnd() ? "end of text" : Describe(text_[pos_]); }

 private:
  std::string_view text_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
};

}  // namespace draughts::rules::text
