#include "loadgen/move_ledger.h"

#include <utility>

namespace draughts::loadgen {

void MoveLedger::Sent(int ply_after, std::string notation, absl::Time at) {
  std::lock_guard<std::mutex> lock(mu_);
  Move& move = moves_[ply_after];
  move.notation = std::move(notation);
  move.sent_at = at;
}

void MoveLedger::Acknowledged(int ply_after) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = moves_.find(ply_after);
  if (it != moves_.end()) it->second.acknowledged = true;
}

void MoveLedger::Failed(int ply_after) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = moves_.find(ply_after);
  if (it != moves_.end() && !it->second.seen) moves_.erase(it);
}

MoveLedger::Observation MoveLedger::Observe(int ply_after, const std::string& notation) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = moves_.find(ply_after);
  if (it == moves_.end() || it->second.notation != notation) return {Seen::kUnexpected, {}};
  if (it->second.seen) return {Seen::kDuplicate, {}};
  it->second.seen = true;
  return {Seen::kFirst, it->second.sent_at};
}

int MoveLedger::Missing() const {
  std::lock_guard<std::mutex> lock(mu_);
  int missing = 0;
  for (const auto& [ply, move] : moves_) {
    if (move.acknowledged && !move.seen) ++missing;
  }
  return missing;
}

int MoveLedger::acknowledged() const {
  std::lock_guard<std::mutex> lock(mu_);
  int count = 0;
  for (const auto& [ply, move] : moves_) count += move.acknowledged ? 1 : 0;
  return count;
}

}  // namespace draughts::loadgen
