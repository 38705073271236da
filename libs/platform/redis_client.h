// A synchronous Redis connection (hiredis redisContext) with timeouts and
// automatic reconnection.
//
// Reconnection: before each command the client checks that its socket is
// still alive (an idle socket that turned readable means the server closed
// it); if not, it reconnects, retrying `connect_attempts` times with
// exponential backoff, and fails with UNAVAILABLE when the server stays down.
// A command whose connection breaks *after* it was sent fails with
// UNAVAILABLE and is not retried, because Redis may or may not have applied
// it; the next command reconnects. Callers retry when their operation is
// idempotent (the services' writes are guarded by versions or keys).
//
// Replies: error replies become a status (see RedisErrorToStatus) in
// Command(); Pipeline() keeps them as RedisReply::Type::kError per command.
//
// Metrics: every Command() and Pipeline() is timed and its errors counted
// in draughts_redis_call_* (platform/store_metrics.h).
//
// SIGPIPE: the first connection sets SIGPIPE to SIG_IGN if it was SIG_DFL,
// since hiredis writes to sockets with write(2).
//
// Thread-safety: a RedisClient is NOT thread-safe; use one per thread or
// borrow from a RedisPool.
#ifndef DRAUGHTS_PLATFORM_REDIS_CLIENT_H_
#define DRAUGHTS_PLATFORM_REDIS_CLIENT_H_

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/redis_reply.h"

struct redisContext;

namespace draughts::platform {

class RedisClusterClient;

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  absl::Duration connect_timeout = absl::Seconds(1);
  // Per command round trip; blocking commands get their own (see below).
  absl::Duration command_timeout = absl::Seconds(2);
  int connect_attempts = 3;
  absl::Duration initial_backoff = absl::Milliseconds(50);
  absl::Duration max_backoff = absl::Seconds(1);
  std::string password;  // AUTH after connecting when not empty
  int database = 0;      // SELECT after connecting when not 0

  // Redis Cluster (platform/redis_cluster.h): the seed nodes; empty for a
  // single server at host:port.
  std::vector<std::pair<std::string, int>> cluster_seeds;
  // How long one call waits out a failover (CLUSTERDOWN, TRYAGAIN, a
  // refused connection) before it fails with UNAVAILABLE.
  absl::Duration cluster_failover_wait = absl::Seconds(5);
  // Replicas that must have each write before it succeeds (WAIT); 0: none.
  int cluster_wait_replicas = 1;
  absl::Duration cluster_wait_timeout = absl::Milliseconds(500);
};

// Parses "host:port" (or "[v6]:port") into options with defaults otherwise,
// and a Redis Cluster as "cluster://host:port,host:port[?wait=N&
// wait_timeout_ms=T&failover_wait_ms=F]" or as several addresses separated
// by commas ("host:port,host:port"): the seed nodes, then how many replicas
// must have each write (default 1; 0 for a cluster without replicas), how
// long to wait for them (default 500) and how long a call waits out a
// failover (default 5000).

absl::StatusOr<RedisOptions> ParseRedisAddress(std::string_view address);

class RedisClient {
 public:
  // Does not connect: the first command (or Connect()) does. With
  // options.cluster_seeds, every call goes through a RedisClusterClient.
  explicit RedisClient(RedisOptions options);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Connects now if not connected (with retries). Commands call this too.
  absl::Status Connect();
  void Disconnect();
  bool connected() const;
  // The cluster client behind this one, nullptr for a single server.
  RedisClusterClient* cluster() const { return cluster_.get(); }
  const RedisOptions& options() const { return options_; }

  // One command; every argument is passed binary-safe.
  absl::StatusOr<RedisReply> Command(const std::vector<std::string>& argv);
  absl::StatusOr<RedisReply> Command(std::initializer_list<std::string_view> argv);
  // For blocking commands (XREAD BLOCK, BLPOP ...): `timeout` replaces the
  // command timeout for this call only; pass the block time plus a margin.
  absl::StatusOr<RedisReply> CommandWithTimeout(const std::vector<std::string>& argv,
                                                absl::Duration timeout);

  // Sends all commands in one write, then reads one reply per command.
  // Fails as a whole only if the connection fails.
  absl::StatusOr<std::vector<RedisReply>> Pipeline(
      const std::vector<std::vector<std::string>>& commands);

  // Subscriber mode, after a SUBSCRIBE sent with Command() on a single
  // server: the messages the server pushed since, waiting up to `timeout`
  // for the first; empty when none came. A readable `wake_fd` (when >= 0)
  // ends the wait early. UNAVAILABLE when the connection broke (subscribe
  // again on a new one: messages sent meanwhile are lost).
  absl::StatusOr<std::vector<RedisReply>> ReadPushed(absl::Duration timeout, int wake_fd = -1);

 private:
  friend class RedisClusterClient;

  struct ContextDeleter {
    void operator()(redisContext* context) const;
  };

  absl::Status EnsureConnected();
  absl::Status ConnectOnce();
  bool SocketLooksAlive() const;
  absl::Status SetTimeout(absl::Duration timeout);
  // Drops the connection and describes `what` failed.
  absl::Status ConnectionLost(std::string_view what);
  absl::StatusOr<RedisReply> RunCommand(const std::vector<std::string_view>& argv,
                                        absl::Duration timeout, bool keep_error_reply = false);
  // One command on this server; an error reply stays a reply (the cluster
  // client reads MOVED and ASK from it).
  absl::StatusOr<RedisReply> RawCommand(const std::vector<std::string>& argv,
                                        absl::Duration timeout);
  absl::StatusOr<std::vector<RedisReply>> RunPipeline(
      const std::vector<std::vector<std::string>>& commands);

  RedisOptions options_;
  std::unique_ptr<redisContext, ContextDeleter> context_;
  std::unique_ptr<RedisClusterClient> cluster_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_CLIENT_H_
