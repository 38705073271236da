#pragma once

// Helpers shared by the engine tests: positions from FEN, lines of moves
// from notation, random games for property tests.

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "rules/game.h"
#include "rules/move.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::engine::testing {

rules::Variant VariantOrDie(std::string_view id);
rules::Position PositionOrDie(const rules::Variant& variant, std::string_view fen);
// A record started at `fen` with `moves` (notation) played; fails the test on error.
rules::GameRecord RecordOrDie(const rules::Variant& variant, std::string_view fen,
                              const std::vector<std::string>& moves = {});
std::string Path(const rules::Move& move);  // "32x21x12"
// The same position seen from the other side: the board turned half a
// turn (square s becomes N+1-s), colours and side to move swapped.
rules::Position Mirror(const rules::Variant& variant, const rules::Position& position);

// `games` positions reached by random legal play from the start, each an
// ongoing game (play stops one move before a game would end).
std::vector<rules::GameRecord> RandomGames(const rules::Variant& variant, int games, int max_plies,
                                           std::uint64_t seed);

}  // namespace draughts::engine::testing
