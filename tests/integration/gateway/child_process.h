// A server binary as a child process for the gateway tests (the rating
// service): started with flags, ready once it prints "LISTENING <port>",
// stopped with SIGTERM (SIGKILL when the test ends first).
#ifndef DRAUGHTS_TESTS_INTEGRATION_GATEWAY_CHILD_PROCESS_H_
#define DRAUGHTS_TESTS_INTEGRATION_GATEWAY_CHILD_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::gateway::testing {

class ChildProcess {
 public:
  // UNAVAILABLE (with what it printed) when it exits or stays silent.
  static absl::StatusOr<std::unique_ptr<ChildProcess>> Start(
      const std::string& binary, const std::vector<std::string>& args,
      absl::Duration timeout = absl::Seconds(30));
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  int port() const { return port_; }
  // SIGTERM; the exit code (or -signal) once it exits.
  absl::StatusOr<int> Terminate(absl::Duration timeout = absl::Seconds(30));

 private:
  ChildProcess(pid_t pid, int port, int stdout_fd)
      : pid_(pid), port_(port), stdout_fd_(stdout_fd) {}

  pid_t pid_;
  int port_;
  // Kept open so a later write to its stdout cannot kill it with SIGPIPE.
  int stdout_fd_;
};

}  // namespace draughts::gateway::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_GATEWAY_CHILD_PROCESS_H_
