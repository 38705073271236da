#include "platform/redis_consumer_group.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "platform/status_macros.h"

namespace draughts::platform {
namespace {

absl::Status Malformed(std::string_view what, const RedisReply& reply) {
  return absl::InternalError(absl::StrCat("malformed consumer group reply (", std::string(what),
                                          "): ", reply.DebugString()));
}

absl::Status RequirePositive(int64_t count, std::string_view command) {
  if (count > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(command), " needs a positive count, not ", count));
}

// XINFO GROUPS answers each group as a flat [name, value, name, value ...].
absl::StatusOr<ConsumerGroupInfo> ParseGroupInfo(const RedisReply& reply) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> items, reply.AsArray());
  if (items.size() % 2 != 0) return Malformed("group info has an odd length", reply);
  ConsumerGroupInfo info;
  for (size_t i = 0; i < items.size(); i += 2) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string key, items[i].AsString());
    const RedisReply& value = items[i + 1];
    if (key == "name") {
      DRAUGHTS_ASSIGN_OR_RETURN(info.name, value.AsString());
    } else if (key == "consumers") {
      DRAUGHTS_ASSIGN_OR_RETURN(info.consumers, value.AsInteger());
    } else if (key == "pending") {
      DRAUGHTS_ASSIGN_OR_RETURN(info.pending, value.AsInteger());
    } else if (key == "last-delivered-id") {
      DRAUGHTS_ASSIGN_OR_RETURN(info.last_delivered_id, value.AsString());
    } else if (key == "entries-read" && !value.is_nil()) {
      DRAUGHTS_ASSIGN_OR_RETURN(info.entries_read, value.AsInteger());
    } else if (key == "lag" && !value.is_nil()) {
      DRAUGHTS_ASSIGN_OR_RETURN(info.lag, value.AsInteger());
    }
  }
  return info;
}

}  // namespace

StreamConsumer::StreamConsumer(StreamConsumerOptions options) : options_(std::move(options)) {}

absl::Status StreamConsumer::CreateGroup(RedisClient& redis) const {
  if (options_.stream.empty() || options_.group.empty()) {
    return absl::InvalidArgumentError("a consumer group needs a stream and a group name");
  }
  auto reply = redis.Command(
      {"XGROUP", "CREATE", options_.stream, options_.group, options_.start_id, "MKSTREAM"});
  if (reply.status().code() == absl::StatusCode::kAlreadyExists) return absl::OkStatus();
  return reply.status();
}

template <typename T>
absl::StatusOr<T> StreamConsumer::WithGroup(RedisClient& redis,
                                            const std::function<absl::StatusOr<T>()>& read) const {
  absl::StatusOr<T> result = read();
  if (result.status().code() != absl::StatusCode::kNotFound) return result;
  DRAUGHTS_RETURN_IF_ERROR(CreateGroup(redis));
  return read();
}

absl::StatusOr<std::vector<StreamEntry>> StreamConsumer::ReadGroup(RedisClient& redis,
                                                                   int64_t count,
                                                                   absl::Duration block,
                                                                   const std::string& id) const {
  if (options_.consumer.empty()) return absl::InvalidArgumentError("the consumer has no name");
  std::vector<std::string> argv = {"XREADGROUP",      "GROUP", options_.group,
                                   options_.consumer, "COUNT", absl::StrCat(count)};
  int64_t block_ms = absl::ToInt64Milliseconds(block);
  if (block_ms > 0) argv.insert(argv.end(), {"BLOCK", absl::StrCat(block_ms)});
  argv.insert(argv.end(), {"STREAMS", options_.stream, id});
  // The socket timeout must outlast the server-side block.
  DRAUGHTS_ASSIGN_OR_RETURN(
      RedisReply reply, redis.CommandWithTimeout(argv, block + redis.options().command_timeout));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<StreamBatch> batches, ParseStreamBatches(reply));
  std::vector<StreamEntry> entries;
  for (StreamBatch& batch : batches) {
    for (StreamEntry& entry : batch.entries) entries.push_back(std::move(entry));
  }
  return entries;
}

