#include "match/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

namespace draughts::match {
namespace {

// No protocol line comes near this; more is an engine gone wrong, and must
// not eat the match's memory.
constexpr std::size_t kMaxLineBytes = 1 << 20;

std::string ErrnoText(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

rules::Result<EngineProcess> EngineProcess::Start(const std::string& command) {
  int in_pipe[2];   // parent writes, child reads
  int out_pipe[2];  // child writes, parent reads
  if (pipe(in_pipe) != 0) return rules::MakeError(ErrnoText("pipe"));
  if (pipe(out_pipe) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return rules::MakeError(ErrnoText("pipe"));
  }
  // The parent's ends must not leak into other engines started later.
  fcntl(in_pipe[1], F_SETFD, FD_CLOEXEC);
  fcntl(out_pipe[0], F_SETFD, FD_CLOEXEC);

  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
    return rules::MakeError(ErrnoText("fork"));
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    close(in_pipe[0]);
    close(out_pipe[1]);
    signal(SIGPIPE, SIG_DFL);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so a kill right away finds the group
  close(in_pipe[0]);
  close(out_pipe[1]);
  return EngineProcess(pid, in_pipe[1], out_pipe[0]);
}

EngineProcess::EngineProcess(pid_t pid, int to_child, int from_child)
    : pid_(pid), to_child_(to_child), from_child_(from_child) {}

EngineProcess::EngineProcess(EngineProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      to_child_(std::exchange(other.to_child_, -1)),
      from_child_(std::exchange(other.from_child_, -1)),
      buffer_(std::move(other.buffer_)),
      eof_(other.eof_) {}

EngineProcess& EngineProcess::operator=(EngineProcess&& other) noexcept {
  if (this != &other) {
    Stop(std::chrono::milliseconds(0));
    pid_ = std::exchange(other.pid_, -1);
    to_child_ = std::exchange(other.to_child_, -1);
    from_child_ = std::exchange(other.from_child_, -1);
    buffer_ = std::move(other.buffer_);
    eof_ = other.eof_;
  }
  return *this;
}

EngineProcess::~EngineProcess() {
  Stop(std::chrono::milliseconds(0));
}

std::optional<rules::Error> EngineProcess::WriteLine(std::string_view line) {
  if (to_child_ < 0) return rules::MakeError("engine input is closed");
  std::string data(line);
  data += '\n';
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = write(to_child_, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return rules::MakeError(ErrnoText("write to engine"));
    }
    written += static_cast<std::size_t>(n);
  }
  return std::nullopt;
}

rules::Result<std::string> EngineProcess::ReadLine(std::chrono::steady_clock::time_point deadline) {
  while (true) {
    const std::size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (buffer_.size() > kMaxLineBytes) return rules::MakeError("engine wrote an endless line");
    if (eof_ || from_child_ < 0) return rules::MakeError("engine closed its output");
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return rules::MakeError("timed out waiting for the engine");
    pollfd fd{from_child_, POLLIN, 0};
    const int ready = poll(&fd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return rules::MakeError(ErrnoText("poll"));
    }
    if (ready == 0) continue;
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return rules::MakeError(ErrnoText("read from engine"));
    }
    if (n == 0) {
      eof_ = true;
      continue;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

void EngineProcess::CloseInput() {
  CloseFd(to_child_);
}

bool EngineProcess::Reap(bool wait) {
  if (pid_ <= 0) return true;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, wait ? 0 : WNOHANG);
  if (r == pid_ || (r < 0 && errno == ECHILD)) {
    pid_ = -1;
    return true;
  }
  return false;
}

void EngineProcess::Stop(std::chrono::milliseconds grace) {
  CloseFd(to_child_);
  if (pid_ > 0) {
    const auto deadline = std::chrono::steady_clock::now() + grace;
    while (!Reap(false) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (pid_ > 0) {
      kill(-pid_, SIGKILL);
      Reap(true);
    }
  }
  CloseFd(from_child_);
}

}  // namespace draughts::match
