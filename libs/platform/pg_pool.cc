#include "platform/pg_pool.h"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <pqxx/transaction>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/pg_errors.h"
#include "platform/store_metrics.h"

namespace draughts::platform {
namespace {

struct Outcome {
  absl::Status status;
  bool fn_started = false;
  bool connection_suspect = false;
  bool from_database = false;  // status is the database's, not the function's
};

// Times one WithTransaction and records it (platform/store_metrics.h) with
// the last failure of the database or the pool, whichever way it returns.
struct CallRecorder {
  ~CallRecorder() {
    RecordPgCall(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                 database_status);
  }
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  absl::Status database_status;
};

template <typename Transaction>
Outcome RunIn(pqxx::connection& connection, const TransactionFn& fn) {
  Outcome outcome;
  try {
    Transaction tx(connection);  // sends BEGIN
    outcome.fn_started = true;
    absl::Status status = fn(tx);
    if (status.ok()) {
      tx.commit();
    } else {
      try {
        tx.abort();
      } catch (...) {
        // The rollback failed, so the session state is unknown: replace it,
        // but report the function's own error.
        outcome.connection_suspect = true;
      }
    }
    outcome.status = status;
  } catch (...) {
    outcome.status = PgExceptionToStatus(std::current_exception());
    outcome.connection_suspect = IsConnectionFailure(outcome.status);
    outcome.from_database = true;
  }
  return outcome;
}

Outcome Run(pqxx::connection& connection, const TransactionFn& fn, PgIsolation isolation) {
  switch (isolation) {
    case PgIsolation::kRepeatableRead:
      return RunIn<pqxx::transaction<pqxx::isolation_level::repeatable_read>>(connection, fn);
    case PgIsolation::kSerializable:
      return RunIn<pqxx::transaction<pqxx::isolation_level::serializable>>(connection, fn);
    case PgIsolation::kReadCommitted:
    default:
      return RunIn<pqxx::transaction<pqxx::isolation_level::read_committed>>(connection, fn);
  }
}

// An idle connection never has data waiting: a readable socket means the
// server sent a FATAL (e.g. pg_terminate_backend, restart) and closed it.
// Checking first avoids sending BEGIN into a dead session (libpqxx 6.4 also
// leaks a result on that path).
bool LooksAlive(const pqxx::connection& connection) {
  if (!connection.is_open()) return false;
  int fd = connection.sock();
  if (fd < 0) return false;
  struct pollfd pfd = {fd, POLLIN | POLLRDHUP, 0};
  return ::poll(&pfd, 1, 0) == 0;
}

}  // namespace

PgPool::PgPool(PgPoolOptions options) : options_(std::move(options)) {
  options_.size = std::max(1, options_.size);
}

PgPool::~PgPool() = default;

absl::StatusOr<std::unique_ptr<PgPool>> PgPool::Create(PgPoolOptions options) {
  std::unique_ptr<PgPool> pool(new PgPool(std::move(options)));
  auto first = pool->Open();
  if (!first.ok()) return first.status();
  pool->idle_.push_back(*std::move(first));
  pool->open_ = 1;
  return pool;
}

int PgPool::open_connections() const {
  std::lock_guard<std::mutex> lock(mu_);
  return open_;
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> PgPool::Open() {
  try {
    return std::make_unique<pqxx::connection>(options_.conninfo);
  } catch (...) {
    absl::Status status = PgExceptionToStatus(std::current_exception());
    return absl::Status(status.code(),
                        absl::StrCat("cannot connect to postgres: ", status.message()));
  }
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> PgPool::Acquire() {
  std::unique_ptr<pqxx::connection> chosen;
  std::vector<std::unique_ptr<pqxx::connection>> dead;
  {
    std::unique_lock<std::mutex> lock(mu_);
    bool ready = freed_.wait_for(lock, absl::ToChronoNanoseconds(options_.acquire_timeout),
                                 [this] { return !idle_.empty() || open_ < options_.size; });
    if (!ready) {
      return absl::UnavailableError(absl::StrCat("all ", options_.size,
                                                 " postgres connections stayed busy for ",
                                                 absl::FormatDuration(options_.acquire_timeout)));
    }
    while (!idle_.empty() && chosen == nullptr) {
      std::unique_ptr<pqxx::connection> connection = std::move(idle_.back());
      idle_.pop_back();
      if (LooksAlive(*connection)) {
        chosen = std::move(connection);
      } else {
        --open_;
        dead.push_back(std::move(connection));
      }
    }
    // Either a live idle connection, or a free slot (there was one, or a
    // dead connection just gave its slot back): reserve it.
    if (chosen == nullptr) ++open_;
  }
  if (!dead.empty()) {
    LogWarn("postgres connections closed by the server while idle; replacing them",
            {{"count", dead.size()}});
    dead.clear();
  }
  if (chosen != nullptr) return chosen;
  auto opened = Open();  // without holding the lock
  if (!opened.ok()) Release(nullptr, /*broken=*/true);
  return opened;
}

void PgPool::Release(std::unique_ptr<pqxx::connection> connection, bool broken) {
  if (broken) {
    connection.reset();  // closes the socket; a new one is opened on demand
    {
      std::lock_guard<std::mutex> lock(mu_);
      --open_;
    }
  } else {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(connection));
  }
  freed_.notify_one();
}

absl::Status PgPool::WithTransaction(const TransactionFn& fn, const TransactionOptions& options) {
  if (!fn) return absl::InvalidArgumentError("WithTransaction: empty function");
  const int attempts = std::max(1, options.attempts);
  CallRecorder recorder;
  bool reconnected = false;
  int attempt = 1;
  for (;;) {
    auto connection = Acquire();
    if (!connection.ok()) {
      recorder.database_status = connection.status();
      return connection.status();
    }
    Outcome outcome = Run(**connection, fn, options.isolation);
    recorder.database_status = outcome.from_database ? outcome.status : absl::OkStatus();
    bool broken = outcome.connection_suspect || !(*connection)->is_open();
    Release(*std::move(connection), broken);
    if (outcome.status.ok()) return outcome.status;
    if (broken) {
      LogWarn("postgres connection replaced", {{"status", outcome.status}});
      // Nothing of the function ran: safe to retry once on a new connection.
      if (!outcome.fn_started && !reconnected) {
        reconnected = true;
        continue;
      }
    }
    if (outcome.status.code() == absl::StatusCode::kAborted && attempt < attempts) {
      ++attempt;
      continue;
    }
    return outcome.status;
  }
}

}  // namespace draughts::platform
