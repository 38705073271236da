// A private Redis Cluster for tests: `nodes` redis-server processes with
// cluster mode and AOF on free loopback ports, joined by
// `redis-cli --cluster create --cluster-replicas 1` (three masters and three
// replicas for six nodes). Nodes can be killed (SIGKILL) and restarted on
// the same port and directory, where they rejoin the cluster.
#ifndef DRAUGHTS_TESTS_INTEGRATION_CLUSTER_TEST_CLUSTER_H_
#define DRAUGHTS_TESTS_INTEGRATION_CLUSTER_TEST_CLUSTER_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::testing {

class TestRedisCluster {
 public:
  // `server` and `cli`: paths of redis-server and redis-cli.
  static absl::StatusOr<std::unique_ptr<TestRedisCluster>> Start(const std::string& server,
                                                                 const std::string& cli,
                                                                 int nodes = 6);
  ~TestRedisCluster();  // kills every node, removes the directories

  // "cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3" (three seeds).
  std::string Address() const;
  const std::vector<int>& ports() const { return ports_; }

  void Kill(int port);
  absl::Status Restart(int port);

  // Until every live node reports cluster_state:ok, every slot is served
  // by a live master, and (with `replicas_linked`) each master has a
  // replica whose link is up.
  absl::Status WaitHealthy(absl::Duration timeout, bool replicas_linked);
  // "127.0.0.1:<port>" of every master as a live node sees them.
  absl::StatusOr<std::vector<std::string>> Masters();

 private:
  struct Node {
    int port;
    std::string dir;
    pid_t pid = -1;
  };
  TestRedisCluster(std::string server, std::string root)
      : server_(std::move(server)), root_(std::move(root)) {}
  absl::Status Launch(Node& node);
  Node* Find(int port);

  std::string server_;
  std::string root_;
  std::vector<Node> nodes_;
  std::vector<int> ports_;
};

// Paths from the environment: DRAUGHTS_TEST_REDIS_SERVER, and redis-cli
// beside it (or DRAUGHTS_TEST_REDIS_CLI).
absl::StatusOr<std::string> RedisServerBinary();
absl::StatusOr<std::string> RedisCliBinary();

}  // namespace draughts::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_CLUSTER_TEST_CLUSTER_H_
