#include "platform/redis_pipeliner.h"

#include <algorithm>
#include <utility>

namespace draughts::platform {

RedisPipeliner::RedisPipeliner(RedisOptions redis, RedisPipelinerOptions options)
    : redis_(std::move(redis)), options_(options) {
  const int connections = std::max(1, options_.connections);
  for (int i = 0; i < connections; ++i) writers_.emplace_back([this] { WriterLoop(); });
}

RedisPipeliner::~RedisPipeliner() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  queued_.notify_all();
  for (std::thread& writer : writers_) writer.join();
}

void RedisPipeliner::Submit(std::vector<std::vector<std::string>> commands, Done done) {
  if (commands.empty()) {
    done(std::vector<RedisReply>());
    return;
  }
  for (const auto& command : commands) {
    if (command.empty()) {
      done(absl::InvalidArgumentError("redis: empty command in a pipelined request"));
      return;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back({std::move(commands), std::move(done)});
  }
  queued_.notify_one();
}

void RedisPipeliner::WriterLoop() {
  RedisClient client(redis_);
  const std::size_t max_commands =
      static_cast<std::size_t>(std::max(1, options_.max_batch_commands));
  std::vector<Request> batch;
  std::vector<std::vector<std::string>> flat;
  while (true) {
    batch.clear();
    {
      std::unique_lock<std::mutex> lock(mu_);
      queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left to send
      std::size_t commands = 0;
      // Always at least one request, however big.
      while (!queue_.empty() &&
             (batch.empty() || commands + queue_.front().commands.size() <= max_commands)) {
        commands += queue_.front().commands.size();
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    flat.clear();
    for (Request& request : batch) {
      for (auto& command : request.commands) flat.push_back(std::move(command));
    }
    absl::StatusOr<std::vector<RedisReply>> replies = client.Pipeline(flat);
    std::size_t at = 0;
    for (Request& request : batch) {
      const std::size_t n = request.commands.size();
      if (!replies.ok()) {
        request.done(replies.status());
        continue;
      }
      std::vector<RedisReply> own(
          std::make_move_iterator(replies->begin() + static_cast<long>(at)),
          std::make_move_iterator(replies->begin() + static_cast<long>(at + n)));
      at += n;
      request.done(std::move(own));
    }
  }
}

}  // namespace draughts::platform
