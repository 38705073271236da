// Limits of the table sockets: actions per second per socket (a token
// bucket, time passed in so tests need no clock) and open table sockets per
// session (one gateway's count, all tabs together).
#ifndef DRAUGHTS_GATEWAY_TABLE_SOCKET_LIMITS_H_
#define DRAUGHTS_GATEWAY_TABLE_SOCKET_LIMITS_H_

#include <map>
#include <string>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace draughts::gateway {

// Not thread-safe: one per socket, used on its strand.
class SocketActionLimiter {
 public:
  // `per_second` actions on average, `burst` at once.
  SocketActionLimiter(double per_second, double burst)
      : per_second_(per_second), burst_(burst), tokens_(burst) {}

  // Takes one action's place; false when the socket is over its rate
  // (nothing taken).
  bool Allow(absl::Time now);

 private:
  const double per_second_;
  const double burst_;
  double tokens_;
  absl::Time last_ = absl::InfinitePast();
};

// Thread-safe.
class SessionSocketCounter {
 public:
  explicit SessionSocketCounter(int max_per_session) : max_per_session_(max_per_session) {}

  // One more socket for the session unless it has max_per_session open.
  bool TryAcquire(const std::string& session_key);
  void Release(const std::string& session_key);
  int open(const std::string& session_key) const;

 private:
  const int max_per_session_;
  mutable absl::Mutex mu_;
  std::map<std::string, int> open_ ABSL_GUARDED_BY(mu_);
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_TABLE_SOCKET_LIMITS_H_