absl::StatusOr<std::vector<StreamEntry>> StreamConsumer::ReadNew(RedisClient& redis, int64_t count,
                                                                 absl::Duration block) const {
  DRAUGHTS_RETURN_IF_ERROR(RequirePositive(count, "XREADGROUP"));
  if (block < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("XREADGROUP cannot block for a negative time");
  }
  // BLOCK 0 would wait forever and outlive every timeout: round up instead.
  if (block > absl::ZeroDuration() && block < absl::Milliseconds(1)) block = absl::Milliseconds(1);
  return WithGroup<std::vector<StreamEntry>>(redis,
                                             [&] { return ReadGroup(redis, count, block, ">"); });
}

absl::StatusOr<std::vector<StreamEntry>> StreamConsumer::ReadPending(
    RedisClient& redis, int64_t count, const std::string& after_id) const {
  DRAUGHTS_RETURN_IF_ERROR(RequirePositive(count, "XREADGROUP"));
  if (after_id == ">") return absl::InvalidArgumentError("ReadPending takes an id, not \">\"");
  return WithGroup<std::vector<StreamEntry>>(
      redis, [&] { return ReadGroup(redis, count, absl::ZeroDuration(), after_id); });
}

absl::StatusOr<int64_t> StreamConsumer::Ack(RedisClient& redis,
                                            const std::vector<std::string>& ids) const {
  if (ids.empty()) return 0;
  std::vector<std::string> argv = {"XACK", options_.stream, options_.group};
  argv.insert(argv.end(), ids.begin(), ids.end());
  DRAUGHTS_ASSIGN_OR_RETURN(RedisReply reply, redis.Command(argv));
  return reply.AsInteger();
}

absl::StatusOr<ClaimedEntries> StreamConsumer::ClaimIdle(RedisClient& redis,
                                                         absl::Duration min_idle,
                                                         const std::string& cursor,
                                                         int64_t count) const {
  DRAUGHTS_RETURN_IF_ERROR(RequirePositive(count, "XAUTOCLAIM"));
  if (options_.consumer.empty()) return absl::InvalidArgumentError("the consumer has no name");
  if (min_idle < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("XAUTOCLAIM needs a non-negative idle time");
  }
  return WithGroup<ClaimedEntries>(redis, [&]() -> absl::StatusOr<ClaimedEntries> {
    DRAUGHTS_ASSIGN_OR_RETURN(
        RedisReply reply,
        redis.Command({"XAUTOCLAIM", options_.stream, options_.group, options_.consumer,
                       absl::StrCat(absl::ToInt64Milliseconds(min_idle)), cursor, "COUNT",
                       absl::StrCat(count)}));
    // Redis 6.2: [cursor, entries]; Redis 7 adds [deleted ids].
    if (reply.type() != RedisReply::Type::kArray || reply.elements().size() < 2) {
      return Malformed("XAUTOCLAIM", reply);
    }
    ClaimedEntries claimed;
    DRAUGHTS_ASSIGN_OR_RETURN(claimed.next_cursor, reply.elements()[0].AsString());
    DRAUGHTS_ASSIGN_OR_RETURN(claimed.entries, ParseStreamEntries(reply.elements()[1]));
    if (reply.elements().size() >= 3) {
      DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> deleted, reply.elements()[2].AsArray());
      for (const RedisReply& id : deleted) {
        DRAUGHTS_ASSIGN_OR_RETURN(std::string text, id.AsString());
        claimed.deleted_ids.push_back(std::move(text));
      }
    }
    return claimed;
  });
}

