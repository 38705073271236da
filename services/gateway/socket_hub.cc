#include "gateway/socket_hub.h"

#include <vector>

namespace draughts::gateway {

bool SocketHub::Admit() {
  absl::MutexLock lock(&mu_);
  if (shutting_down_ || admitted_ >= max_sockets_) return false;
  ++admitted_;
  return true;
}

void SocketHub::Register(HubMember* key, std::weak_ptr<HubMember> member) {
  bool close_now = false;
  {
    absl::MutexLock lock(&mu_);
    members_[key] = member;
    close_now = shutting_down_;
  }
  // Opened while CloseAll ran: close it like the others.
  if (close_now) {
    if (std::shared_ptr<HubMember> alive = member.lock()) alive->CloseGoingAway();
  }
}

void SocketHub::Leave(HubMember* key) {
  absl::MutexLock lock(&mu_);
  members_.erase(key);
  --admitted_;
}

void SocketHub::CloseAll() {
  std::vector<std::shared_ptr<HubMember>> alive;
  {
    absl::MutexLock lock(&mu_);
    shutting_down_ = true;
    for (auto& [key, member] : members_) {
      if (std::shared_ptr<HubMember> locked = member.lock()) alive.push_back(std::move(locked));
    }
  }
  for (const std::shared_ptr<HubMember>& member : alive) member->CloseGoingAway();
}

bool SocketHub::WaitUntilEmpty(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  auto empty = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return admitted_ == 0; };
  return mu_.AwaitWithTimeout(absl::Condition(&empty), timeout);
}

int SocketHub::open() const {
  absl::MutexLock lock(&mu_);
  return admitted_;
}

}  // namespace draughts::gateway
