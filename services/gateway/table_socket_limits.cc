#include "gateway/table_socket_limits.h"

#include <algorithm>

namespace draughts::gateway {

bool SocketActionLimiter::Allow(absl::Time now) {
  if (last_ != absl::InfinitePast() && now > last_) {
    tokens_ = std::min(burst_, tokens_ + absl::ToDoubleSeconds(now - last_) * per_second_);
  }
  last_ = std::max(last_, now);
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

bool SessionSocketCounter::TryAcquire(const std::string& session_key) {
  absl::MutexLock lock(&mu_);
  int& open = open_[session_key];
  if (open >= max_per_session_) {
    if (open == 0) open_.erase(session_key);
    return false;
  }
  ++open;
  return true;
}

void SessionSocketCounter::Release(const std::string& session_key) {
  absl::MutexLock lock(&mu_);
  auto it = open_.find(session_key);
  if (it == open_.end()) return;
  if (--it->second <= 0) open_.erase(it);
}

int SessionSocketCounter::open(const std::string& session_key) const {
  absl::MutexLock lock(&mu_);
  auto it = open_.find(session_key);
  return it == open_.end() ? 0 : it->second;
}

}  // namespace draughts::gateway
