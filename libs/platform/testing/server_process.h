// A service binary (game_state, rating, ...) as a real child process, for
// tests that need the binary itself: started with flags, its port read from
// the "LISTENING <port>" line every service prints, stopped with SIGTERM or
// killed with SIGKILL as a crash would.
#ifndef DRAUGHTS_PLATFORM_TESTING_SERVER_PROCESS_H_
#define DRAUGHTS_PLATFORM_TESTING_SERVER_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::platform::testing {

class ServerProcess {
 public:
  // Starts `binary` with `args` and waits up to `timeout` for its LISTENING
  // line. Unless `args` has a --listen of its own, --listen=127.0.0.1:0 is
  // added (a free port). UNAVAILABLE, with what it printed, when it exits or
  // stays silent.
  static absl::StatusOr<std::unique_ptr<ServerProcess>> Start(
      const std::string& binary, const std::vector<std::string>& args,
      absl::Duration timeout = absl::Seconds(30));
  ~ServerProcess();  // kills it if still running
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  int port() const { return port_; }
  std::string address() const;
  bool running() const { return pid_ > 0; }
  // For tests that read the process's /proc entries (threads, memory).
  pid_t pid() const { return pid_; }

  void Kill();  // SIGKILL and reap
  // SIGTERM; returns the exit code (or -signal) once it exits.
  absl::StatusOr<int> Terminate(absl::Duration timeout = absl::Seconds(30));

 private:
  ServerProcess(pid_t pid, int port, int stdout_fd)
      : pid_(pid), port_(port), stdout_fd_(stdout_fd) {}
  void CloseOutput();

  pid_t pid_;
  int port_;
  // Kept open while the process runs, so a later write to its stdout does
  // not kill it with SIGPIPE.
  int stdout_fd_;
};

}  // namespace draughts::platform::testing

#endif  // DRAUGHTS_PLATFORM_TESTING_SERVER_PROCESS_H_
