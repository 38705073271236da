// Load generator for game_state: many concurrent games, each alternately
// submitting a random legal move for its two players, spread round-robin
// over the replicas given (or, with --routing=per_game, each game on one). Prints moves/s and
// SubmitMove latency percentiles. Legal moves are computed here with the rules library, so every
// call measured is a SubmitMove.
//
//   game_state_loadgen --targets=127.0.0.1:50061,127.0.0.1:50062 --games=64 --duration=20s
#include <grpcpp/grpcpp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "draughts/v1/game.grpc.pb.h"
#include "platform/config.h"
#include "platform/status_macros.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "rules/variant.h"

namespace draughts::bench {
namespace {

struct Stats {
  std::mutex mu;
  std::vector<int64_t> latencies_us;  // SubmitMove, measured window only
  std::map<int, int64_t> errors;      // by gRPC code
  int64_t games_finished = 0;
  int64_t creates = 0;
  // Every SubmitMove answered OK, warm-up included: what the processes'
  // CPU time is divided by.
  int64_t moves_all = 0;
};

struct Options {
  std::vector<std::string> targets;
  int games = 64;
  absl::Duration duration = absl::Seconds(20);
  absl::Duration warmup = absl::Seconds(3);
  std::string variant = "international";
  // One HTTP/2 connection per replica carries all games, as a gateway's
  // channel would; more connections cost both sides more syscalls.
  int channels_per_target = 1;
  // Every call to the next replica in turn (each move is then a
  // cross-replica read-modify-write), or each game always to the same one.
  bool per_game_routing = false;
};

class Driver;

// One game played from start to end, then replaced by a new one.
class Game {
 public:
  Game(Driver* driver, int index) : driver_(driver), index_(index), rng_(index * 7919 + 1) {}
  void Start();

 private:
  void OnCreated(grpc::Status status);
  void SendMove();
  void OnMoved(grpc::Status status, absl::Time sent, const rules::Move& move);

  Driver* driver_;
  int index_;
  std::mt19937 rng_;
  int generation_ = 0;
  std::unique_ptr<grpc::ClientContext> context_;
  v1::CreateGameRequest create_request_;
  v1::CreateGameResponse created_;
  v1::SubmitMoveRequest move_request_;
  v1::SubmitMoveResponse move_response_;
  std::unique_ptr<rules::GameRecord> record_;
};

class Driver {
 public:
  explicit Driver(Options options) : options_(std::move(options)) {
    // Round-robin over replicas first, so consecutive calls of one game
    // land on different replicas.
    for (int c = 0; c < options_.channels_per_target; ++c) {
      for (const std::string& target : options_.targets) {
        grpc::ChannelArguments args;
        // Distinct arguments give distinct connections: the load spreads
        // over more than one HTTP/2 connection per replica.
        args.SetInt("draughts.bench.channel", c);
        stubs_.push_back(v1::GameService::NewStub(
            grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args)));
      }
    }
    variant_ = *rules::FindVariant(options_.variant);
  }

  v1::GameService::Stub& NextStub(int game_index) {
    if (options_.per_game_routing) {
      return *stubs_[static_cast<std::size_t>(game_index) % stubs_.size()];
    }
    return *stubs_[next_stub_.fetch_add(1) % stubs_.size()];
  }
  const Options& options() const { return options_; }
  const rules::Variant& variant() const { return variant_; }
  Stats& stats() { return stats_; }
  bool stopping() const { return stopping_.load(); }
  bool measuring(absl::Time at) const { return at >= measure_from_ && at < measure_until_; }

  void Run() {
    const absl::Time start = absl::Now();
    measure_from_ = start + options_.warmup;
    measure_until_ = measure_from_ + options_.duration;
    for (int i = 0; i < options_.games; ++i) games_.push_back(std::make_unique<Game>(this, i));
    in_flight_.store(options_.games);
    for (auto& game : games_) game->Start();
    absl::SleepFor(measure_until_ - absl::Now());
    stopping_.store(true);
    std::unique_lock<std::mutex> lock(done_mu_);
    done_.wait_for(lock, std::chrono::seconds(30), [this] { return in_flight_.load() == 0; });
  }

