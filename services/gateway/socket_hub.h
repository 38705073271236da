// Keeps count of the open sockets: admits a new one only below the limit
// (each holds its gRPC streams and buffers, so their number must be
// bounded), and at shutdown closes them all and waits for them.
#ifndef DRAUGHTS_GATEWAY_SOCKET_HUB_H_
#define DRAUGHTS_GATEWAY_SOCKET_HUB_H_

#include <map>
#include <memory>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace draughts::gateway {

class HubMember {
 public:
  virtual ~HubMember() = default;
  // Closes with code 1001 (going away) and stops its watch; any thread.
  virtual void CloseGoingAway() = 0;
};

class SocketHub {
 public:
  explicit SocketHub(int max_sockets) : max_sockets_(max_sockets) {}

  // Reserves a place for a socket about to open; false when full or
  // shutting down. Every true must be matched by one Leave().
  bool Admit();
  // Makes an admitted, open socket reachable by CloseAll().
  void Register(HubMember* key, std::weak_ptr<HubMember> member);
  // Gives the place back (the socket object is going away).
  void Leave(HubMember* key);

  // Refuses new sockets from now on and closes the open ones.
  void CloseAll();
  // True once every admitted socket has left, false at the timeout.
  bool WaitUntilEmpty(absl::Duration timeout);

  int open() const;

 private:
  const int max_sockets_;
  mutable absl::Mutex mu_;
  int admitted_ ABSL_GUARDED_BY(mu_) = 0;
  bool shutting_down_ ABSL_GUARDED_BY(mu_) = false;
  std::map<HubMember*, std::weak_ptr<HubMember>> members_ ABSL_GUARDED_BY(mu_);
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_SOCKET_HUB_H_
