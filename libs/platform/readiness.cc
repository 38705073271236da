#include "platform/readiness.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/pg_pool.h"
#include "platform/redis_pool.h"

namespace draughts::platform {

ReadinessProbe RedisReadinessProbe(RedisOptions options, std::string name) {
  options.connect_attempts = 1;
  struct Connection {
    std::mutex mu;
    std::unique_ptr<RedisClient> client;
  };
  auto connection = std::make_shared<Connection>();
  connection->client = std::make_unique<RedisClient>(std::move(options));
  return {std::move(name), [connection]() -> absl::Status {
            std::lock_guard<std::mutex> lock(connection->mu);
            absl::StatusOr<RedisReply> reply = connection->client->Command({"PING"});
            return reply.ok() ? absl::OkStatus() : reply.status();
          }};
}

ReadinessProbe RedisReadinessProbe(const RedisPool& pool, std::string name) {
  return RedisReadinessProbe(pool.options(), std::move(name));
}

ReadinessProbe PgReadinessProbe(PgPool& pool, std::string name) {
  return {std::move(name), [&pool] {
            return pool.WithTransaction([](pqxx::transaction_base& tx) {
              tx.exec("SELECT 1");
              return absl::OkStatus();
            });
          }};
}

ReadinessChecker::ReadinessChecker(std::vector<ReadinessProbe> probes, absl::Duration interval,
                                   std::function<void(bool ready)> on_change)
    : probes_(std::move(probes)), interval_(interval), on_change_(std::move(on_change)) {}

ReadinessChecker::~ReadinessChecker() {
  Stop();
}

void ReadinessChecker::Start() {
  CheckNow().IgnoreError();
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Loop(); });
}

void ReadinessChecker::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  // A check running in another thread (Start) finishes before we return.
  std::lock_guard<std::mutex> wait_for_check(check_mu_);
}

bool ReadinessChecker::ready() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ready_;
}

absl::Status ReadinessChecker::CheckNow() {
  std::lock_guard<std::mutex> check_lock(check_mu_);
  absl::Status failure;
  std::string failed_probe;
  for (const ReadinessProbe& probe : probes_) {
    absl::Status status = probe.check ? probe.check() : absl::OkStatus();
    if (!status.ok()) {
      failure = absl::Status(status.code(), absl::StrCat(probe.name, ": ", status.message()));
      failed_probe = probe.name;
      break;
    }
  }
  const bool now_ready = failure.ok();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || now_ready == ready_) return failure;
    ready_ = now_ready;
  }
  if (now_ready) {
    LogInfo("dependencies answer again: SERVING");
  } else {
    LogWarn("dependency unavailable: NOT_SERVING until it is back",
            {{"dependency", failed_probe}, {"status", failure}});
  }
  if (on_change_) on_change_(now_ready);
  return failure;
}

void ReadinessChecker::Loop() {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (wake_.wait_for(lock, absl::ToChronoNanoseconds(interval_),
                         [this] { return stopping_; })) {
        return;
      }
    }
    CheckNow().IgnoreError();
  }
}

}  // namespace draughts::platform
