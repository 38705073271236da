#pragma once

// What a database says about a position, from the side to move's point of
// view, and how it is stored: one byte per position.
//
// `plies` is the distance to conversion: the number of plies, with best
// play (the winner hurrying, the loser delaying), before a capture or a
// promotion takes the game out of the position's slice (its numbers of men
// and kings), counting that capture or promotion. A lost position whose
// side to move has no move at all has 0. Always moving to a position of
// the smallest distance keeps a win and makes progress: inside a slice the
// distance falls every move, and a conversion enters a smaller slice.
//
// "Win" is the theoretical result: the move-count draw rules (the 25-move
// and lone-king rules of international, the 40-move rule of English) and
// repetition are not part of the databases; the engine applies them.

#include <cstdint>
#include <optional>

namespace draughts::egdb {

enum class Wdl : std::uint8_t { kLoss = 0, kDraw = 1, kWin = 2 };

constexpr Wdl Flip(Wdl w) {
  return w == Wdl::kWin ? Wdl::kLoss : w == Wdl::kLoss ? Wdl::kWin : Wdl::kDraw;
}

struct Value {
  Wdl wdl = Wdl::kDraw;
  int plies = 0;  // distance to conversion (0 for a draw)
  friend bool operator==(const Value&, const Value&) = default;
};

// The stored byte. Distances above kMaxPlies are stored as kMaxPlies (none
// occurs in the slices built so far; the builder reports the largest).
namespace code {
inline constexpr int kMaxPlies = 125;
inline constexpr std::uint8_t kDraw = 0;
inline constexpr std::uint8_t kInvalid = 254;  // two pieces on one square: not a position
inline constexpr std::uint8_t kUnknown = 255;  // only while solving
constexpr std::uint8_t Win(int plies) {
  return static_cast<std::uint8_t>(1 + (plies < kMaxPlies ? plies : kMaxPlies));
}
constexpr std::uint8_t Loss(int plies) {
  return static_cast<std::uint8_t>(128 + (plies < kMaxPlies ? plies : kMaxPlies));
}
constexpr bool IsWin(std::uint8_t c) {
  return c >= 1 && c <= 1 + kMaxPlies;
}
constexpr bool IsLoss(std::uint8_t c) {
  return c >= 128 && c <= 128 + kMaxPlies;
}
constexpr int Plies(std::uint8_t c) {
  return IsWin(c) ? c - 1 : IsLoss(c) ? c - 128 : 0;
}
// nullopt for kInvalid and kUnknown.
constexpr std::optional<Value> Decode(std::uint8_t c) {
  if (c == kDraw) return Value{Wdl::kDraw, 0};
  if (IsWin(c)) return Value{Wdl::kWin, Plies(c)};
  if (IsLoss(c)) return Value{Wdl::kLoss, Plies(c)};
  return std::nullopt;
}
}  // namespace code

}  // namespace draughts::egdb
