// clock_bench: arms N deadlines through the deadlines stream (as
// game-state's relay does) and measures how late the clock replicas fire
// them. It serves a stand-in GameService whose PlayAutomaticMove records
// when each call arrives (the clock's work ends with that call), so the
// figures are the clock's alone, not game-state's.
//
//   clock_bench --redis=127.0.0.1:6379 --game-state-port=50999
//               --deadlines=20000 --spread=10s --lead=3s
//
// Prints the lateness percentiles, duplicates and missing deadlines; exits 1
// when a deadline is missing or fired twice, or p99 is over --max-p99.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "draughts/v1/events.pb.h"
#include "draughts/v1/game.grpc.pb.h"
#include "platform/config.h"
#include "platform/proto_time.h"
#include "platform/redis_client.h"
#include "platform/status_macros.h"

namespace draughts::clock_bench {
namespace {

// Records the first arrival of each (game, ply) and counts repeats.
class StandInGameService final : public v1::GameService::Service {
 public:
  grpc::Status PlayAutomaticMove(grpc::ServerContext*, const v1::PlayAutomaticMoveRequest* request,
                                 v1::PlayAutomaticMoveResponse* response) override {
    const absl::Time now = absl::Now();
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto [it, first] = arrivals_.emplace(request->game_id(), now);
      if (!first) ++repeats_;
    }
    response->set_played(true);
    response->mutable_game()->set_game_id(request->game_id());
    response->mutable_game()->set_ply(request->expected_ply() + 1);
    return grpc::Status::OK;
  }

  std::map<std::string, absl::Time> Arrivals() {
    std::lock_guard<std::mutex> lock(mu_);
    return arrivals_;
  }
  int Repeats() {
    std::lock_guard<std::mutex> lock(mu_);
    return repeats_;
  }

 private:
  std::mutex mu_;
  std::map<std::string, absl::Time> arrivals_;
  int repeats_ = 0;
};

platform::ConfigSpec Spec() {
  platform::ConfigSpec spec("clock_bench", "Lateness of the clock's deadlines under load.");
  spec.AddString("redis", "", "127.0.0.1:6379", "Redis host:port");
  spec.AddString("stream", "", "draughts:deadlines", "the clock replicas' deadlines stream");
  spec.AddInt("game-state-port", "", 0, "port the clock replicas call as game-state");
  spec.AddInt("deadlines", "", 20000, "deadlines to arm (one game each)");
  spec.AddDuration("spread", "", absl::Seconds(10), "deadlines are spread evenly over this");
  spec.AddDuration("lead", "", absl::Seconds(3), "the first deadline is this far ahead");
  spec.AddDuration("max-p99", "", absl::Milliseconds(250), "fail above this p99 lateness");
  return spec;
}

absl::Duration Percentile(const std::vector<absl::Duration>& sorted, double p) {
  if (sorted.empty()) return absl::ZeroDuration();
  const std::size_t index =
      std::min(sorted.size() - 1, static_cast<std::size_t>(p * static_cast<double>(sorted.size())));
  return sorted[index];
}

double Ms(absl::Duration d) {
  return absl::ToDoubleMilliseconds(d);
}

absl::Status Run(int argc, char** argv) {
  const platform::ConfigSpec spec = Spec();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string stream, config.GetString("stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t port, config.GetInt("game-state-port"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t count, config.GetInt("deadlines"));
  DRAUGHTS_ASSIGN_OR_RETURN(absl::Duration spread, config.GetDuration("spread"));
  DRAUGHTS_ASSIGN_OR_RETURN(absl::Duration lead, config.GetDuration("lead"));
  DRAUGHTS_ASSIGN_OR_RETURN(absl::Duration max_p99, config.GetDuration("max-p99"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));

  StandInGameService game_state;
  grpc::ServerBuilder builder;
  builder.AddListeningPort(absl::StrCat("127.0.0.1:", port), grpc::InsecureServerCredentials());
  builder.RegisterService(&game_state);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 32);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr) return absl::UnavailableError("cannot listen as game-state");

  // Arm: one ClockUpdate per game, pipelined, deadlines evenly spread.
  platform::RedisClient redis(redis_options);
  const absl::Time first = absl::Now() + lead;
  std::map<std::string, absl::Time> deadlines;
  std::vector<std::vector<std::string>> batch;
  const absl::Time feed_started = absl::Now();
  for (int64_t i = 0; i < count; ++i) {
    const std::string id = absl::StrCat("bench-", i);
    const absl::Time deadline =
        first + spread * (static_cast<double>(i) / static_cast<double>(count));
    deadlines[id] = deadline;
    v1::ClockUpdate update;
    update.set_game_id(id);
    update.set_game_version(1);
    update.set_expected_ply(0);
    update.set_color(v1::COLOR_WHITE);
    *update.mutable_deadline() = platform::ToProtoTime(deadline);
    batch.push_back({"XADD", stream, "*", "data", update.SerializeAsString(), "game_id", id});
    if (batch.size() == 1000 || i + 1 == count) {
      DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> replies, redis.Pipeline(batch));
      for (const platform::RedisReply& reply : replies) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
      batch.clear();
    }
  }
  std::printf("armed %lld deadlines in %.0f ms, due from +%s over %s\n",
              static_cast<long long>(count), Ms(absl::Now() - feed_started),
              absl::FormatDuration(lead).c_str(), absl::FormatDuration(spread).c_str());
  std::fflush(stdout);

  // Wait for every deadline (or give up 10 s after the last one).
  const absl::Time give_up = first + spread + absl::Seconds(10);
  while (absl::Now() < give_up && static_cast<int64_t>(game_state.Arrivals().size()) < count) {
    absl::SleepFor(absl::Milliseconds(100));
  }
  absl::SleepFor(absl::Milliseconds(500));  // late repeats, if any
  const std::map<std::string, absl::Time> arrivals = game_state.Arrivals();
  std::vector<absl::Duration> lateness;
  int early = 0;
  for (const auto& [id, at] : arrivals) {
    const absl::Duration late = at - deadlines[id];
    if (late < absl::ZeroDuration()) ++early;
    lateness.push_back(late);
  }
  std::sort(lateness.begin(), lateness.end());
  server->Shutdown(absl::ToChronoTime(absl::Now() + absl::Seconds(1)));
  const int64_t missing = count - static_cast<int64_t>(arrivals.size());
  const absl::Duration p99 = Percentile(lateness, 0.99);
  std::printf(
      "fired=%zu missing=%lld repeats=%d early=%d lateness_ms p50=%.1f p90=%.1f p99=%.1f "
      "max=%.1f\n",
      arrivals.size(), static_cast<long long>(missing), game_state.Repeats(), early,
      Ms(Percentile(lateness, 0.5)), Ms(Percentile(lateness, 0.9)), Ms(p99),
      Ms(lateness.empty() ? absl::ZeroDuration() : lateness.back()));
  if (missing > 0 || game_state.Repeats() > 0 || early > 0) {
    return absl::InternalError("deadlines missing, repeated or early");
  }
  if (p99 >= max_p99) {
    return absl::DeadlineExceededError(
        absl::StrCat("p99 lateness ", Ms(p99), " ms is not under ", Ms(max_p99), " ms"));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace draughts::clock_bench

int main(int argc, char** argv) {
  const absl::Status status = draughts::clock_bench::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "clock_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
