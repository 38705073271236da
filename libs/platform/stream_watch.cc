#include "platform/stream_watch.h"

namespace draughts::platform {

WatchPump::WatchPump() : thread_([this] { Loop(); }) {}

WatchPump::~WatchPump() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  ready_changed_.notify_all();
  thread_.join();
}

void WatchPump::Ready(std::weak_ptr<PumpedWatch> watch) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ready_.push_back(std::move(watch));
  }
  ready_changed_.notify_one();
}

std::optional<grpc::Status> WatchPump::Add(const std::shared_ptr<PumpedWatch>& watch) {
  std::lock_guard<std::mutex> lock(mu_);
  if (draining_.has_value()) return draining_;
  open_.insert(watch);
  return std::nullopt;
}

void WatchPump::Remove(const PumpedWatch* watch) {
  std::shared_ptr<PumpedWatch> removed;  // released after the lock
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = open_.begin(); it != open_.end(); ++it) {
    if (it->get() == watch) {
      removed = *it;
      open_.erase(it);
      break;
    }
  }
}

void WatchPump::Drain(const grpc::Status& status) {
  std::vector<std::shared_ptr<PumpedWatch>> open;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Set with the snapshot taken under one lock: a watch is either in it
    // or refused by Add.
    draining_ = status;
    open.assign(open_.begin(), open_.end());
  }
  for (const auto& watch : open) watch->End(status);
}

void WatchPump::Loop() {
  std::vector<std::weak_ptr<PumpedWatch>> batch;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      ready_changed_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
      if (stopping_) return;
      batch.swap(ready_);
    }
    for (std::weak_ptr<PumpedWatch>& weak : batch) {
      // Destroyed here (not on the tailer's thread) if the call ended
      // meanwhile: the subscription's destructor takes the feed's lock.
      if (std::shared_ptr<PumpedWatch> watch = weak.lock()) watch->Pump();
    }
    batch.clear();
  }
}

}  // namespace draughts::platform
