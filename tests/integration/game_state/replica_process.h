// A game_state replica as a real child process: started with flags, its
// gRPC port read from the "LISTENING <port>" line it prints, stopped with
// SIGTERM or killed with SIGKILL as a crash would.
#ifndef DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_REPLICA_PROCESS_H_
#define DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_REPLICA_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::game_state::testing {

class ReplicaProcess {
 public:
  // Starts `binary` with `args` (--listen=127.0.0.1:0 is added: a free
  // port, read from its LISTENING line) and waits up to `timeout` for it.
  static absl::StatusOr<std::unique_ptr<ReplicaProcess>> Start(
      const std::string& binary, const std::vector<std::string>& args,
      absl::Duration timeout = absl::Seconds(30));
  ~ReplicaProcess();  // kills it if still running

  int port() const { return port_; }
  std::string address() const;
  bool running() const { return pid_ > 0; }

  void Kill();  // SIGKILL and reap
  // SIGTERM; returns the exit code (or -signal) once it exits.
  absl::StatusOr<int> Terminate(absl::Duration timeout = absl::Seconds(30));

 private:
  ReplicaProcess(pid_t pid, int port, int stdout_fd)
      : pid_(pid), port_(port), stdout_fd_(stdout_fd) {}
  void CloseOutput();

  pid_t pid_;
  int port_;
  // Kept open while the replica runs, so a later write to its stdout does
  // not kill it with SIGPIPE.
  int stdout_fd_;
};

}  // namespace draughts::game_state::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_REPLICA_PROCESS_H_
