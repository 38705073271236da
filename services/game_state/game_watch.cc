#include "game_state/game_watch.h"

#include <utility>

#include "platform/status.h"

namespace draughts::game_state {

WatchPump::WatchPump() : thread_([this] { Loop(); }) {}

WatchPump::~WatchPump() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  ready_changed_.notify_all();
  thread_.join();
}

void WatchPump::Ready(std::weak_ptr<WatchState> state) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ready_.push_back(std::move(state));
  }
  ready_changed_.notify_one();
}

void WatchPump::Add(const std::shared_ptr<WatchState>& state) {
  std::lock_guard<std::mutex> lock(mu_);
  open_.insert(state);
}

void WatchPump::Remove(const WatchState* state) {
  std::shared_ptr<WatchState> removed;  // released after the lock
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = open_.begin(); it != open_.end(); ++it) {
    if (it->get() == state) {
      removed = *it;
      open_.erase(it);
      break;
    }
  }
}

void WatchPump::FinishAll(const grpc::Status& status) {
  std::vector<std::shared_ptr<WatchState>> open;
  {
    std::lock_guard<std::mutex> lock(mu_);
    open.assign(open_.begin(), open_.end());
  }
  for (const auto& state : open) {
    std::lock_guard<std::mutex> lock(state->mu);
    GameWatch::EndLocked(*state, status);
  }
}

void WatchPump::Loop() {
  std::vector<std::weak_ptr<WatchState>> batch;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      ready_changed_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
      if (stopping_) return;
      batch.swap(ready_);
    }
    for (std::weak_ptr<WatchState>& weak : batch) {
      // Destroyed here (not on the tailer's thread) if the call ended
      // meanwhile: the subscription's destructor takes the feed's lock.
      if (std::shared_ptr<WatchState> state = weak.lock()) GameWatch::Pump(state);
    }
    batch.clear();
  }
}

GameWatch::GameWatch(WatchPump* pump, GameMetrics* metrics)
    : pump_(pump), metrics_(metrics), state_(std::make_shared<WatchState>()) {
  state_->reactor = this;
}

void GameWatch::Begin(std::unique_ptr<EventSubscription> subscription) {
  if (metrics_ != nullptr) metrics_->WatchStarted();
  counted_ = true;
  // Once the lock is released the call may end and this reactor go away:
  // only the shared state is used after that.
  std::shared_ptr<WatchState> state = state_;
  {
    std::lock_guard<std::mutex> lock(state->mu);
    state->begun = true;
    if (state->cancelled_before_begin) {
      EndLocked(*state, grpc::Status(grpc::StatusCode::CANCELLED, "the client went away"));
      return;
    }
    state->subscription = std::move(subscription);
    std::weak_ptr<WatchState> weak = state;
    WatchPump* pump = pump_;
    if (!state->subscription->SetReadyCallback([pump, weak] { pump->Ready(weak); })) {
      EndLocked(*state, grpc::Status(grpc::StatusCode::INTERNAL,
                                     "the event feed cannot signal new events"));
      return;
    }
    pump_->Add(state);
  }
  // Events that came before the callback was set.
  Pump(state);
}

void GameWatch::End(const grpc::Status& status) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->begun = true;  // the opener gave up: nothing else will begin
  EndLocked(*state_, status);
}

void GameWatch::EndLocked(WatchState& state, const grpc::Status& status) {
  if (state.finishing || state.reactor == nullptr) return;
  if (state.writing) {
    if (!state.finish_after_write.has_value()) state.finish_after_write = status;
    return;
  }
  state.finishing = true;
  state.reactor->Finish(status);
}

void GameWatch::Pump(const std::shared_ptr<WatchState>& state) {
  std::unique_lock<std::mutex> lock(state->mu);
  if (state->reactor == nullptr || state->finishing || state->writing ||
      state->finish_after_write.has_value() || state->subscription == nullptr) {
    return;
  }
  if (state->queue.empty()) {
    // Does not wait; reads Redis only to catch up over a gap.
    absl::StatusOr<std::vector<v1::GameEvent>> events =
        state->subscription->Next(absl::ZeroDuration());
    if (!events.ok()) {
      EndLocked(*state, platform::ToGrpcStatus(events.status()));
      return;
    }
    for (v1::GameEvent& event : *events) state->queue.push_back(std::move(event));
  }
  if (state->queue.empty()) return;
  GameWatch* reactor = state->reactor;
  reactor->in_flight_ = std::move(state->queue.front());
  state->queue.pop_front();
  state->writing = true;
  lock.unlock();
  reactor->StartWrite(&reactor->in_flight_);
}

void GameWatch::OnWriteDone(bool ok) {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->writing = false;
    if (!ok) {
      EndLocked(*state_, grpc::Status(grpc::StatusCode::CANCELLED, "the client went away"));
      return;
    }
    if (state_->finish_after_write.has_value()) {
      grpc::Status status = *state_->finish_after_write;
      state_->finish_after_write.reset();
      EndLocked(*state_, status);
      return;
    }
    // The stream ends with GameEnded: nothing will follow it.
    if (in_flight_.has_game_ended()) {
      EndLocked(*state_, grpc::Status::OK);
      return;
    }
  }
  Pump(state_);
}

void GameWatch::OnCancel() {
  std::lock_guard<std::mutex> lock(state_->mu);
  if (!state_->begun) {
    state_->cancelled_before_begin = true;
    return;
  }
  EndLocked(*state_, grpc::Status(grpc::StatusCode::CANCELLED, "the client went away"));
}

void GameWatch::OnDone() {
  pump_->Remove(state_.get());
  std::unique_ptr<EventSubscription> subscription;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->reactor = nullptr;
    subscription = std::move(state_->subscription);
  }
  subscription.reset();  // unregisters from the feed, no lock of ours held
  if (counted_ && metrics_ != nullptr) metrics_->WatchEnded();
  delete this;
}

}  // namespace draughts::game_state
