#include "hub/move_text.h"

#include <algorithm>

#include "rules/move_notation.h"
#include "rules/move_text.h"

namespace draughts::hub {
namespace {

constexpr int kMaxSquare = 255;
// More captured squares than any board has pieces is surely garbage.
constexpr std::size_t kMaxCaptured = 64;

std::vector<int> SortedCaptured(const rules::Move& move) {
  std::vector<int> squares(move.captured_squares().begin(), move.captured_squares().end());
  std::sort(squares.begin(), squares.end());
  return squares;
}

bool SameCapturedSet(const rules::Move& move, std::vector<int> written) {
  std::sort(written.begin(), written.end());
  return SortedCaptured(move) == written;
}

}  // namespace

rules::Result<HubMoveText> ParseHubMoveText(std::string_view text) {
  HubMoveText move;
  std::vector<int> squares;
  char separator = 0;
  std::size_t i = 0;
  while (true) {
    const std::size_t start = i;
    int value = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      value = value * 10 + (text[i] - '0');
      if (value > kMaxSquare) return rules::MakeError("square number too large", start);
      ++i;
    }
    if (i == start) return rules::MakeError("expected a square number", start);
    if (value == 0) return rules::MakeError("square 0 does not exist", start);
    squares.push_back(value);
    if (squares.size() > kMaxCaptured + 2) return rules::MakeError("too many squares", start);
    if (i == text.size()) break;
    const char c = text[i];
    if (c != '-' && c != 'x' && c != 'X') {
      return rules::MakeError("expected '-' or 'x' between squares", i);
    }
    const char kind = c == '-' ? '-' : 'x';
    if (separator != 0 && kind != separator) {
      return rules::MakeError("'-' and 'x' mixed in one move", i);
    }
    separator = kind;
    ++i;
  }
  if (squares.size() < 2) return rules::MakeError("a move needs two squares", text.size());
  move.capture = separator == 'x';
  if (!move.capture && squares.size() != 2) {
    return rules::MakeError("a quiet move has exactly two squares");
  }
  move.from = squares[0];
  move.to = squares[1];
  move.captured.assign(squares.begin() + 2, squares.end());
  return move;
}

std::string FormatHubMove(const rules::Move& move) {
  std::string out = std::to_string(move.from);
  out += move.is_capture() ? 'x' : '-';
  out += std::to_string(move.to);
  for (std::uint8_t square : move.captured_squares()) {
    out += 'x';
    out += std::to_string(square);
  }
  return out;
}

rules::Result<rules::Move> ParseHubMove(const rules::Variant& variant,
                                        const rules::Position& position, std::string_view text) {
  const rules::MoveList legal = rules::LegalMoves(variant, position);
  auto parsed = ParseHubMoveText(text);
  if (!parsed.ok()) return parsed.error();
  const HubMoveText& written = *parsed;

  std::vector<const rules::Move*> fits;
  for (const rules::Move& move : legal) {
    if (move.from != written.from || move.to != written.to) continue;
    if (move.is_capture() != written.capture) continue;
    if (!written.captured.empty() && !SameCapturedSet(move, written.captured)) continue;
    fits.push_back(&move);
  }
  // Moves that take the same pieces between the same squares reach the same
  // position (English king loops run either way round): any of them will do.
  if (!fits.empty()) {
    const std::vector<int> first = SortedCaptured(*fits.front());
    const bool all_same = std::all_of(fits.begin(), fits.end(), [&](const rules::Move* m) {
      return SortedCaptured(*m) == first;
    });
    if (all_same) return *fits.front();
    std::string options;
    for (const rules::Move* m : fits) {
      if (!options.empty()) options += ", ";
      options += FormatHubMove(*m);
    }
    return rules::MakeError("ambiguous move " + std::string(text) + ": could be " + options);
  }
  if (written.capture && !written.captured.empty()) {
    auto path = rules::ParseMoveText(text);
    if (path.ok()) {
      auto matched = rules::MatchMove(variant, position, *path);
      if (matched.ok()) return matched;
    }
  }
  return rules::MakeError("no legal move " + std::string(text));
}

}  // namespace draughts::hub
