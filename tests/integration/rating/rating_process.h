// The rating binary as a child process: started with flags (plus
// --listen=127.0.0.1:0), its port read from the "LISTENING <port>" line it
// prints, stopped with SIGTERM.
#ifndef DRAUGHTS_TESTS_INTEGRATION_RATING_RATING_PROCESS_H_
#define DRAUGHTS_TESTS_INTEGRATION_RATING_RATING_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::rating::testing {

class RatingProcess {
 public:
  static absl::StatusOr<std::unique_ptr<RatingProcess>> Start(
      const std::vector<std::string>& args, absl::Duration timeout = absl::Seconds(30));
  ~RatingProcess();  // SIGKILL if still running

  std::string address() const;
  // SIGTERM; the exit code (or -signal) once it exits.
  absl::StatusOr<int> Terminate(absl::Duration timeout = absl::Seconds(30));

 private:
  RatingProcess(pid_t pid, int port, int stdout_fd)
      : pid_(pid), port_(port), stdout_fd_(stdout_fd) {}

  pid_t pid_;
  int port_;
  // Kept open so a later write to its stdout cannot kill it with SIGPIPE.
  int stdout_fd_;
};

}  // namespace draughts::rating::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_RATING_RATING_PROCESS_H_
