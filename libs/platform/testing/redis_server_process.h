// A private redis-server for tests that need to stop and restart a server
// (the shared one from scripts/test must stay up for other tests).
#ifndef DRAUGHTS_PLATFORM_TESTING_REDIS_SERVER_PROCESS_H_
#define DRAUGHTS_PLATFORM_TESTING_REDIS_SERVER_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace draughts::platform::testing {

class RedisServerProcess {
 public:
  // Starts `binary` on 127.0.0.1:`port` (0 = pick a free port), without
  // persistence, in a fresh temporary directory; waits until it accepts
  // connections.
  static absl::StatusOr<std::unique_ptr<RedisServerProcess>> Start(const std::string& binary,
                                                                   int port = 0);
  ~RedisServerProcess();  // kills the server, removes the directory

  int port() const { return port_; }
  std::string address() const;  // "127.0.0.1:<port>"
  bool running() const { return pid_ > 0; }

  // SIGKILL, as a crash would: clients see their sockets die.
  void Kill();
  // Starts again on the same port and directory.
  absl::Status Restart();

 private:
  RedisServerProcess(std::string binary, int port, std::string dir);
  absl::Status Launch();

  std::string binary_;
  int port_;
  std::string dir_;
  pid_t pid_ = -1;
};

}  // namespace draughts::platform::testing

#endif  // DRAUGHTS_PLATFORM_TESTING_REDIS_SERVER_PROCESS_H_