  void GameStopped() {
    if (in_flight_.fetch_sub(1) == 1) {
      std::lock_guard<std::mutex> lock(done_mu_);
      done_.notify_all();
    }
  }

  void Report() {
    std::lock_guard<std::mutex> lock(stats_.mu);
    std::vector<int64_t>& l = stats_.latencies_us;
    std::sort(l.begin(), l.end());
    auto pct = [&](double p) -> double {
      if (l.empty()) return 0;
      return static_cast<double>(
                 l[std::min(l.size() - 1, static_cast<std::size_t>(p * l.size()))]) /
             1000.0;
    };
    const double seconds = absl::ToDoubleSeconds(options_.duration);
    std::printf("replicas=%zu games=%d duration=%.0fs variant=%s routing=%s\n",
                options_.targets.size(), options_.games, seconds, options_.variant.c_str(),
                options_.per_game_routing ? "per_game" : "round_robin");
    std::printf(
        "moves=%zu moves_per_s=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f\n",
        l.size(), static_cast<double>(l.size()) / seconds, pct(0.50), pct(0.90), pct(0.99),
        pct(0.999), l.empty() ? 0.0 : static_cast<double>(l.back()) / 1000.0);
    std::printf("games_created=%lld games_finished=%lld moves_all=%lld\n",
                static_cast<long long>(stats_.creates),
                static_cast<long long>(stats_.games_finished),
                static_cast<long long>(stats_.moves_all));
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    std::printf("loadgen_cpu_s=%.2f\n", cpu);
    for (const auto& [code, count] : stats_.errors) {
      std::printf("errors code=%d count=%lld\n", code, static_cast<long long>(count));
    }
  }

