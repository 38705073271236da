#pragma once

// A legal move as the move generator produces it. Squares are the 1-based
// notation numbers of the board the move was generated for.

#include <array>
#include <cstdint>
#include <span>

namespace draughts::rules {

struct Move {
  // A capture takes at most every opposing piece, and a side never has more
  // than 30 (12x12), so 32 landings always fit.
  static constexpr int kMaxCaptures = 32;

  std::uint8_t from = 0;
  std::uint8_t to = 0;
  std::uint8_t capture_count = 0;
  bool promotes = false;  // a man ends the move crowned
  bool by_king = false;   // the moving piece was a king before the move

  // Landing squares in order; the last one is `to`. One entry for a quiet
  // move, `capture_count` entries for a capture.
  std::array<std::uint8_t, kMaxCaptures> landings{};
  // Captured squares in the order they were jumped.
  std::array<std::uint8_t, kMaxCaptures> captured{};

  bool is_capture() const { return capture_count > 0; }
  int landing_count() const { return capture_count > 0 ? capture_count : 1; }
  std::span<const std::uint8_t> landing_squares() const {
    return {landings.data(), static_cast<std::size_t>(landing_count())};
  }
  std::span<const std::uint8_t> captured_squares() const {
    return {captured.data(), capture_count};
  }

  friend bool operator==(const Move& a, const Move& b) {
    if (a.from != b.from || a.to != b.to || a.capture_count != b.capture_count ||
        a.promotes != b.promotes || a.by_king != b.by_king)
      return false;
    for (int i = 0; i < a.landing_count(); ++i)
      if (a.landings[i] != b.landings[i]) return false;
    for (int i = 0; i < a.capture_count; ++i)
      if (a.captured[i] != b.captured[i]) return false;
    return true;
  }
};

}  // namespace draughts::rules
