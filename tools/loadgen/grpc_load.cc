#include "loadgen/grpc_load.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "draughts/v1/game.grpc.pb.h"
#include "loadgen/move_ledger.h"
#include "loadgen/pacer.h"
#include "loadgen/run_window.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "rules/variant.h"

namespace draughts::loadgen {
namespace {

constexpr auto kCallTimeout = std::chrono::seconds(10);

std::string CodeName(const grpc::Status& status) {
  static const char* const kNames[] = {"OK",
                                       "CANCELLED",
                                       "UNKNOWN",
                                       "INVALID_ARGUMENT",
                                       "DEADLINE_EXCEEDED",
                                       "NOT_FOUND",
                                       "ALREADY_EXISTS",
                                       "PERMISSION_DENIED",
                                       "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION",
                                       "ABORTED",
                                       "OUT_OF_RANGE",
                                       "UNIMPLEMENTED",
                                       "INTERNAL",
                                       "UNAVAILABLE",
                                       "DATA_LOSS",
                                       "UNAUTHENTICATED"};
  const int code = static_cast<int>(status.error_code());
  return code >= 0 && code < 17 ? kNames[code] : absl::StrCat(code);
}

class GrpcRun;

// WatchGame of one game, self-deleting after its last callback.
class GameWatcher final : public grpc::ClientReadReactor<v1::GameEvent> {
 public:
  using OnEvent = std::function<void(const v1::GameEvent&)>;
  using OnDoneFn = std::function<void(const grpc::Status&)>;

  // `released` runs last, once this watcher is gone.
  GameWatcher(v1::GameService::Stub& stub, const std::string& game_id, OnEvent on_event,
              OnDoneFn on_done, std::function<void()> released)
      : on_event_(std::move(on_event)),
        on_done_(std::move(on_done)),
        released_(std::move(released)) {
    request_.set_game_id(game_id);
    stub.async()->WatchGame(&context_, &request_, this);
    StartRead(&event_);
    StartCall();
  }

  void Cancel() { context_.TryCancel(); }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    on_event_(event_);
    StartRead(&event_);
  }

  void OnDone(const grpc::Status& status) override {
    on_done_(status);
    std::function<void()> released = std::move(released_);
    delete this;
    released();
  }

 private:
  grpc::ClientContext context_;
  v1::WatchGameRequest request_;
  v1::GameEvent event_;
  OnEvent on_event_;
  OnDoneFn on_done_;
  std::function<void()> released_;
};

// One seat pair playing games one after the other until the run stops.
class GrpcGame {
 public:
  GrpcGame(GrpcRun* run, int index) : run_(run), index_(index), rng_(index * 7919 + 17) {}
  void Start();
  // Stop sending; the watcher ends once the answered moves' events came.
  void RequestStop();
  // Ends the watcher even if events are missing (the drain timed out).
  void ForceCancel();
  bool stopped() const { return stopped_.load(); }
  bool live() const;

 private:
  void OnCreated(const grpc::Status& status);
  void SendMove();
  void SendMoveNow();
  void OnMoved(const grpc::Status& status, int ply_after, const rules::Move& move);
  void OnEvent(const v1::GameEvent& event);
  void OnWatchDone(const grpc::Status& status);
  // With mu_ held: stop playing this game; cancel the watcher once nothing
  // is owed. Returns the watcher to cancel now, if any.
  GameWatcher* EndPlayLocked();
  // With mu_ held: the generation is over when nothing runs any more.
  bool GenerationDoneLocked() const { return play_over_ && !call_in_flight_ && !watcher_; }
  void FinishGeneration();

