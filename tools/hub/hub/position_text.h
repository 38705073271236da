#pragma once

// Hub position strings: the side to move ('W' or 'B') followed by one
// character per playable square in notation order, 'w'/'b' for men,
// 'W'/'B' for kings, 'e' for empty (Hub protocol v2, protocol.txt of Scan
// 3.x: 51 characters for 10x10). The same scheme gives 33 characters for
// 8x8 and 73 for 12x12. 'W' always means our Color::kWhite, the side that
// starts on the high-numbered squares, whatever the rule set calls it.

#include <optional>
#include <string>
#include <string_view>

#include "rules/geometry.h"
#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::hub {

std::string FormatHubPosition(const rules::Position& position);

// Reads a position for the variant's board. The side character is accepted
// in either case. Errors name the offending offset, a length that does not
// fit the board (saying which board it would fit), and the board checks of
// rules::Position::FromSetup (a man on its own promotion row, too many
// pieces).
rules::Result<rules::Position> ParseHubPosition(const rules::Variant& variant,
                                                std::string_view text);

// The board whose position strings have this length, if any.
std::optional<rules::BoardSize> BoardForHubPositionLength(std::size_t length);

}  // namespace draughts::hub
