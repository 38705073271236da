#include "platform/shutdown_signal.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace draughts::platform {
namespace {

// The write end of the installed instance's pipe, read by the handler.
// A lock-free atomic int is safe to read from a signal handler.
std::atomic<int> g_signal_write_fd{-1};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void OnShutdownSignal(int signal_number) {
  int saved_errno = errno;
  int fd = g_signal_write_fd.load();
  if (fd >= 0) {
    unsigned char byte = static_cast<unsigned char>(signal_number);
    // Non-blocking: if the pipe is full a wake-up is already pending.
    ssize_t ignored = ::write(fd, &byte, 1);
    (void)ignored;
  }
  errno = saved_errno;
}

absl::StatusOr<std::pair<int, int>> MakePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    return absl::InternalError(absl::StrCat("pipe2: ", std::strerror(errno)));
  }
  return std::make_pair(fds[0], fds[1]);
}

}  // namespace

ShutdownSignal::ShutdownSignal(int read_fd, int write_fd)
    : read_fd_(read_fd), write_fd_(write_fd) {}

absl::StatusOr<std::unique_ptr<ShutdownSignal>> ShutdownSignal::Manual() {
  auto fds = MakePipe();
  if (!fds.ok()) return fds.status();
  return std::unique_ptr<ShutdownSignal>(new ShutdownSignal(fds->first, fds->second));
}

absl::StatusOr<std::unique_ptr<ShutdownSignal>> ShutdownSignal::Install(std::vector<int> signals) {
  auto made = Manual();
  if (!made.ok()) return made.status();
  std::unique_ptr<ShutdownSignal> self = std::move(made).value();
  int expected = -1;
  if (!g_signal_write_fd.compare_exchange_strong(expected, self->write_fd_)) {
    return absl::FailedPreconditionError(
        "shutdown signal handlers are already installed in this process");
  }
  for (int signal_number : signals) {
    struct sigaction action;
    std::memset(&action, 0, sizeof(action));
    action.sa_handler = &OnShutdownSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    struct sigaction previous;
    if (::sigaction(signal_number, &action, &previous) != 0) {
      // The destructor restores whatever was installed so far.
      return absl::InvalidArgumentError(
          absl::StrCat("sigaction(", signal_number, "): ", std::strerror(errno)));
    }
    self->previous_.emplace_back(signal_number, previous);
  }
  return self;
}

ShutdownSignal::~ShutdownSignal() {
  for (auto& [signal_number, previous] : previous_) ::sigaction(signal_number, &previous, nullptr);
  int expected = write_fd_;
  g_signal_write_fd.compare_exchange_strong(expected, -1);
  ::close(read_fd_);
  ::close(write_fd_);
}

void ShutdownSignal::Trigger(int signal_number) {
  unsigned char byte = static_cast<unsigned char>(signal_number);
  ssize_t ignored = ::write(write_fd_, &byte, 1);
  (void)ignored;
}

std::optional<int> ShutdownSignal::WaitFor(absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  for (;;) {
    unsigned char byte;
    ssize_t n = ::read(read_fd_, &byte, 1);
    if (n == 1) return static_cast<int>(byte);
    absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) return std::nullopt;
    struct pollfd pfd = {read_fd_, POLLIN, 0};
    int64_t ms = absl::ToInt64Milliseconds(absl::Ceil(left, absl::Milliseconds(1)));
    int wait_ms = ms > 1000000 ? 1000000 : static_cast<int>(ms);
    ::poll(&pfd, 1, wait_ms);  // EINTR and spurious wake-ups just loop
  }
}

int ShutdownSignal::Wait() {
  for (;;) {
    if (std::optional<int> got = WaitFor(absl::Hours(1))) return *got;
  }
}

}  // namespace draughts::platform
