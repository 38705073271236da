// grpc mode: games played straight against game_state. Each game is
// created with CreateGame, watched from its first event with WatchGame, and
// played to the end by its two guest seats with random legal moves (the
// rules library picks them); the watcher checks every answered move comes
// back once (move_ledger.h) and times it from sending to its event.
#ifndef DRAUGHTS_TOOLS_LOADGEN_GRPC_LOAD_H_
#define DRAUGHTS_TOOLS_LOADGEN_GRPC_LOAD_H_

#include "absl/status/statusor.h"
#include "loadgen/load_options.h"
#include "loadgen/load_stats.h"

namespace draughts::loadgen {

absl::StatusOr<LoadSummary> RunGrpcLoad(const LoadOptions& options);

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_GRPC_LOAD_H_
