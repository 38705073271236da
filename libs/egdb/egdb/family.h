#pragma once

// Which rule sets can have endgame databases and which of them share one.
//
// Two rule sets share databases when every rule that decides the positions
// following a position is the same (board, capture and king rules,
// promotion, goal): the databases store results, not moves, so how
// duplicate capture paths are counted (CaptureIdentity) does not matter, nor
// do names, colours, the first player or the draw rules (the databases
// ignore those, see value.h). A family is named after the first built-in
// rule set of its kind (AllVariants() order), e.g. "english".

#include <cstdint>
#include <optional>
#include <string>

#include "rules/variant.h"

namespace draughts::egdb {

// Why the solver cannot build databases for this rule set, or nullopt.
// Supported: the diagonal 8x8 and 10x10 boards, compulsory captures, "a
// side that cannot move loses", no limit on a king's consecutive moves.
std::optional<std::string> Unsupported(const rules::Variant& variant);

// A hash of the rules that decide the game tree (see above).
std::uint64_t RulesKey(const rules::Variant& variant);

// The family's name: the id of the first built-in rule set with the same
// RulesKey, or "custom-<hex key>" for a hand-made rule set.
std::string FamilyId(const rules::Variant& variant);

}  // namespace draughts::egdb
