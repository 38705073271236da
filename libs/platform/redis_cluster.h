// The Redis Cluster side of RedisClient: a RedisClient whose options name
// cluster seeds (RedisOptions::cluster_seeds, "cluster://host:port,..."
// in ParseRedisAddress) hands every call to a RedisClusterClient, so the
// services' stores, scripts, pools and stream helpers run on a cluster
// unchanged.
//
// Routing: the slot map comes from CLUSTER SLOTS (asked of a known master,
// else of a seed); each command goes to the master of its keys' slot
// (platform/redis_cluster_slots.h). A command or script whose keys fall in
// several slots is refused with INVALID_ARGUMENT before anything is sent.
// Keyless commands (PING, INFO) go to any master; SCRIPT (LOAD, FLUSH) and
// FLUSHALL/FLUSHDB to every master, so EvalScript's SCRIPT LOAD serves
// whichever master runs the script. Pipeline() splits its commands by node
// (one pipeline per node, replies back in the caller's order).
//
// Failover: MOVED updates the slot's owner and reloads the whole map
// before the next command; ASK sends ASKING then the command to the node
// named, once. CLUSTERDOWN, TRYAGAIN, MASTERDOWN, LOADING, READONLY (a
// write that reached a demoted master) and a refused connection were not
// applied, so the call waits (exponential backoff, the map reloaded) and
// tries again until `cluster_failover_wait` has passed, then fails with
// UNAVAILABLE. A connection that breaks after the command was sent is
// retried only for read-only commands; a write fails with UNAVAILABLE, as on
// a single server (it may or may not have been applied).
//
// Acknowledged writes: with `cluster_wait_replicas` = N > 0 (1 by default
// on a cluster), every write is followed, in the same round trip, by
// WAIT N <cluster_wait_timeout>; the call succeeds only when N replicas have
// the write, else it fails with UNAVAILABLE ("applied by the primary, not
// yet by a replica": the caller does not know whether it will survive a
// failover, exactly as for a broken connection). Redis promotes a replica
// that has the write when the master fails: with one replica per master, a
// write that succeeded survives the failover of its master (not the loss of
// both the master and its replica).
//
// Not thread-safe, like RedisClient.
#ifndef DRAUGHTS_PLATFORM_REDIS_CLUSTER_H_
#define DRAUGHTS_PLATFORM_REDIS_CLUSTER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/redis_client.h"
#include "platform/redis_reply.h"

namespace draughts::platform {

class RedisClusterClient {
 public:
  explicit RedisClusterClient(RedisOptions options);
  ~RedisClusterClient();
  RedisClusterClient(const RedisClusterClient&) = delete;
  RedisClusterClient& operator=(const RedisClusterClient&) = delete;

  // Loads the slot map if it has none yet (or was told to reload it).
  absl::Status Connect();
  void Disconnect();
  bool connected() const { return !refresh_needed_; }

  // Error replies become a status (RedisErrorToStatus), as RedisClient's.
  absl::StatusOr<RedisReply> Command(const std::vector<std::string>& argv, absl::Duration timeout);
  absl::StatusOr<std::vector<RedisReply>> Pipeline(
      const std::vector<std::vector<std::string>>& commands);

  // "host:port" of the master serving `slot` as this client knows it now
  // (the map loaded first if needed).
  absl::StatusOr<std::string> MasterOf(int slot);
  // Every master's "host:port".
  absl::StatusOr<std::vector<std::string>> Masters();

 private:
  // The command's reply after redirections and failover waits; error
  // replies stay replies. A status means no reply could be had.
  absl::StatusOr<RedisReply> Execute(const std::vector<std::string>& argv, absl::Duration timeout);
  absl::StatusOr<RedisReply> Broadcast(const std::vector<std::string>& argv);
  absl::Status RefreshSlots();
  RedisClient& Node(const std::string& address);
  std::string OwnerOf(int slot) const;
  std::vector<std::string> WaitCommand() const;
  RedisReply NotAcknowledged(const std::string& address) const;

  RedisOptions options_;
  std::vector<std::string> seeds_;    // "host:port"
  std::vector<std::string> masters_;  // index = owner_ value
  std::vector<int16_t> owner_;        // per slot, -1 when no master serves it
  bool refresh_needed_ = true;
  std::map<std::string, std::unique_ptr<RedisClient>> nodes_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_CLUSTER_H_
