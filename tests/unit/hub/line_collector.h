#pragma once

// Collects the lines an EngineSession writes (from any thread) and lets a
// test wait for one, with a deadline so a broken session fails the test
// instead of hanging it.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace draughts::hub {

class LineCollector {
 public:
  void Add(std::string_view line) {
    std::lock_guard<std::mutex> lock(mutex_);
    lines_.emplace_back(line);
    changed_.notify_all();
  }

  // Waits for the first line from `from` on whose command word is
  // `command`; returns it and sets `from` past it.
  std::optional<std::string> WaitFor(std::string_view command, std::size_t& from,
                                     std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    std::optional<std::string> found;
    changed_.wait_for(lock, timeout, [&] {
      for (; from < lines_.size(); ++from) {
        const std::string& line = lines_[from];
        if (line.compare(0, command.size(), command) == 0 &&
            (line.size() == command.size() || line[command.size()] == ' ')) {
          found = line;
          ++from;
          return true;
        }
      }
      return false;
    });
    return found;
  }

  std::vector<std::string> Lines() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> lines_;
};

}  // namespace draughts::hub