 private:
  Options options_;
  rules::Variant variant_;
  std::vector<std::unique_ptr<v1::GameService::Stub>> stubs_;
  std::atomic<std::size_t> next_stub_{0};
  std::vector<std::unique_ptr<Game>> games_;
  Stats stats_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> in_flight_{0};
  std::mutex done_mu_;
  std::condition_variable done_;
  absl::Time measure_from_;
  absl::Time measure_until_;
};

void Game::Start() {
  if (driver_->stopping()) {
    driver_->GameStopped();
    return;
  }
  ++generation_;
  create_request_.Clear();
  create_request_.set_idempotency_key(
      absl::StrCat("bench-", getpid(), "-", index_, "-", generation_, "-", rng_()));
  create_request_.set_variant(driver_->options().variant);
  for (v1::Seat* seat : {create_request_.mutable_white(), create_request_.mutable_black()}) {
    seat->set_kind(v1::SEAT_KIND_GUEST);
    seat->set_player_id(
        absl::StrCat("bench-", index_, seat == create_request_.mutable_white() ? "w" : "b"));
    seat->set_display_name(seat->player_id());
  }
  context_ = std::make_unique<grpc::ClientContext>();
  context_->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  created_.Clear();
  driver_->NextStub(index_).async()->CreateGame(context_.get(), &create_request_, &created_,
                                                [this](grpc::Status status) { OnCreated(status); });
}

void Game::OnCreated(grpc::Status status) {
  {
    std::lock_guard<std::mutex> lock(driver_->stats().mu);
    if (status.ok()) {
      ++driver_->stats().creates;
    } else {
      ++driver_->stats().errors[status.error_code()];
    }
  }
  if (!status.ok()) {
    Start();
    return;
  }
  rules::Result<rules::Position> start = rules::ParseFen(driver_->variant(), created_.game().fen());
  record_ = std::make_unique<rules::GameRecord>(driver_->variant(), *start);
  SendMove();
}

void Game::SendMove() {
  if (driver_->stopping()) {
    driver_->GameStopped();
    return;
  }
  if (record_->is_over()) {
    {
      std::lock_guard<std::mutex> lock(driver_->stats().mu);
      ++driver_->stats().games_finished;
    }
    Start();
    return;
  }
  const rules::MoveList& legal = record_->legal_moves();
  const rules::Move move = legal[rng_() % legal.size()];
  const bool white = record_->position().side_to_move() == rules::Color::kWhite;
  move_request_.set_game_id(created_.game_id());
  move_request_.set_player_token(white ? created_.white_player_token()
                                       : created_.black_player_token());
  move_request_.set_move(rules::FormatMovePath(move));
  move_request_.set_expected_ply(record_->ply_count());
  context_ = std::make_unique<grpc::ClientContext>();
  context_->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  move_response_.Clear();
  const absl::Time sent = absl::Now();
  driver_->NextStub(index_).async()->SubmitMove(
      context_.get(), &move_request_, &move_response_,
      [this, sent, move](grpc::Status status) { OnMoved(status, sent, move); });
}

void Game::OnMoved(grpc::Status status, absl::Time sent, const rules::Move& move) {
  const absl::Time now = absl::Now();
  {
    std::lock_guard<std::mutex> lock(driver_->stats().mu);
    if (!status.ok()) {
      ++driver_->stats().errors[status.error_code()];
    } else {
      ++driver_->stats().moves_all;
      if (driver_->measuring(sent)) {
        driver_->stats().latencies_us.push_back(absl::ToInt64Microseconds(now - sent));
      }
    }
  }
  if (!status.ok()) {
    Start();  // abandon this game: its state is unknown
    return;
  }
  record_->Apply(move);
  if (move_response_.game().result() != v1::GAME_RESULT_ONGOING && !record_->is_over()) {
    // The server ended it (it should agree with the rules library).
    Start();
    return;
  }
  SendMove();
}

absl::Status Main(int argc, char** argv) {
  // gRPC's mutexes are absl::Mutex; cycle detection costs a graph update on
  // every lock and is a debugging aid, not part of what is measured.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  platform::ConfigSpec spec("game_state_loadgen", "Load generator for game_state.");
  spec.AddString("targets", "", "127.0.0.1:50051", "comma-separated host:port of the replicas");
  spec.AddInt("games", "", 64, "concurrent games");
  spec.AddDuration("duration", "", absl::Seconds(20), "measured time");
  spec.AddDuration("warmup", "", absl::Seconds(3), "time before measuring");
  spec.AddString("variant", "", "international", "rule set");
  spec.AddInt("channels-per-target", "", 1, "gRPC connections per replica");
  spec.AddString("routing", "", "round_robin",
                 "round_robin (each call to the next replica) or per_game (a game stays on one)");
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  Options options;
  DRAUGHTS_ASSIGN_OR_RETURN(std::string targets, config.GetString("targets"));
  options.targets = absl::StrSplit(targets, ',', absl::SkipEmpty());
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t games, config.GetInt("games"));
  options.games = static_cast<int>(games);
  DRAUGHTS_ASSIGN_OR_RETURN(options.duration, config.GetDuration("duration"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.warmup, config.GetDuration("warmup"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.variant, config.GetString("variant"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t channels, config.GetInt("channels-per-target"));
  options.channels_per_target = static_cast<int>(std::clamp<int64_t>(channels, 1, 64));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string routing, config.GetString("routing"));
  if (routing != "round_robin" && routing != "per_game") {
    return absl::InvalidArgumentError("--routing must be round_robin or per_game");
  }
  options.per_game_routing = routing == "per_game";
  if (options.targets.empty() || options.games < 1) {
    return absl::InvalidArgumentError("need --targets and --games >= 1");
  }
  if (!rules::FindVariant(options.variant).ok()) {
    return absl::InvalidArgumentError("unknown --variant");
  }
  Driver driver(options);
  driver.Run();
  driver.Report();
  return absl::OkStatus();
}

}  // namespace
}  // namespace draughts::bench

int main(int argc, char** argv) {
  absl::Status status = draughts::bench::Main(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "game_state_loadgen: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
