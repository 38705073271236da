// A few threads for work that blocks (a Redis read, a commit retried after
// a lost race, a call to another service), so that callback-API handlers,
// which must never block gRPC's own threads, can hand it off and return at
// once.
#ifndef DRAUGHTS_PLATFORM_BLOCKING_POOL_H_
#define DRAUGHTS_PLATFORM_BLOCKING_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace draughts::platform {

class BlockingPool {
 public:
  explicit BlockingPool(int threads);
  // Runs what is queued, then joins the threads.
  ~BlockingPool();
  BlockingPool(const BlockingPool&) = delete;
  BlockingPool& operator=(const BlockingPool&) = delete;

  void Run(std::function<void()> work);

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable queued_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_BLOCKING_POOL_H_
