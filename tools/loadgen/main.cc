// loadgen: drives many games at once and prints moves per second, the
// latency from sending a move to its event coming back, errors, lost or
// duplicated events and memory per live game. See README.md.
//
//   loadgen --mode=grpc --targets=127.0.0.1:50051 --games=200 --duration=30s --pids=<game_state
//   pid>
//   loadgen --mode=gateway --gateway=127.0.0.1:8080 --games=2000 --spectators=1000 --rate=3000
//   --duration=60s
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "loadgen/gateway_load.h"
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
  spec.AddString("mode", "", "grpc",
                 "grpc (straight to game_state) or gateway (HTTP + WebSocket as the web client)");
  spec.AddString("gateway", "", "127.0.0.1:8080", "gateway mode: the gateway's host:port");
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
  spec.AddInt("spectators", "", 0, "gateway mode: spectator sockets spread over the tables");
  spec.AddInt("move-limit", "", 0,
              "gateway mode: the tables' move limit in plies (0: games end by the rules)");
  spec.AddString("time-per-move", "", "", "gateway mode: the tables' timePerMove (e.g. 60s)");
  spec.AddInt("chat-every", "", 40,
              "gateway mode: each socket chats every this many moves (0: never)");
  spec.AddInt("io-threads", "", 2, "gateway mode: threads running the sockets");
  spec.AddInt("setup-concurrency", "", 32, "gateway mode: tables set up at once");
  spec.AddDuration("ramp-timeout", "", absl::Seconds(120),
                   "gateway mode: time allowed for every table to start its first game");
  spec.AddBool("quiet-ramp", "", false,
               "gateway mode: no move until every table's first game has started");
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
  if (mode != "grpc" && mode != "gateway") {
    return absl::InvalidArgumentError("--mode must be grpc or gateway");
  }
  if (mode == "gateway") {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string gateway, config.GetString("gateway"));
    options.targets = {gateway};
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t spectators, config.GetInt("spectators"));
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t move_limit, config.GetInt("move-limit"));
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t chat_every, config.GetInt("chat-every"));
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t io_threads, config.GetInt("io-threads"));
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t setup_concurrency, config.GetInt("setup-concurrency"));
    if (spectators < 0 || spectators > 1000000 || move_limit < 0 || move_limit > 2000 ||
        chat_every < 0 || chat_every > 1000000 || io_threads < 1 || io_threads > 64 ||
        setup_concurrency < 1 || setup_concurrency > 10000) {
      return absl::InvalidArgumentError(
          "--spectators 0-1000000, --move-limit 0-2000, --chat-every >= 0, --io-threads 1-64, "
          "--setup-concurrency 1-10000");
    }
    options.spectators = static_cast<int>(spectators);
    options.move_limit = static_cast<int>(move_limit);
    options.chat_every_moves = static_cast<int>(chat_every);
    options.io_threads = static_cast<int>(io_threads);
    options.setup_concurrency = static_cast<int>(setup_concurrency);
    DRAUGHTS_ASSIGN_OR_RETURN(options.time_per_move, config.GetString("time-per-move"));
    DRAUGHTS_ASSIGN_OR_RETURN(options.ramp_timeout, config.GetDuration("ramp-timeout"));
    DRAUGHTS_ASSIGN_OR_RETURN(options.quiet_ramp, config.GetBool("quiet-ramp"));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(LoadSummary summary,
                            mode == "gateway" ? RunGatewayLoad(options) : RunGrpcLoad(options));
  std::printf("mode=%s games=%d spectators=%d variant=%s rate=%s\n", mode.c_str(), options.games,
              options.spectators, options.variant.c_str(), rate.c_str());
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
