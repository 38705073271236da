// Runs callbacks at given times on one thread of its own, so that callers
// running on gRPC's threads can delay work (a target move rate) without
// blocking those threads.
#ifndef DRAUGHTS_TOOLS_LOADGEN_PACER_H_
#define DRAUGHTS_TOOLS_LOADGEN_PACER_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include "absl/time/time.h"

namespace draughts::loadgen {

class Pacer {
 public:
  // `rate` starts per second over all callers; <= 0: no limit (Run calls
  // `work` at once, on the caller's thread).
  explicit Pacer(double rate);
  ~Pacer();  // runs nothing more; pending work is dropped
  Pacer(const Pacer&) = delete;
  Pacer& operator=(const Pacer&) = delete;

  void Run(std::function<void()> work);

 private:
  struct Item {
    absl::Time at;
    long long order;
    std::function<void()> work;
    bool operator>(const Item& other) const {
      return at != other.at ? at > other.at : order > other.order;
    }
  };
  void Loop();

  const absl::Duration interval_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue_;
  absl::Time next_slot_ = absl::InfinitePast();
  long long order_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_PACER_H_