absl::StatusOr<PendingSummary> StreamConsumer::Pending(RedisClient& redis) const {
  DRAUGHTS_ASSIGN_OR_RETURN(RedisReply reply,
                            redis.Command({"XPENDING", options_.stream, options_.group}));
  // [count, min id, max id, [[consumer, count], ...]]; ids and list nil when empty.
  if (reply.type() != RedisReply::Type::kArray || reply.elements().size() != 4) {
    return Malformed("XPENDING summary", reply);
  }
  const std::vector<RedisReply>& items = reply.elements();
  PendingSummary summary;
  DRAUGHTS_ASSIGN_OR_RETURN(summary.count, items[0].AsInteger());
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> min_id, items[1].AsOptionalString());
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> max_id, items[2].AsOptionalString());
  summary.min_id = min_id.value_or("");
  summary.max_id = max_id.value_or("");
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> consumers, items[3].AsArray());
  for (const RedisReply& consumer : consumers) {
    if (consumer.type() != RedisReply::Type::kArray || consumer.elements().size() != 2) {
      return Malformed("XPENDING consumer", reply);
    }
    DRAUGHTS_ASSIGN_OR_RETURN(std::string name, consumer.elements()[0].AsString());
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t count, consumer.elements()[1].AsInteger());
    summary.per_consumer.emplace_back(std::move(name), count);
  }
  return summary;
}

absl::StatusOr<std::vector<PendingEntry>> StreamConsumer::PendingEntries(
    RedisClient& redis, int64_t count, absl::Duration min_idle, const std::string& consumer) const {
  DRAUGHTS_RETURN_IF_ERROR(RequirePositive(count, "XPENDING"));
  std::vector<std::string> argv = {"XPENDING", options_.stream, options_.group};
  if (min_idle > absl::ZeroDuration()) {
    argv.insert(argv.end(), {"IDLE", absl::StrCat(absl::ToInt64Milliseconds(min_idle))});
  }
  argv.insert(argv.end(), {"-", "+", absl::StrCat(count)});
  if (!consumer.empty()) argv.push_back(consumer);
  DRAUGHTS_ASSIGN_OR_RETURN(RedisReply reply, redis.Command(argv));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> items, reply.AsArray());
  std::vector<PendingEntry> entries;
  entries.reserve(items.size());
  for (const RedisReply& item : items) {
    // [id, consumer, idle ms, deliveries]
    if (item.type() != RedisReply::Type::kArray || item.elements().size() != 4) {
      return Malformed("XPENDING entry", item);
    }
    PendingEntry entry;
    DRAUGHTS_ASSIGN_OR_RETURN(entry.id, item.elements()[0].AsString());
    DRAUGHTS_ASSIGN_OR_RETURN(entry.consumer, item.elements()[1].AsString());
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t idle_ms, item.elements()[2].AsInteger());
    entry.idle = absl::Milliseconds(idle_ms);
    DRAUGHTS_ASSIGN_OR_RETURN(entry.deliveries, item.elements()[3].AsInteger());
    entries.push_back(std::move(entry));
  }
  return entries;
}

absl::StatusOr<ConsumerGroupInfo> StreamConsumer::Info(RedisClient& redis) const {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<ConsumerGroupInfo> groups,
                            ListConsumerGroups(redis, options_.stream));
  for (ConsumerGroupInfo& group : groups) {
    if (group.name == options_.group) return std::move(group);
  }
  return absl::NotFoundError(
      absl::StrCat("stream ", options_.stream, " has no consumer group ", options_.group));
}

absl::StatusOr<std::vector<ConsumerGroupInfo>> ListConsumerGroups(RedisClient& redis,
                                                                  const std::string& stream) {
  auto reply = redis.Command({"XINFO", "GROUPS", stream});
  if (!reply.ok()) {
    // A missing key is a plain "ERR no such key".
    if (absl::StrContains(reply.status().message(), "no such key")) {
      return absl::NotFoundError(absl::StrCat("stream ", stream, " does not exist"));
    }
    return reply.status();
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> items, reply->AsArray());
  std::vector<ConsumerGroupInfo> groups;
  groups.reserve(items.size());
  for (const RedisReply& item : items) {
    DRAUGHTS_ASSIGN_OR_RETURN(ConsumerGroupInfo info, ParseGroupInfo(item));
    groups.push_back(std::move(info));
  }
  return groups;
}

}  // namespace draughts::platform
