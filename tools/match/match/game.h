#pragma once

// One game between two players, refereed by the rules library: the players
// only propose moves. A move that is not legal loses, as does no move in
// time (or a crash); the rules decide the rest (no pieces or no moves left
// loses; repetition and the rule set's draw rules draw). A game still going
// after `max_plies` is adjudicated a draw.

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "hub/commands.h"
#include "match/move_times.h"
#include "match/openings.h"
#include "match/player.h"
#include "rules/game.h"
#include "rules/pdn.h"
#include "rules/variant.h"

namespace draughts::match {

struct GameOptions {
  // Sent before every "go" (e.g. move-time); empty: no level command.
  hub::LevelCommand level;
  // A move that takes longer loses on time.
  std::chrono::milliseconds timeout{30000};
  int max_plies = 600;
};

struct Seat {
  Player* player = nullptr;
  std::string name;
  MoveTimes* times = nullptr;  // may be null
};

struct GameResult {
  rules::GameRecord record;
  // How it ended, for people: "Red wins: no legal moves",
  // "Black (engine) forfeits: illegal move 32-27 (no legal move 32-27)".
  std::string termination;
  // The side whose engine misbehaved (crash, time, illegal move), if any,
  // so the match can restart it.
  std::optional<rules::Color> failed;
  // Thinking time of each ply in the record; nullopt for opening moves.
  std::vector<std::optional<std::chrono::milliseconds>> think_times;
};

// Plays from the opening (its moves are part of the record). seats[0] has
// rules::Color::kWhite, seats[1] kBlack.
GameResult PlayGame(const rules::Variant& variant, const Opening& opening,
                    const std::array<Seat, 2>& seats, const GameOptions& options);

// The game as PDN: Event, Date ("2026.11.30"; "????.??.??" when empty),
// Round, the players' names and a Termination tag, then GameType, FEN and
// Result from the record. Each engine move carries its thinking time as a
// comment ("{1.503s}").
rules::PdnGame ToPdn(const GameResult& game, const std::array<Seat, 2>& seats,
                     const std::string& event, const std::string& date, int round);

}  // namespace draughts::match
