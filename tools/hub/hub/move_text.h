#pragma once

// Hub move strings (Hub protocol v2, protocol.txt of Scan 3.x): a quiet
// move is "32-28"; a capture is the origin, the destination, then every
// captured square in any order, all joined by 'x': "28x19x23" (from 28 to
// 19 taking 23). Unlike PDN, intermediate landing squares are not written:
// the captured set names the move uniquely wherever PDN would need them.

#include <string>
#include <string_view>
#include <vector>

#include "rules/move.h"
#include "rules/movegen.h"
#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::hub {

struct HubMoveText {
  int from = 0;
  int to = 0;
  bool capture = false;
  std::vector<int> captured;  // as written; may be empty for "28x19"

  friend bool operator==(const HubMoveText&, const HubMoveText&) = default;
};

// Syntax only: squares 1..255, '-' for a quiet move with exactly two
// squares, 'x' between every square of a capture.
rules::Result<HubMoveText> ParseHubMoveText(std::string_view text);

// Captured squares are written in the order they are jumped.
std::string FormatHubMove(const rules::Move& move);

// The legal move the text names. Besides the Hub form, "28x19" alone is
// accepted when only one capture goes from 28 to 19, and when the Hub
// reading fits no legal move a PDN landing path ("28x19x10") is tried, so
// moves from engines that write PDN are still understood. Errors say why
// (no such move, ambiguous, syntax) and never change anything.
rules::Result<rules::Move> ParseHubMove(const rules::Variant& variant,
                                        const rules::Position& position, std::string_view text);

}  // namespace draughts::hub
