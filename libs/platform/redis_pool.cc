#include "platform/redis_pool.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace draughts::platform {

RedisPool::Lease::Lease(RedisPool* pool, std::unique_ptr<RedisClient> client)
    : pool_(pool), client_(std::move(client)) {}

RedisPool::Lease::Lease(Lease&& other) noexcept
    : pool_(other.pool_), client_(std::move(other.client_)) {}

RedisPool::Lease& RedisPool::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    Return();
    pool_ = other.pool_;
    client_ = std::move(other.client_);
  }
  return *this;
}

RedisPool::Lease::~Lease() {
  Return();
}

void RedisPool::Lease::Return() {
  if (client_ != nullptr) pool_->Give(std::move(client_));
}

RedisPool::RedisPool(RedisOptions options, int size, absl::Duration borrow_timeout)
    : options_(options), size_(std::max(1, size)), borrow_timeout_(borrow_timeout) {
  idle_.reserve(size_);
  for (int i = 0; i < size_; ++i) idle_.push_back(std::make_unique<RedisClient>(options));
}

absl::StatusOr<RedisPool::Lease> RedisPool::Borrow() {
  std::unique_lock<std::mutex> lock(mu_);
  bool got = freed_.wait_for(lock, absl::ToChronoNanoseconds(borrow_timeout_),
                             [this] { return !idle_.empty(); });
  if (!got) {
    return absl::UnavailableError(absl::StrCat("all ", size_, " redis connections stayed busy for ",
                                               absl::FormatDuration(borrow_timeout_)));
  }
  std::unique_ptr<RedisClient> client = std::move(idle_.back());
  idle_.pop_back();
  return Lease(this, std::move(client));
}

int RedisPool::available() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(idle_.size());
}

void RedisPool::Give(std::unique_ptr<RedisClient> client) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(client));
  }
  freed_.notify_one();
}

}  // namespace draughts::platform
