#pragma once

// A match between two Hub engines: every opening twice, colours swapped,
// one game at a time. Games go to a PDN file as they finish (so an
// interrupted match keeps what it played), progress to `log`, and the
// report counts from engine 1's side.

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "match/elo.h"
#include "match/game.h"
#include "match/hub_engine.h"
#include "match/move_times.h"
#include "match/openings.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::match {

struct MatchOptions {
  rules::Variant variant;
  std::array<EngineSpec, 2> engines;
  std::vector<Opening> openings;
  GameOptions game;
  std::string pdn_path;  // empty: no PDN
  std::string event = "Engine match";
};

struct MatchReport {
  std::array<std::string, 2> names;
  MatchScore score;  // engine 1's wins, draws, losses
  std::array<MoveTimes, 2> times;
  int forfeits[2] = {0, 0};  // games lost by crash, time or illegal move
};

// Errors only when an engine cannot be started (or restarted) or the PDN
// file cannot be written.
rules::Result<MatchReport> RunMatch(const MatchOptions& options, std::FILE* log);

// The summary printed at the end: score, Elo, move times; the last line is
// machine-readable ("RESULT wins=.. draws=.. losses=.. ...").
std::string FormatReport(const MatchReport& report);

}  // namespace draughts::match
