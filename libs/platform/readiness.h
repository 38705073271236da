// Readiness that reflects a service's dependencies: a replica whose Redis
// or PostgreSQL is unreachable can only fail its calls, so it reports
// NOT_SERVING on its health service and load balancers (Kubernetes
// readiness, a gRPC client's health checking) route around it until the
// dependency answers again. The process keeps running: it recovers by
// itself, and restarting it (what a failed liveness check would do) helps
// nothing.
//
// Serve runs the probes given in ServeOptions::readiness_probes:
//
//   options.readiness_probes = {RedisReadinessProbe(redis_pool),
//                               PgReadinessProbe(pg_pool)};
//   Serve(options, {&service});
//
// A probe must answer within a few seconds whatever happens (the ready-made
// ones do: Redis with its connect and command timeouts, PostgreSQL with
// `connect_timeout` in the conninfo); one that hangs holds up the others
// and the shutdown.
#ifndef DRAUGHTS_PLATFORM_READINESS_H_
#define DRAUGHTS_PLATFORM_READINESS_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "platform/redis_client.h"

namespace draughts::platform {

class PgPool;
class RedisPool;

struct ReadinessProbe {
  std::string name;                     // names the dependency in logs: "redis", "postgres"
  std::function<absl::Status()> check;  // OK while the dependency answers
};

// PING on a connection of the probe's own, so a pool whose connections
// are all busy (blocking stream reads) does not look like Redis being down.
// One connection attempt per check: the next check is the retry.
ReadinessProbe RedisReadinessProbe(RedisOptions options, std::string name = "redis");
ReadinessProbe RedisReadinessProbe(const RedisPool& pool, std::string name = "redis");

// `SELECT 1` in a transaction of the pool. The pool must outlive the probe.
ReadinessProbe PgReadinessProbe(PgPool& pool, std::string name = "postgres");

// Runs the probes now and then every `interval` on a thread of its own and
// calls `on_change(ready)` only when the overall answer changes (ready =
// every probe OK), logging each transition once with the failing probe.
// Starts out ready: a first failing check reports the change.
class ReadinessChecker {
 public:
  ReadinessChecker(std::vector<ReadinessProbe> probes, absl::Duration interval,
                   std::function<void(bool ready)> on_change);
  ~ReadinessChecker();  // Stop()
  ReadinessChecker(const ReadinessChecker&) = delete;
  ReadinessChecker& operator=(const ReadinessChecker&) = delete;

  // Checks once in the calling thread (so the first health answer is
  // already right), then starts the background thread. Once only.
  void Start();
  // Stops and joins the thread; no on_change call happens after it returns.
  // Idempotent.
  void Stop();

  // Runs every probe once and reports a change; returns the first failure.
  absl::Status CheckNow();
  bool ready() const;

 private:
  void Loop();

  const std::vector<ReadinessProbe> probes_;
  const absl::Duration interval_;
  const std::function<void(bool)> on_change_;

  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool ready_ = true;
  bool stopping_ = false;
  std::mutex check_mu_;  // one CheckNow at a time, so changes are reported in order
  std::thread thread_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_READINESS_H_
