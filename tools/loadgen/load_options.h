// What a load run drives and for how long: shared by both modes.
#ifndef DRAUGHTS_TOOLS_LOADGEN_LOAD_OPTIONS_H_
#define DRAUGHTS_TOOLS_LOADGEN_LOAD_OPTIONS_H_

#include <string>
#include <vector>

#include "absl/time/time.h"

namespace draughts::loadgen {

struct LoadOptions {
  // grpc mode: game_state replicas (host:port), each game on one of them.
  // gateway mode: the gateway (host:port).
  std::vector<std::string> targets;
  // Games played at once; a finished game is replaced by a new one.
  int games = 64;
  // Time measured after the warm-up.
  absl::Duration duration = absl::Seconds(20);
  absl::Duration warmup = absl::Seconds(2);
  // Moves per second over all games; 0 = each move as soon as the previous
  // one is answered.
  double target_rate = 0;
  std::string variant = "international";
  // Processes whose memory per live game is reported (RSS growth from
  // before the games were created to the end of the run), e.g. game_state.
  std::vector<int> watched_pids;
  // How long the end of the run waits for the events of moves already
  // answered before counting them lost.
  absl::Duration drain_timeout = absl::Seconds(10);
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_LOAD_OPTIONS_H_