  GrpcRun* run_;
  const int index_;
  std::mt19937 rng_;
  mutable std::mutex mu_;
  int generation_ = 0;
  bool play_over_ = true;
  bool call_in_flight_ = false;
  bool cancel_when_caught_up_ = false;
  GameWatcher* watcher_ = nullptr;
  std::unique_ptr<rules::GameRecord> record_;
  std::unique_ptr<MoveLedger> ledger_;
  std::atomic<bool> stopped_{false};
  v1::GameService::Stub* stub_ = nullptr;
  std::unique_ptr<grpc::ClientContext> context_;
  v1::CreateGameRequest create_request_;
  v1::CreateGameResponse created_;
  v1::SubmitMoveRequest move_request_;
  v1::SubmitMoveResponse move_response_;
};

class GrpcRun {
 public:
  explicit GrpcRun(const LoadOptions& options)
      : options_(options),
        variant_(*rules::FindVariant(options.variant)),
        window_(options_, &stats_),
        pacer_(options.target_rate) {
    for (const std::string& target : options_.targets) {
      // A connection of its own per listed target, even one listed twice
      // (gRPC would otherwise share one between equal channels).
      grpc::ChannelArguments arguments;
      arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
      stubs_.push_back(v1::GameService::NewStub(
          grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), arguments)));
    }
  }

  LoadSummary Run() {
    for (int i = 0; i < options_.games; ++i) games_.push_back(std::make_unique<GrpcGame>(this, i));
    for (auto& game : games_) game->Start();
    window_.RunUntilStop();
    int live = 0;
    for (auto& game : games_) live += game->live() ? 1 : 0;
    for (auto& game : games_) game->RequestStop();
    if (!WaitAllStopped(options_.drain_timeout)) {
      for (auto& game : games_) game->ForceCancel();
      all_stopped_ = WaitAllStopped(absl::Seconds(30));
    }
    LoadSummary summary = stats_.Summarize();
    window_.AddMemory(summary, live);
    return summary;
  }

  // False when some game never stopped (a call still pending): then the
  // run must not be destroyed, its callbacks may still come.
  bool all_stopped() const { return all_stopped_; }

  void GameStopped() {
    std::lock_guard<std::mutex> lock(done_mu_);
    done_.notify_all();
  }

  // Every asynchronous call (and watcher) of a game is counted from before
  // it starts until the very end of its last callback: the run waits for
  // none to be left before its games, stubs and channels go (a callback
  // still unwinding on a gRPC thread would otherwise touch them).
  void CallStarted() {
    std::lock_guard<std::mutex> lock(done_mu_);
    ++pending_calls_;
  }
  // The caller's last touch of the run and its game: notifies under the
  // lock, so the waiter cannot destroy the run before this returns.
  void CallEnded() {
    std::lock_guard<std::mutex> lock(done_mu_);
    --pending_calls_;
    done_.notify_all();
  }

  v1::GameService::Stub& StubFor(int index) {
    return *stubs_[static_cast<std::size_t>(index) % stubs_.size()];
  }
  const rules::Variant& variant() const { return variant_; }
  const LoadOptions& options() const { return options_; }
  LoadStats& stats() { return stats_; }
  bool stopping() const { return window_.stopping(); }
  Pacer& pacer() { return pacer_; }

 private:
  bool WaitAllStopped(absl::Duration timeout) {
    std::unique_lock<std::mutex> lock(done_mu_);
    return done_.wait_for(lock, absl::ToChronoNanoseconds(timeout), [this] {
      for (auto& game : games_) {
        if (!game->stopped()) return false;
      }
      return pending_calls_ == 0;
    });
  }

  const LoadOptions& options_;
  const rules::Variant variant_;
  LoadStats stats_;
  RunWindow window_;
  std::vector<std::unique_ptr<v1::GameService::Stub>> stubs_;
  std::mutex done_mu_;
  std::condition_variable done_;
  int pending_calls_ = 0;  // guarded by done_mu_
  bool all_stopped_ = true;
  // Declared after what its work touches, destroyed before it; games last.
  Pacer pacer_;
  std::vector<std::unique_ptr<GrpcGame>> games_;
};

bool GrpcGame::live() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !play_over_;
}

