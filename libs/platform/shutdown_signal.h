// Turns SIGTERM / SIGINT into something a normal thread can wait for.
//
// The signal handler only write()s one byte to a pipe (the self-pipe trick),
// which is async-signal-safe; all real work (health, drain, shutdown) runs
// in the thread that waits. Works whichever thread the kernel picks to
// deliver the signal to, so no signal masks are needed.
#ifndef DRAUGHTS_PLATFORM_SHUTDOWN_SIGNAL_H_
#define DRAUGHTS_PLATFORM_SHUTDOWN_SIGNAL_H_

#include <csignal>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::platform {

class ShutdownSignal {
 public:
  // Installs handlers for `signals`, restoring the previous ones on
  // destruction. Only one such instance may exist at a time in a process
  // (FAILED_PRECONDITION otherwise).
  static absl::StatusOr<std::unique_ptr<ShutdownSignal>> Install(std::vector<int> signals = {
                                                                     SIGTERM, SIGINT});
  // No handlers: only Trigger() wakes it (tests, embedded servers).
  static absl::StatusOr<std::unique_ptr<ShutdownSignal>> Manual();

  ShutdownSignal(const ShutdownSignal&) = delete;
  ShutdownSignal& operator=(const ShutdownSignal&) = delete;
  ~ShutdownSignal();

  // Wakes a waiter as if `signal_number` had arrived (0 = programmatic).
  // Async-signal-safe and thread-safe.
  void Trigger(int signal_number = 0);

  // Blocks until the next trigger; returns its signal number.
  int Wait();
  // Same with a timeout; nullopt when it expired first.
  std::optional<int> WaitFor(absl::Duration timeout);

 private:
  ShutdownSignal(int read_fd, int write_fd);

  int read_fd_;
  int write_fd_;
  std::vector<std::pair<int, struct sigaction>> previous_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_SHUTDOWN_SIGNAL_H_
