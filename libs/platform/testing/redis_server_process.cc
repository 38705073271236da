#include "platform/testing/redis_server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "platform/redis_client.h"
#include "platform/testing/test_env.h"

extern char** environ;

namespace draughts::platform::testing {
namespace {

// True once *our* server answers on the port: INFO reports our pid, so a
// different server that grabbed the port in the meantime does not count.
bool OurServerAnswers(int port, pid_t pid) {
  RedisOptions options;
  options.port = port;
  options.connect_attempts = 1;
  options.connect_timeout = absl::Milliseconds(200);
  RedisClient client(options);
  auto info = client.Command({"INFO", "server"});
  if (!info.ok() || info->type() != RedisReply::Type::kString) return false;
  return absl::StrContains(info->text(), absl::StrCat("process_id:", pid, "\r\n"));
}

}  // namespace

RedisServerProcess::RedisServerProcess(std::string binary, int port, std::string dir)
    : binary_(std::move(binary)), port_(port), dir_(std::move(dir)) {}

absl::StatusOr<std::unique_ptr<RedisServerProcess>> RedisServerProcess::Start(
    const std::string& binary, int port) {
  const bool picked = port == 0;
  if (picked) {
    auto picked_port = PickFreePort();
    if (!picked_port.ok()) return picked_port.status();
    port = *picked_port;
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "draughts-redis-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp: ", std::strerror(errno)));
  }
  std::unique_ptr<RedisServerProcess> server(new RedisServerProcess(binary, port, pattern));
  absl::Status launched = server->Launch();
  // A picked port can be taken by someone else before the server binds it.
  for (int retry = 0; !launched.ok() && picked && retry < 5; ++retry) {
    auto again = PickFreePort();
    if (!again.ok()) return again.status();
    server->port_ = *again;
    launched = server->Launch();
  }
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
    if (OurServerAnswers(port_, pid_)) return absl::OkStatus();
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
