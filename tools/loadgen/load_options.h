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

  // gateway mode only.
  // Spectator sockets spread over the tables (each its own guest session).
  int spectators = 0;
  // VariantOptions.moveLimit of the tables (plies; 0 = the game's own end):
  // short games make the rematch path part of the load.
  int move_limit = 0;
  // The tables' timePerMove ("60s"; empty: the rule set's default).
  std::string time_per_move;
  // Each socket posts a chat line every this many moves (0: never).
  int chat_every_moves = 0;
  // Threads running the sockets (each table stays on one).
  int io_threads = 2;
  // Tables being set up at once while ramping up.
  int setup_concurrency = 32;
  // How long every table may take to start its first game; the warm-up and
  // the measured window follow.
  absl::Duration ramp_timeout = absl::Seconds(120);
  // No move until every table's game has started (or the ramp timed out):
  // the window then measures the whole crowd, not the first tables playing
  // as fast as the rate allows while the others still try to sit down.
  bool quiet_ramp = false;
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_LOAD_OPTIONS_H_
