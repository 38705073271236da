#include "platform/testing/server_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace draughts::platform::testing {

absl::StatusOr<std::unique_ptr<ServerProcess>> ServerProcess::Start(
    const std::string& binary, const std::vector<std::string>& args, absl::Duration timeout) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  std::vector<std::string> argv_text = {binary};
  const bool has_listen = std::any_of(args.begin(), args.end(), [](const std::string& arg) {
    return arg.rfind("--listen=", 0) == 0;
  });
  if (!has_listen) argv_text.push_back("--listen=127.0.0.1:0");
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError("fork failed");
  if (pid == 0) {
    // A test that crashes must not leave its server running: an orphan
    // keeps the test runner's output pipe open and the run never ends.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(out[1], STDOUT_FILENO);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  std::string line;
  const absl::Time deadline = absl::Now() + timeout;
  int port = 0;
  while (port == 0) {
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) break;
    pollfd fd{out[0], POLLIN, 0};
    if (poll(&fd, 1, static_cast<int>(absl::ToInt64Milliseconds(left))) <= 0) break;
    char buffer[256];
    const ssize_t n = read(out[0], buffer, sizeof buffer);
    if (n <= 0) break;
    line.append(buffer, static_cast<std::size_t>(n));
    const std::size_t at = line.find("LISTENING ");
    const std::size_t end = at == std::string::npos ? at : line.find('\n', at);
    if (end != std::string::npos) {
      if (!absl::SimpleAtoi(line.substr(at + 10, end - at - 10), &port)) port = -1;
    }
  }
  if (port <= 0) {
    close(out[0]);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return absl::UnavailableError(
        absl::StrCat(binary, " did not report its port (output: \"", line, "\")"));
  }
  return std::unique_ptr<ServerProcess>(new ServerProcess(pid, port, out[0]));
}

ServerProcess::~ServerProcess() {
  Kill();
}

void ServerProcess::CloseOutput() {
  if (stdout_fd_ >= 0) close(stdout_fd_);
  stdout_fd_ = -1;
}

std::string ServerProcess::address() const {
  return absl::StrCat("127.0.0.1:", port_);
}

void ServerProcess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
  CloseOutput();
}

absl::StatusOr<int> ServerProcess::Terminate(absl::Duration timeout) {
  if (pid_ <= 0) return absl::FailedPreconditionError("not running");
  kill(pid_, SIGTERM);
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      pid_ = -1;
      CloseOutput();
      return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  Kill();
  return absl::DeadlineExceededError("the replica did not stop after SIGTERM");
}

}  // namespace draughts::platform::testing
