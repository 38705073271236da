// A fixed-size pool of RedisClient connections for multi-threaded services.
// Borrow() hands out one client exclusively; the Lease returns it when it
// goes out of scope. Connections are opened lazily by their first command
// and reconnect by themselves (see RedisClient). Thread-safe. The pool must
// outlive every lease.
//
//   DRAUGHTS_ASSIGN_OR_RETURN(RedisPool::Lease redis, pool.Borrow());
//   auto reply = redis->Command({"GET", key});
#ifndef DRAUGHTS_PLATFORM_REDIS_POOL_H_
#define DRAUGHTS_PLATFORM_REDIS_POOL_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/redis_client.h"

namespace draughts::platform {

class RedisPool {
 public:
  class Lease {
   public:
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&& other) noexcept;
    ~Lease();

    RedisClient& operator*() const { return *client_; }
    RedisClient* operator->() const { return client_.get(); }

   private:
    friend class RedisPool;
    Lease(RedisPool* pool, std::unique_ptr<RedisClient> client);
    void Return();

    RedisPool* pool_;
    std::unique_ptr<RedisClient> client_;
  };

  // `size` >= 1 connections; Borrow waits at most `borrow_timeout`.
  RedisPool(RedisOptions options, int size, absl::Duration borrow_timeout = absl::Seconds(5));
  RedisPool(const RedisPool&) = delete;
  RedisPool& operator=(const RedisPool&) = delete;

  // UNAVAILABLE when every connection stays busy for borrow_timeout.
  absl::StatusOr<Lease> Borrow();

  int size() const { return size_; }
  int available() const;
  // What every connection of the pool connects with (for probes and
  // blocking readers that need a connection of their own).
  const RedisOptions& options() const { return options_; }

 private:
  void Give(std::unique_ptr<RedisClient> client);

  const RedisOptions options_;
  const int size_;
  const absl::Duration borrow_timeout_;
  mutable std::mutex mu_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<RedisClient>> idle_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_POOL_H_
