#include "platform/testing/redis_server_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "platform/testing/test_env.h"

extern char** environ;

namespace draughts::platform::testing {
namespace {

bool AcceptsConnections(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

RedisServerProcess::RedisServerProcess(std::string binary, int port, std::string dir)
    : binary_(std::move(binary)), port_(port), dir_(std::move(dir)) {}

absl::StatusOr<std::unique_ptr<RedisServerProcess>> RedisServerProcess::Start(
    const std::string& binary, int port) {
  if (port == 0) {
    auto picked = PickFreePort();
    if (!picked.ok()) return picked.status();
    port = *picked;
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "draughts-redis-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp: ", std::strerror(errno)));
  }
  std::unique_ptr<RedisServerProcess> server(new RedisServerProcess(binary, port, pattern));
  absl::Status launched = server->Launch();
  if (!launched.ok()) return launched;
  return server;
}

RedisServerProcess::~RedisServerProcess() {
  Kill();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string RedisServerProcess::address() const {
  return absl::StrCat("127.0.0.1:", port_);
}

absl::Status RedisServerProcess::Launch() {
  if (pid_ > 0) return absl::FailedPreconditionError("redis-server is already running");
  std::string port = absl::StrCat(port_);
  std::vector<std::string> args = {
      binary_, "--port", port, "--bind",      "127.0.0.1", "--save",     "",       "--appendonly",
      "no",    "--dir",  dir_, "--daemonize", "no",        "--loglevel", "warning"};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  // The server's banner and logs go to a file in its directory, not into
  // the test output.
  std::string log = dir_ + "/redis.log";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, binary_.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot start ", binary_, ": ", std::strerror(rc)));
  }
  pid_ = pid;
  absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (absl::Now() < deadline) {
    if (AcceptsConnections(port_)) return absl::OkStatus();
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return absl::UnavailableError(
          absl::StrCat(binary_, " exited at start (port ", port_, " taken?)"));
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  Kill();
  return absl::DeadlineExceededError(
      absl::StrCat(binary_, " did not accept connections on port ", port_, " within 10s"));
}

void RedisServerProcess::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

absl::Status RedisServerProcess::Restart() {
  Kill();
  // The port may linger briefly in the kernel after a kill; retry a little.
  absl::Status status;
  for (int attempt = 0; attempt < 20; ++attempt) {
    status = Launch();
    if (status.ok()) return status;
    absl::SleepFor(absl::Milliseconds(100));
  }
  return status;
}

}  // namespace draughts::platform::testing