void GrpcGame::Start() {
  if (run_->stopping()) {
    stopped_.store(true);
    run_->GameStopped();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++generation_;
    play_over_ = false;
    call_in_flight_ = true;
    cancel_when_caught_up_ = false;
    ledger_ = std::make_unique<MoveLedger>();
    record_.reset();
    stub_ = &run_->StubFor(index_);
    create_request_.Clear();
    create_request_.set_idempotency_key(
        absl::StrCat("loadgen-", getpid(), "-", index_, "-", generation_, "-", rng_()));
    create_request_.set_variant(run_->options().variant);
    for (v1::Seat* seat : {create_request_.mutable_white(), create_request_.mutable_black()}) {
      seat->set_kind(v1::SEAT_KIND_GUEST);
      const bool white = seat == create_request_.mutable_white();
      seat->set_player_id(absl::StrCat("loadgen-", index_, white ? "w" : "b"));
      seat->set_display_name(absl::StrCat("Load ", index_, white ? " white" : " black"));
    }
    context_ = std::make_unique<grpc::ClientContext>();
    context_->set_deadline(std::chrono::system_clock::now() + kCallTimeout);
    created_.Clear();
  }
  run_->CallStarted();
  stub_->async()->CreateGame(context_.get(), &create_request_, &created_,
                             [this, run = run_](grpc::Status status) {
                               OnCreated(status);
                               run->CallEnded();
                             });
}

void GrpcGame::OnCreated(const grpc::Status& status) {
  if (!status.ok()) {
    run_->stats().Error("CreateGame", CodeName(status));
    {
      std::lock_guard<std::mutex> lock(mu_);
      call_in_flight_ = false;
      play_over_ = true;
    }
    FinishGeneration();
    return;
  }
  run_->stats().GameCreated();
  rules::Result<rules::Position> start = rules::ParseFen(run_->variant(), created_.game().fen());
  {
    std::lock_guard<std::mutex> lock(mu_);
    record_ = std::make_unique<rules::GameRecord>(run_->variant(), *start);
    run_->CallStarted();
    GrpcRun* run = run_;
    watcher_ = new GameWatcher(
        *stub_, created_.game_id(), [this](const v1::GameEvent& event) { OnEvent(event); },
        [this](const grpc::Status& done) { OnWatchDone(done); }, [run] { run->CallEnded(); });
  }
  SendMove();
}

GameWatcher* GrpcGame::EndPlayLocked() {
  play_over_ = true;
  cancel_when_caught_up_ = true;
  if (watcher_ != nullptr && ledger_->Missing() == 0 && record_ != nullptr && !record_->is_over()) {
    return watcher_;
  }
  return nullptr;
}

void GrpcGame::RequestStop() {
  GameWatcher* cancel = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (call_in_flight_) return;  // its answer sees the run stopping
    cancel = EndPlayLocked();
    if (cancel != nullptr) cancel->Cancel();
  }
  FinishGeneration();
}

void GrpcGame::ForceCancel() {
  std::lock_guard<std::mutex> lock(mu_);
  if (watcher_ != nullptr) watcher_->Cancel();
}

void GrpcGame::SendMove() {
  // The paced work counts as a call: it may run after the last answer.
  run_->CallStarted();
  run_->pacer().Run([this, run = run_] {
    SendMoveNow();
    run->CallEnded();
  });
}

