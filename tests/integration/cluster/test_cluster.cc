#include "test_cluster.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "platform/redis_client.h"

extern char** environ;

namespace draughts::testing {
namespace {

bool PortFree(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return free;
}

// A port whose cluster bus port (+10000) is free too.
int FreeClusterPort(std::set<int>& taken) {
  static std::mt19937 random(std::random_device{}());
  std::uniform_int_distribution<int> pick(20000, 50000);
  for (int attempt = 0; attempt < 500; ++attempt) {
    const int port = pick(random);
    if (taken.contains(port) || taken.contains(port + 10000)) continue;
    if (PortFree(port) && PortFree(port + 10000)) {
      taken.insert(port);
      taken.insert(port + 10000);
      return port;
    }
  }
  return -1;
}

absl::StatusOr<pid_t> Spawn(const std::vector<std::string>& argv) {
  std::vector<char*> raw;
  for (const std::string& arg : argv) raw.push_back(const_cast<char*>(arg.c_str()));
  raw.push_back(nullptr);
  pid_t pid = -1;
  if (int error = ::posix_spawn(&pid, raw[0], nullptr, nullptr, raw.data(), environ); error != 0) {
    return absl::InternalError(absl::StrCat("cannot start ", argv[0], ": errno ", error));
  }
  return pid;
}

platform::RedisOptions NodeOptions(int port) {
  platform::RedisOptions options;
  options.host = "127.0.0.1";
  options.port = port;
  options.connect_attempts = 1;
  options.command_timeout = absl::Seconds(2);
  return options;
}

// The value of `field` in an INFO-style "field:value" reply.
std::string InfoField(const std::string& info, const std::string& field) {
  const std::string prefix = field + ":";
  size_t at = info.find(prefix);
  if (at == std::string::npos) return "";
  at += prefix.size();
  return info.substr(at, info.find_first_of("\r\n", at) - at);
}

}  // namespace

absl::StatusOr<std::string> RedisServerBinary() {
  const char* server = std::getenv("DRAUGHTS_TEST_REDIS_SERVER");
  if (server == nullptr || *server == '\0') {
    return absl::FailedPreconditionError(
        "DRAUGHTS_TEST_REDIS_SERVER is not set (see scripts/test)");
  }
  return std::string(server);
}

absl::StatusOr<std::string> RedisCliBinary() {
  if (const char* cli = std::getenv("DRAUGHTS_TEST_REDIS_CLI"); cli != nullptr && *cli != '\0') {
    return std::string(cli);
  }
  absl::StatusOr<std::string> server = RedisServerBinary();
  if (!server.ok()) return server.status();
  const std::filesystem::path beside = std::filesystem::path(*server).parent_path() / "redis-cli";
  if (!std::filesystem::exists(beside)) {
    return absl::FailedPreconditionError(
        absl::StrCat("no redis-cli at ", beside.string(), "; set DRAUGHTS_TEST_REDIS_CLI"));
  }
  return beside.string();
}

absl::StatusOr<std::unique_ptr<TestRedisCluster>> TestRedisCluster::Start(const std::string& server,
                                                                          const std::string& cli,
                                                                          int nodes) {
  char pattern[] = "/tmp/draughts-cluster-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return absl::InternalError("cannot create a directory");
  std::unique_ptr<TestRedisCluster> cluster(new TestRedisCluster(server, pattern));
  std::set<int> taken;
  for (int i = 0; i < nodes; ++i) {
    Node node;
    node.port = FreeClusterPort(taken);
    if (node.port < 0) return absl::UnavailableError("no free port pair for a cluster node");
    node.dir = absl::StrCat(cluster->root_, "/", node.port);
    std::filesystem::create_directories(node.dir);
    cluster->nodes_.push_back(node);
    cluster->ports_.push_back(node.port);
  }
  for (Node& node : cluster->nodes_) {
    if (absl::Status status = cluster->Launch(node); !status.ok()) return status;
  }
  std::vector<std::string> create = {cli, "--cluster", "create"};
  for (int port : cluster->ports_) create.push_back(absl::StrCat("127.0.0.1:", port));
  create.insert(create.end(), {"--cluster-replicas", "1", "--cluster-yes"});
  const std::string command =
      absl::StrCat(absl::StrJoin(create, " "), " > ", cluster->root_, "/create.log 2>&1");
  if (std::system(command.c_str()) != 0) {
    return absl::InternalError(
        absl::StrCat("redis-cli --cluster create failed; see ", cluster->root_, "/create.log"));
  }
  if (absl::Status status = cluster->WaitHealthy(absl::Seconds(30), true); !status.ok()) {
    return status;
  }
  return cluster;
}

absl::Status TestRedisCluster::Launch(Node& node) {
  absl::StatusOr<pid_t> pid = Spawn({server_,
                                     "--port",
                                     absl::StrCat(node.port),
                                     "--bind",
                                     "127.0.0.1",
                                     "--dir",
                                     node.dir,
                                     "--cluster-enabled",
                                     "yes",
                                     "--cluster-config-file",
                                     "nodes.conf",
                                     "--cluster-node-timeout",
                                     "1000",
                                     "--appendonly",
                                     "yes",
                                     "--save",
                                     "",
                                     "--logfile",
                                     "redis.log",
                                     "--daemonize",
                                     "no"});
  if (!pid.ok()) return pid.status();
  node.pid = *pid;
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (absl::Now() < deadline) {
    platform::RedisClient client(NodeOptions(node.port));
    if (client.Command({"PING"}).ok()) return absl::OkStatus();
    absl::SleepFor(absl::Milliseconds(50));
  }
  return absl::UnavailableError(absl::StrCat("redis-server on ", node.port, " did not start"));
}

TestRedisCluster::Node* TestRedisCluster::Find(int port) {
  for (Node& node : nodes_) {
    if (node.port == port) return &node;
  }
  return nullptr;
}

TestRedisCluster::~TestRedisCluster() {
  for (Node& node : nodes_) Kill(node.port);
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

std::string TestRedisCluster::Address() const {
  std::vector<std::string> seeds;
  for (size_t i = 0; i < ports_.size() && i < 3; ++i) {
    seeds.push_back(absl::StrCat("127.0.0.1:", ports_[i]));
  }
  return absl::StrCat("cluster://", absl::StrJoin(seeds, ","));
}

void TestRedisCluster::Kill(int port) {
  Node* node = Find(port);
  if (node == nullptr || node->pid <= 0) return;
  ::kill(node->pid, SIGKILL);
  ::waitpid(node->pid, nullptr, 0);
  node->pid = -1;
}

absl::Status TestRedisCluster::Restart(int port) {
  Node* node = Find(port);
  if (node == nullptr) return absl::NotFoundError(absl::StrCat("no node on ", port));
  if (node->pid > 0) return absl::FailedPreconditionError("node still running");
  return Launch(*node);
}

absl::StatusOr<std::vector<std::string>> TestRedisCluster::Masters() {
  for (const Node& node : nodes_) {
    if (node.pid <= 0) continue;
    platform::RedisClient client(NodeOptions(node.port));
    absl::StatusOr<platform::RedisReply> slots = client.Command({"CLUSTER", "SLOTS"});
    if (!slots.ok()) continue;
    std::set<std::string> masters;
    for (const platform::RedisReply& range : slots->elements()) {
      const auto& master = range.elements()[2].elements();
      masters.insert(absl::StrCat(master[0].text(), ":", master[1].integer()));
    }
    return std::vector<std::string>(masters.begin(), masters.end());
  }
  return absl::UnavailableError("no live cluster node");
}

absl::Status TestRedisCluster::WaitHealthy(absl::Duration timeout, bool replicas_linked) {
  const absl::Time deadline = absl::Now() + timeout;
  std::string why;
  while (absl::Now() < deadline) {
    why.clear();
    std::set<int> live;
    for (const Node& node : nodes_) {
      if (node.pid > 0) live.insert(node.port);
    }
    for (int port : live) {
      platform::RedisClient client(NodeOptions(port));
      absl::StatusOr<platform::RedisReply> info = client.Command({"CLUSTER", "INFO"});
      if (!info.ok() || InfoField(info->text(), "cluster_state") != "ok") {
        why = absl::StrCat("node ", port, " is not ok");
        break;
      }
      absl::StatusOr<platform::RedisReply> slots = client.Command({"CLUSTER", "SLOTS"});
      if (!slots.ok()) {
        why = absl::StrCat("node ", port, ": ", slots.status().ToString());
        break;
      }
      int64_t covered = 0;
      for (const platform::RedisReply& range : slots->elements()) {
        const auto& fields = range.elements();
        const int master = static_cast<int>(fields[2].elements()[1].integer());
        if (!live.contains(master)) {
          why = absl::StrCat("node ", port, " still names dead master ", master);
          break;
        }
        covered += fields[1].integer() - fields[0].integer() + 1;
        if (replicas_linked) {
          platform::RedisClient master_client(NodeOptions(master));
          absl::StatusOr<platform::RedisReply> replication =
              master_client.Command({"INFO", "replication"});
          if (!replication.ok() || InfoField(replication->text(), "connected_slaves") == "0" ||
              !absl::StrContains(replication->text(), "state=online")) {
            why = absl::StrCat("master ", master, " has no online replica");
            break;
          }
        }
      }
      if (why.empty() && covered != 16384) why = absl::StrCat("only ", covered, " slots served");
      if (!why.empty()) break;
    }
    if (why.empty()) return absl::OkStatus();
    absl::SleepFor(absl::Milliseconds(100));
  }
  return absl::DeadlineExceededError(absl::StrCat("redis cluster not healthy: ", why));
}

}  // namespace draughts::testing
