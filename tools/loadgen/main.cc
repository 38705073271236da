// loadgen: drives many games at once and prints moves per second, the
// latency from sending a move to its event coming back, errors, lost or
// duplicated events and memory per live game. See README.md.
//
//   loadgen --mode=grpc --targets=127.0.0.1:50051 --games=200 --duration=30s --pids=<game_state
//   pid>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "loadgen/grpc_load.h"
#include "loadgen/load_options.h"
#include "platform/allocator_tuning.h"
#include "platform/config.h"
#include "platform/status_macros.h"

namespace draughts::loadgen {
namespace {

absl::Status Main(int argc, char** argv) {
  // gRPC's mutexes are absl::Mutex; cycle detection is a debugging aid
  // that costs a graph update per lock, not part of what is measured.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  platform::ConfigSpec spec("loadgen", "Load generator: concurrent games, checked event streams.");
  spec.AddString("mode", "", "grpc", "grpc (straight to game_state)");
  spec.AddString("targets", "", "127.0.0.1:50051",
                 "comma-separated host:port of the game_state replicas (games spread over them)");
  spec.AddInt("games", "", 64, "games played at once");
  spec.AddDuration("duration", "", absl::Seconds(20), "measured time");
  spec.AddDuration("warmup", "", absl::Seconds(2), "time before measuring");
  spec.AddString("rate", "", "0", "target moves per second over all games (0: no limit)");
  spec.AddString("variant", "", "international", "rule set of the games");
  spec.AddString("pids", "", "", "comma-separated pids whose memory per live game is reported");
  spec.AddDuration("drain-timeout", "", absl::Seconds(10),
                   "how long to wait at the end for the events of answered moves");
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();

  LoadOptions options;
  DRAUGHTS_ASSIGN_OR_RETURN(std::string targets, config.GetString("targets"));
  options.targets = absl::StrSplit(targets, ',', absl::SkipEmpty());
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t games, config.GetInt("games"));
  if (games < 1 || games > 100000) return absl::InvalidArgumentError("--games must be 1-100000");
  options.games = static_cast<int>(games);
  DRAUGHTS_ASSIGN_OR_RETURN(options.duration, config.GetDuration("duration"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.warmup, config.GetDuration("warmup"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.drain_timeout, config.GetDuration("drain-timeout"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string rate, config.GetString("rate"));
  if (!absl::SimpleAtod(rate, &options.target_rate) || options.target_rate < 0) {
    return absl::InvalidArgumentError("--rate must be a number >= 0");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(options.variant, config.GetString("variant"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string pids, config.GetString("pids"));
  for (absl::string_view pid : absl::StrSplit(pids, ',', absl::SkipEmpty())) {
    int value = 0;
    if (!absl::SimpleAtoi(pid, &value) || value <= 0) {
      return absl::InvalidArgumentError("--pids must be process ids");
    }
    options.watched_pids.push_back(value);
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::string mode, config.GetString("mode"));
  if (mode != "grpc") return absl::InvalidArgumentError("--mode must be grpc");
  DRAUGHTS_ASSIGN_OR_RETURN(LoadSummary summary, RunGrpcLoad(options));
  std::printf("mode=%s games=%d variant=%s rate=%s\n", mode.c_str(), options.games,
              options.variant.c_str(), rate.c_str());
  PrintSummary(summary, stdout);
  return absl::OkStatus();
}

}  // namespace
}  // namespace draughts::loadgen

int main(int argc, char** argv) {
  draughts::platform::ReexecWithAllocatorTuning(argv);
  const absl::Status status = draughts::loadgen::Main(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "loadgen: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
