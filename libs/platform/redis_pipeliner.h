// Folds the Redis commands of many concurrent callers into few round
// trips: callers Submit() their commands with a callback and return at
// once; each of `connections` writer threads takes everything queued since
// its last round trip, sends it in one write (RedisClient::Pipeline), reads
// the replies and calls each caller's callback with its own replies. One
// request's commands run in order on one connection; separate requests may
// go on different connections, so only with `connections` = 1 do they run
// (and answer) in submission order. Under load one round trip carries many callers'
// commands, so a request costs no blocked thread and a fraction of a
// syscall.
//
// Replies and failures are as RedisClient::Pipeline gives them: error
// replies stay per command (RedisReply::Type::kError); a broken connection
// fails the whole round trip with UNAVAILABLE (the commands may or may not
// have been applied), and the next round trip reconnects.
//
// Callbacks run on a writer thread: keep them short and never wait in them
// for another Submit's callback. Thread-safe. The destructor sends what is
// queued, then stops.
#ifndef DRAUGHTS_PLATFORM_REDIS_PIPELINER_H_
#define DRAUGHTS_PLATFORM_REDIS_PIPELINER_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "platform/redis_client.h"
#include "platform/redis_reply.h"

namespace draughts::platform {

struct RedisPipelinerOptions {
  // Writer threads, each with its own connection. Two let one round trip be
  // answered while the next is being prepared.
  int connections = 2;
  // Commands per round trip at most (a bigger queue goes in several).
  int max_batch_commands = 512;
};

class RedisPipeliner {
 public:
  using Done = std::function<void(absl::StatusOr<std::vector<RedisReply>> replies)>;

  RedisPipeliner(RedisOptions redis, RedisPipelinerOptions options = {});
  ~RedisPipeliner();
  RedisPipeliner(const RedisPipeliner&) = delete;
  RedisPipeliner& operator=(const RedisPipeliner&) = delete;

  // `commands` (at least one, none empty) go out together in this order;
  // `done` gets one reply per command.
  void Submit(std::vector<std::vector<std::string>> commands, Done done);

 private:
  struct Request {
    std::vector<std::vector<std::string>> commands;
    Done done;
  };
  void WriterLoop();

  const RedisOptions redis_;
  const RedisPipelinerOptions options_;
  std::mutex mu_;
  std::condition_variable queued_;
  std::deque<Request> queue_;
  bool stopping_ = false;
  std::vector<std::thread> writers_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_PIPELINER_H_
