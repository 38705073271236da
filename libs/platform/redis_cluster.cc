#include "platform/redis_cluster.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "platform/absl_compat.h"
#include "platform/redis_cluster_slots.h"

namespace draughts::platform {
namespace {

// Redirections one call follows before giving up (a map that keeps
// changing under it).
constexpr int kMaxRedirections = 16;

std::string Address(const std::string& host, int port) {
  return absl::StrCat(host, ":", port);
}

bool StartsWithWord(const std::string& text, std::string_view word) {
  return absl::StartsWith(text, ToAbsl(word)) &&
         (text.size() == word.size() || text[word.size()] == ' ');
}

// Errors of a command the server did not apply, that clear up when a
// failover ends or the map is reloaded.
bool IsTransient(const std::string& error) {
  for (std::string_view word : {"TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN", "LOADING", "READONLY"}) {
    if (StartsWithWord(error, word)) return true;
  }
  return false;
}

struct Redirection {
  bool ask = false;
  int slot = -1;
  std::string address;
};

// "MOVED 3999 127.0.0.1:6381" / "ASK 3999 127.0.0.1:6381".
std::optional<Redirection> ParseRedirection(const std::string& error) {
  Redirection redirection;
  if (StartsWithWord(error, "ASK")) {
    redirection.ask = true;
  } else if (!StartsWithWord(error, "MOVED")) {
    return std::nullopt;
  }
  std::vector<std::string> parts = absl::StrSplit(error, ' ', absl::SkipEmpty());
  if (parts.size() != 3 || !absl::SimpleAtoi(parts[1], &redirection.slot) || redirection.slot < 0 ||
      redirection.slot >= kRedisClusterSlots) {
    return std::nullopt;
  }
  redirection.address = parts[2];
  return redirection;
}

bool NeedsAnotherTry(const RedisReply& reply) {
  return reply.is_error() &&
         (IsTransient(reply.text()) || ParseRedirection(reply.text()).has_value());
}

}  // namespace

RedisClusterClient::RedisClusterClient(RedisOptions options)
    : options_(std::move(options)), owner_(kRedisClusterSlots, -1) {
  for (const auto& [host, port] : options_.cluster_seeds) seeds_.push_back(Address(host, port));
}

RedisClusterClient::~RedisClusterClient() = default;

absl::Status RedisClusterClient::Connect() {
  if (!refresh_needed_) return absl::OkStatus();
  return RefreshSlots();
}

void RedisClusterClient::Disconnect() {
  for (auto& [address, node] : nodes_) node->Disconnect();
  refresh_needed_ = true;
}

RedisClient& RedisClusterClient::Node(const std::string& address) {
  auto it = nodes_.find(address);
  if (it != nodes_.end()) return *it->second;
  RedisOptions node_options = options_;
  node_options.cluster_seeds.clear();
  const size_t colon = address.rfind(':');
  node_options.host = address.substr(0, colon);
  (void)absl::SimpleAtoi(address.substr(colon + 1), &node_options.port);
  // A dead node must fail fast: the cluster's own retry loop waits for
  // the failover instead.
  node_options.connect_attempts = 1;
  auto node = std::make_unique<RedisClient>(std::move(node_options));
  RedisClient& result = *node;
  nodes_.emplace(address, std::move(node));
  return result;
}

std::string RedisClusterClient::OwnerOf(int slot) const {
  const int16_t owner = owner_[static_cast<size_t>(slot)];
  return owner < 0 ? std::string() : masters_[static_cast<size_t>(owner)];
}

absl::Status RedisClusterClient::RefreshSlots() {
  std::vector<std::string> candidates = masters_;
  for (const std::string& seed : seeds_) {
    if (std::find(candidates.begin(), candidates.end(), seed) == candidates.end()) {
      candidates.push_back(seed);
    }
  }
  absl::Status last = absl::UnavailableError("redis cluster: no seed node");
  for (const std::string& candidate : candidates) {
    RedisClient& node = Node(candidate);
    absl::StatusOr<RedisReply> reply = node.Command({"CLUSTER", "SLOTS"});
    if (!reply.ok()) {
      last = reply.status();
      continue;
    }
    // [[start, end, [host, port, id, ...], [replica]...], ...]
    std::vector<std::string> masters;
    std::vector<int16_t> owner(kRedisClusterSlots, -1);
    bool malformed = false;
    for (const RedisReply& range : reply->elements()) {
      const auto& fields = range.elements();
      if (fields.size() < 3 || fields[2].elements().size() < 2) {
        malformed = true;
        break;
      }
      const int64_t start = fields[0].integer();
      const int64_t end = fields[1].integer();
      std::string host = fields[2].elements()[0].text();
      // An empty or "?" endpoint means "the address you reached me at".
      if (host.empty() || host == "?") host = node.options().host;
      const std::string address =
          Address(host, static_cast<int>(fields[2].elements()[1].integer()));
      auto found = std::find(masters.begin(), masters.end(), address);
      const auto index = static_cast<int16_t>(found - masters.begin());
      if (found == masters.end()) masters.push_back(address);
      for (int64_t slot = std::max<int64_t>(0, start); slot <= end && slot < kRedisClusterSlots;
           ++slot) {
        owner[static_cast<size_t>(slot)] = index;
      }
    }
    if (malformed || masters.empty()) {
      last = absl::UnavailableError(
          absl::StrCat("redis cluster: ", candidate, " has no usable slot map"));
      continue;
    }
    masters_ = std::move(masters);
    owner_ = std::move(owner);
    refresh_needed_ = false;
    return absl::OkStatus();
  }
  return absl::UnavailableError(
      absl::StrCat("redis cluster: cannot load the slot map: ", last.message()));
}

absl::StatusOr<std::string> RedisClusterClient::MasterOf(int slot) {
  if (slot < 0 || slot >= kRedisClusterSlots) {
    return absl::InvalidArgumentError(absl::StrCat("no hash slot ", slot));
  }
  if (absl::Status status = Connect(); !status.ok()) return status;
  std::string owner = OwnerOf(slot);
  if (owner.empty()) return absl::UnavailableError(absl::StrCat("slot ", slot, " has no master"));
  return owner;
}

absl::StatusOr<std::vector<std::string>> RedisClusterClient::Masters() {
  if (absl::Status status = Connect(); !status.ok()) return status;
  return masters_;
}

std::vector<std::string> RedisClusterClient::WaitCommand() const {
  return {
      "WAIT", absl::StrCat(options_.cluster_wait_replicas),
      absl::StrCat(std::max<int64_t>(1, absl::ToInt64Milliseconds(options_.cluster_wait_timeout)))};
}

RedisReply RedisClusterClient::NotAcknowledged(const std::string& address) const {
  return RedisReply::Error(absl::StrCat("UNAVAILABLE redis cluster: the write was applied by ",
                                        address, " but not by ", options_.cluster_wait_replicas,
                                        " replica(s) within ",
                                        absl::FormatDuration(options_.cluster_wait_timeout),
                                        "; it may be lost if that master fails over now"));
}

absl::StatusOr<RedisReply> RedisClusterClient::Broadcast(const std::vector<std::string>& argv) {
  const absl::Time deadline = absl::Now() + options_.cluster_failover_wait;
  absl::Duration backoff = options_.initial_backoff;
  while (true) {
    absl::Status status = Connect();
    std::optional<RedisReply> first;
    if (status.ok()) {
      for (const std::string& master : masters_) {
        absl::StatusOr<RedisReply> reply = Node(master).RawCommand(argv, options_.command_timeout);
        if (!reply.ok()) {
          status = reply.status();
          break;
        }
        if (reply->is_error() && IsTransient(reply->text())) {
          status = RedisErrorToStatus(reply->text());
          break;
        }
        if (reply->is_error()) return reply;
        if (!first.has_value()) first = *std::move(reply);
      }
    }
    if (status.ok()) return first.has_value() ? *first : RedisReply::Nil();
    refresh_needed_ = true;
    if (absl::Now() + backoff > deadline) return status;
    absl::SleepFor(backoff);
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

absl::StatusOr<RedisReply> RedisClusterClient::Execute(const std::vector<std::string>& argv,
                                                       absl::Duration timeout) {
  absl::StatusOr<RedisCommandKeys> keys = CommandKeys(argv);
  if (!keys.ok()) return keys.status();
  if (keys->route == RedisCommandRoute::kAllMasters) return Broadcast(argv);
  absl::StatusOr<std::optional<int>> slot = CommandSlot(argv);
  if (!slot.ok()) return slot.status();
  const bool read_only = IsReadOnlyCommand(argv[0]);
  // A blocking read (its own timeout) waits for nothing to replicate.
  const bool wait =
      options_.cluster_wait_replicas > 0 && !read_only && timeout == options_.command_timeout;

  const absl::Time deadline = absl::Now() + options_.cluster_failover_wait;
  absl::Duration backoff = options_.initial_backoff;
  absl::Status last = absl::UnavailableError("redis cluster: no node answered");
  std::string ask_target;
  int redirections = 0;
  // Waits out a failover step; false once the call's time is up.
  auto back_off = [&](absl::Status why) {
    last = std::move(why);
    refresh_needed_ = true;
    ask_target.clear();
    if (absl::Now() + backoff > deadline) return false;
    absl::SleepFor(backoff);
    backoff = std::min(backoff * 2, options_.max_backoff);
    return true;
  };
  while (true) {
    if (refresh_needed_) {
      if (absl::Status status = RefreshSlots(); !status.ok()) {
        if (back_off(status)) continue;
        return last;
      }
    }
    std::string address = !ask_target.empty() ? ask_target
                          : slot->has_value() ? OwnerOf(**slot)
                                              : masters_.front();
    if (address.empty()) {
      if (back_off(absl::UnavailableError(
              absl::StrCat("redis cluster: no master serves slot ", **slot)))) {
        continue;
      }
      return last;
    }
    RedisClient& node = Node(address);
    if (absl::Status status = node.Connect(); !status.ok()) {
      if (back_off(status)) continue;
      return last;
    }
    const bool asking = !ask_target.empty();
    absl::StatusOr<RedisReply> reply;
    std::optional<RedisReply> acknowledged;
    if (!asking && !wait) {
      reply = node.RawCommand(argv, timeout);
    } else {
      std::vector<std::vector<std::string>> commands;
      if (asking) commands.push_back({"ASKING"});
      commands.push_back(argv);
      if (wait) commands.push_back(WaitCommand());
      absl::StatusOr<std::vector<RedisReply>> replies = node.Pipeline(commands);
      if (replies.ok()) {
        reply = (*replies)[asking ? 1 : 0];
        if (wait) acknowledged = replies->back();
      } else {
        reply = replies.status();
      }
    }
    if (!reply.ok()) {
      // Sent, then the connection broke: only a read may be sent again.
      if (read_only && back_off(reply.status())) continue;
      refresh_needed_ = true;
      return reply.status();
    }
    if (reply->is_error()) {
      if (std::optional<Redirection> redirection = ParseRedirection(reply->text())) {
        if (++redirections > kMaxRedirections) {
          return absl::UnavailableError(
              absl::StrCat("redis cluster: too many redirections; last: ", reply->text()));
        }
        if (redirection->ask) {
          ask_target = redirection->address;
        } else {
          ask_target.clear();
          refresh_needed_ = true;
        }
        continue;
      }
      if (IsTransient(reply->text())) {
        if (back_off(RedisErrorToStatus(reply->text()))) continue;
        return last;
      }
      return reply;
    }
    if (acknowledged.has_value() && !acknowledged->is_error() &&
        acknowledged->integer() < options_.cluster_wait_replicas) {
      return NotAcknowledged(address);
    }
    return reply;
  }
}

absl::StatusOr<RedisReply> RedisClusterClient::Command(const std::vector<std::string>& argv,
                                                       absl::Duration timeout) {
  if (argv.empty()) return absl::InvalidArgumentError("redis: empty command");
  absl::StatusOr<RedisReply> reply = Execute(argv, timeout);
  if (reply.ok() && reply->is_error()) return RedisErrorToStatus(reply->text());
  return reply;
}

absl::StatusOr<std::vector<RedisReply>> RedisClusterClient::Pipeline(
    const std::vector<std::vector<std::string>>& commands) {
  std::vector<RedisReply> replies(commands.size());
  std::vector<size_t> one_by_one;
  std::map<std::string, std::vector<size_t>> by_node;
  if (refresh_needed_) (void)RefreshSlots();  // failing here, Execute waits
  for (size_t i = 0; i < commands.size(); ++i) {
    absl::StatusOr<std::optional<int>> slot = CommandSlot(commands[i]);
    if (!slot.ok()) {
      replies[i] = RedisReply::Error(absl::StrCat("INVALID_ARGUMENT ", slot.status().message()));
      continue;
    }
    const std::string owner =
        slot->has_value() && !refresh_needed_ ? OwnerOf(**slot) : std::string();
    if (owner.empty()) {
      one_by_one.push_back(i);
    } else {
      by_node[owner].push_back(i);
    }
  }
  for (const auto& [address, indexes] : by_node) {
    RedisClient& node = Node(address);
    if (!node.Connect().ok()) {
      one_by_one.insert(one_by_one.end(), indexes.begin(), indexes.end());
      continue;
    }
    std::vector<std::vector<std::string>> batch;
    bool writes = false;
    for (size_t index : indexes) {
      batch.push_back(commands[index]);
      writes = writes || !IsReadOnlyCommand(commands[index][0]);
    }
    const bool wait = writes && options_.cluster_wait_replicas > 0;
    if (wait) batch.push_back(WaitCommand());
    absl::StatusOr<std::vector<RedisReply>> node_replies = node.Pipeline(batch);
    if (!node_replies.ok()) {
      refresh_needed_ = true;
      return node_replies.status();
    }
    const bool unacknowledged = wait && !node_replies->back().is_error() &&
                                node_replies->back().integer() < options_.cluster_wait_replicas;
    for (size_t k = 0; k < indexes.size(); ++k) {
      RedisReply& reply = (*node_replies)[k];
      const size_t index = indexes[k];
      if (NeedsAnotherTry(reply)) {
        std::optional<Redirection> redirection = ParseRedirection(reply.text());
        if (redirection.has_value() && !redirection->ask) refresh_needed_ = true;
        one_by_one.push_back(index);
      } else if (unacknowledged && !reply.is_error() && !IsReadOnlyCommand(commands[index][0])) {
        replies[index] = NotAcknowledged(address);
      } else {
        replies[index] = std::move(reply);
      }
    }
  }
  std::sort(one_by_one.begin(), one_by_one.end());
  for (size_t index : one_by_one) {
    absl::StatusOr<RedisReply> reply = Execute(commands[index], options_.command_timeout);
    if (!reply.ok()) {
      if (reply.status().code() == absl::StatusCode::kUnavailable) return reply.status();
      replies[index] = RedisReply::Error(absl::StrCat(
          absl::StatusCodeToString(reply.status().code()), " ", reply.status().message()));
      continue;
    }
    replies[index] = *std::move(reply);
  }
  return replies;
}

}  // namespace draughts::platform