void GrpcGame::SendMoveNow() {
  rules::Move move;
  int ply_after = 0;
  bool ended = false;
  {
    // Decided and prepared under one lock: once play is over, another
    // thread (the watcher's end, RequestStop) may finish this generation
    // and start the next one, whose record is still empty.
    std::lock_guard<std::mutex> lock(mu_);
    const bool over = record_->is_over();
    if (over) run_->stats().GameFinished();
    if (over || run_->stopping()) {
      call_in_flight_ = false;
      if (GameWatcher* cancel = EndPlayLocked()) cancel->Cancel();
      ended = true;
    } else {
      const rules::MoveList& legal = record_->legal_moves();
      move = legal[rng_() % legal.size()];
      const bool white = record_->position().side_to_move() == rules::Color::kWhite;
      ply_after = record_->ply_count() + 1;
      move_request_.set_game_id(created_.game_id());
      move_request_.set_player_token(white ? created_.white_player_token()
                                           : created_.black_player_token());
      move_request_.set_move(rules::FormatMovePath(move));
      move_request_.set_expected_ply(record_->ply_count());
      context_ = std::make_unique<grpc::ClientContext>();
      context_->set_deadline(std::chrono::system_clock::now() + kCallTimeout);
      move_response_.Clear();
      ledger_->Sent(ply_after, rules::FormatMove(legal, move), absl::Now());
    }
  }
  if (ended) {
    FinishGeneration();
    return;
  }
  run_->CallStarted();
  stub_->async()->SubmitMove(context_.get(), &move_request_, &move_response_,
                             [this, run = run_, ply_after, move](grpc::Status status) {
                               OnMoved(status, ply_after, move);
                               run->CallEnded();
                             });
}

void GrpcGame::OnMoved(const grpc::Status& status, int ply_after, const rules::Move& move) {
  bool go_on = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!status.ok()) {
      run_->stats().Error("SubmitMove", CodeName(status));
      ledger_->Failed(ply_after);
    } else {
      run_->stats().MoveAcknowledged();
      ledger_->Acknowledged(ply_after);
      record_->Apply(move);
    }
    // A failed move leaves the game's state unknown; a game the server
    // ended (it should agree with the rules library) has no next move.
    const bool server_ended = status.ok() &&
                              move_response_.game().result() != v1::GAME_RESULT_ONGOING &&
                              !record_->is_over();
    if (!status.ok() || server_ended || run_->stopping()) {
      call_in_flight_ = false;
      if (GameWatcher* cancel = EndPlayLocked()) cancel->Cancel();
    } else {
      go_on = true;
    }
  }
  if (go_on) {
    SendMove();
  } else {
    FinishGeneration();
  }
}

void GrpcGame::OnEvent(const v1::GameEvent& event) {
  if (!event.has_move_played()) return;
  const absl::Time now = absl::Now();
  std::lock_guard<std::mutex> lock(mu_);
  const MoveLedger::Observation seen =
      ledger_->Observe(event.ply(), event.move_played().notation());
  switch (seen.seen) {
    case MoveLedger::Seen::kFirst:
      run_->stats().EventLatency(*seen.sent_at, now);
      break;
    case MoveLedger::Seen::kDuplicate:
      run_->stats().Duplicated();
      break;
    case MoveLedger::Seen::kUnexpected:
      run_->stats().Unexpected();
      break;
  }
  if (cancel_when_caught_up_ && !call_in_flight_ && watcher_ != nullptr &&
      ledger_->Missing() == 0 && !record_->is_over()) {
    watcher_->Cancel();
  }
}

void GrpcGame::OnWatchDone(const grpc::Status& status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    watcher_ = nullptr;
    // Cancelled: we ended it; OK: the game ended.
    if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
      run_->stats().Error("WatchGame", CodeName(status));
    }
  }
  FinishGeneration();
}

void GrpcGame::FinishGeneration() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!GenerationDoneLocked() || ledger_ == nullptr) return;
    run_->stats().Lost(ledger_->Missing());
    ledger_.reset();  // counted once
  }
  Start();
}

}  // namespace

absl::StatusOr<LoadSummary> RunGrpcLoad(const LoadOptions& options) {
  if (options.targets.empty()) return absl::InvalidArgumentError("grpc mode needs a target");
  if (options.games < 1) return absl::InvalidArgumentError("--games must be at least 1");
  if (!rules::FindVariant(options.variant).ok()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown variant ", options.variant));
  }
  auto run = std::make_unique<GrpcRun>(options);
  LoadSummary summary = run->Run();
  if (!run->all_stopped()) {
    std::fprintf(stderr, "loadgen: some games did not stop; their calls may still answer\n");
    (void)run.release();  // deliberately kept: pending callbacks point into it
  }
  return summary;
}

}  // namespace draughts::loadgen
