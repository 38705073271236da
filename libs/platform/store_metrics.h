// Latency and errors of the calls services make to their stores, recorded
// by RedisClient and PgPool themselves in MetricsRegistry(), so every
// service has them without code of its own:
//
//   draughts_redis_call_seconds{command}            histogram of round trips
//   draughts_redis_call_errors_total{command,kind}  failed calls
//   draughts_pg_call_seconds                        histogram of transactions
//   draughts_pg_call_errors_total{kind}             failed transactions
//
// Redis `command` is the command's name in upper case from a fixed list
// (the commands this platform sends; anything else is "OTHER", so label
// cardinality stays bounded whatever a caller sends), "PIPELINE" for
// RedisClient::Pipeline. Blocking reads (a timeout of their own: XREAD
// BLOCK...) are not timed, their latency being mostly the wait for data;
// their errors count.
//
// kind="unavailable": the store did not answer: no connection, connection
// lost, timeout, Redis saying it cannot serve now (LOADING, BUSY,
// READONLY...), or no free PostgreSQL connection within the pool's acquire
// timeout: what "dependency down" alerts look at. (RedisPool::Borrow
// timeouts are not Redis calls and are not counted.)
// kind="reply" (Redis) / "query" (PostgreSQL): the store answered with an
// error (a script's refusal, a constraint violation, a serialization
// failure); usually the caller's business, not an outage.
//
// A PostgreSQL "call" is one WithTransaction, from asking the pool for a
// connection to the commit, retries included. Errors the function returns
// itself are not the database's and do not count.
//
// Cost on the hot path: a table lookup of the command name and two clock
// reads; each series is built once, on its first use.
#ifndef DRAUGHTS_PLATFORM_STORE_METRICS_H_
#define DRAUGHTS_PLATFORM_STORE_METRICS_H_

#include <string_view>

#include "absl/status/status.h"

namespace draughts::platform {

enum class StoreErrorKind { kUnavailable, kReply };

// UNAVAILABLE and DEADLINE_EXCEEDED are the store being unreachable; any
// other error is an answer.
StoreErrorKind ClassifyStoreError(const absl::Status& status);

// `command` is argv[0] as sent (any case), or "PIPELINE". `blocking` calls
// count only their errors.
void RecordRedisCall(std::string_view command, double seconds, const absl::Status& status,
                     bool blocking);

// `status` is the transaction's when it failed in the database or the pool
// (OK otherwise, including when the function returned an error itself).
void RecordPgCall(double seconds, const absl::Status& database_status);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_STORE_METRICS_H_
