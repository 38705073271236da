// The external engines an operator plugs in (--engines=<file>): programs
// that speak the Hub protocol (Scan and friends, or the project's own
// tools/hub), one per line, in the Hub protocol's own line syntax:
//
//   # id, program and parameters; '#' starts a comment line
//   engine id=scan name="Scan 3.1" command="/opt/scan/scan hub" variants="international frisian"
//   processes=2 move-time=1s param.book=false
//
//   id         what Seat.engine_id names: 1-40 of [A-Za-z0-9_.-], not
//              starting with "builtin-" (the built-in levels' ids)
//   command    run through /bin/sh -c
//   name       shown in ListEngines (default: the id)
//   variants   rule set ids it plays (default "international")
//   processes  engine processes at most (default 1, 1-64): how many moves
//              it thinks about at once
//   move-time  the time it gets per move ("1s", "500ms"; default 1s,
//              at most 60s); ChooseMove's time_budget overrides it
//   param.X=V  "set-param name=X value=V" before "init", in order
#ifndef DRAUGHTS_BOT_HUB_ENGINE_CONFIG_H_
#define DRAUGHTS_BOT_HUB_ENGINE_CONFIG_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::bot {

struct HubEngineConfig {
  std::string id;
  std::string display_name;
  std::string command;
  std::vector<std::string> variants;
  int processes = 1;
  absl::Duration move_time = absl::Seconds(1);
  std::vector<std::pair<std::string, std::string>> params;
};

// INVALID_ARGUMENT naming the line for anything malformed: unknown keys,
// a missing id or command, a repeated id, an unknown rule set, numbers out
// of range.
absl::StatusOr<std::vector<HubEngineConfig>> ParseHubEngineConfig(std::string_view text);

// Reads and parses the file; NOT_FOUND when it cannot be read.
absl::StatusOr<std::vector<HubEngineConfig>> LoadHubEngineConfig(const std::string& path);

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_HUB_ENGINE_CONFIG_H_
