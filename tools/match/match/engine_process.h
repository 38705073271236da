#pragma once

// A child process run through /bin/sh -c, with pipes to its standard input
// and output (standard error is inherited, so an engine's diagnostics show
// up in the match log). Lines are read with a deadline, so a hung engine
// cannot hang the match. POSIX only.

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "rules/result.h"

namespace draughts::match {

class EngineProcess {
 public:
  // Starts `command` in its own process group (so stopping it also stops
  // anything it started).
  static rules::Result<EngineProcess> Start(const std::string& command);

  EngineProcess(EngineProcess&& other) noexcept;
  EngineProcess& operator=(EngineProcess&& other) noexcept;
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;
  // Kills the process group if it is still running.
  ~EngineProcess();

  // Writes `line` and a newline; an error if the process has closed its input.
  std::optional<rules::Error> WriteLine(std::string_view line);

  // Closes the process's input (end of file for it); reading goes on.
  void CloseInput();

  // The next line (without its newline), or an error at the deadline or at
  // end of output (the process exited or closed it).
  rules::Result<std::string> ReadLine(std::chrono::steady_clock::time_point deadline);

  // Closes the input (engines treat that as "quit"), waits up to `grace` for
  // the exit, then kills the process group. Idempotent.
  void Stop(std::chrono::milliseconds grace);

  bool running() const { return pid_ > 0; }

 private:
  EngineProcess(pid_t pid, int to_child, int from_child);
  bool Reap(bool wait);

  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;  // read but not yet returned
  bool eof_ = false;
};

}  // namespace draughts::match
