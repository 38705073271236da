// A pool of libpqxx (6.4) connections and the one way services use them:
//
//   absl::Status status = pool.WithTransaction([&](pqxx::transaction_base& tx) {
//     tx.exec_params("INSERT INTO games(id) VALUES ($1)", id);
//     return absl::OkStatus();
//   });
//
// The function runs inside a transaction that is committed when it returns
// OK and rolled back when it returns an error or throws. Every exception is
// converted to a status (see pg_errors.h): nothing thrown by libpqxx leaves
// WithTransaction. A connection that broke is closed and replaced by a new
// one; if it broke before the function ran (an idle connection killed by
// the server), the transaction is retried once on a fresh connection, so
// callers only see UNAVAILABLE when the database is really unreachable or
// the connection died mid-transaction.
//
// Metrics: every WithTransaction is timed and its database failures counted
// in draughts_pg_call_* (platform/store_metrics.h).
//
// Thread-safe; each transaction has a connection to itself.
#ifndef DRAUGHTS_PLATFORM_PG_POOL_H_
#define DRAUGHTS_PLATFORM_PG_POOL_H_

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <pqxx/connection>
#include <pqxx/transaction_base>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::platform {

struct PgPoolOptions {
  // libpq connection string, e.g. "host=127.0.0.1 port=5432 dbname=draughts
  // user=draughts connect_timeout=5". Session settings such as a statement
  // timeout can go in options='-c statement_timeout=5000'.
  std::string conninfo;
  int size = 4;
  // How long a transaction waits for a free connection.
  absl::Duration acquire_timeout = absl::Seconds(5);
};

enum class PgIsolation { kReadCommitted, kRepeatableRead, kSerializable };

struct TransactionOptions {
  PgIsolation isolation = PgIsolation::kReadCommitted;
  // Total runs when the transaction is ABORTED (serialization failure,
  // deadlock). >1 only if the function has no effects outside the database.
  int attempts = 1;
};

using TransactionFn = std::function<absl::Status(pqxx::transaction_base&)>;

class PgPool {
 public:
  // Opens one connection right away so a wrong conninfo or a down database
  // is reported at startup (UNAVAILABLE / INVALID_ARGUMENT).
  static absl::StatusOr<std::unique_ptr<PgPool>> Create(PgPoolOptions options);
  ~PgPool();
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  absl::Status WithTransaction(const TransactionFn& fn, const TransactionOptions& options = {});

  // Same, for a function that computes a value.
  template <typename T>
  absl::StatusOr<T> WithTransactionResult(
      const std::function<absl::StatusOr<T>(pqxx::transaction_base&)>& fn,
      const TransactionOptions& options = {}) {
    std::optional<T> result;
    absl::Status status = WithTransaction(
        [&](pqxx::transaction_base& tx) -> absl::Status {
          absl::StatusOr<T> value = fn(tx);
          if (!value.ok()) return value.status();
          result = *std::move(value);
          return absl::OkStatus();
        },
        options);
    if (!status.ok()) return status;
    return *std::move(result);
  }

  int size() const { return options_.size; }
  // Connections currently open (idle or in use).
  int open_connections() const;

 private:
  explicit PgPool(PgPoolOptions options);

  absl::StatusOr<std::unique_ptr<pqxx::connection>> Acquire();
  void Release(std::unique_ptr<pqxx::connection> connection, bool broken);
  absl::StatusOr<std::unique_ptr<pqxx::connection>> Open();
  absl::Status RunOnce(pqxx::connection& connection, const TransactionFn& fn, PgIsolation isolation,
                       bool* fn_started);

  PgPoolOptions options_;
  mutable std::mutex mu_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_;
  int open_ = 0;  // idle + in use
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_PG_POOL_H_
