#include "rating/redis_result_source.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/redis_streams.h"
#include "platform/status_macros.h"

namespace draughts::rating {
namespace {

using platform::RedisReply;

absl::Status Malformed(const char* what, const RedisReply& reply) {
  return absl::InternalError(absl::StrCat("unexpected ", what, " reply: ", reply.DebugString()));
}

ResultEntry ToResultEntry(platform::StreamEntry entry) {
  ResultEntry out;
  out.id = std::move(entry.id);
  for (auto& [name, value] : entry.fields) {
    if (name == "data" && !out.data.has_value()) {
      out.data = std::move(value);
    } else if (name == "game_id" && out.game_id.empty()) {
      out.game_id = std::move(value);
    }
  }
  return out;
}

// Entries of an XREADGROUP / XAUTOCLAIM list. A nil element (Redis 6.2
// XAUTOCLAIM: deleted meanwhile) is skipped; [id, nil] (XREADGROUP of a
// pending entry deleted from the stream) becomes an entry without data.
absl::StatusOr<std::vector<ResultEntry>> ParseEntries(const RedisReply& list) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> items, list.AsArray());
  std::vector<ResultEntry> entries;
  entries.reserve(items.size());
  for (const RedisReply& item : items) {
    if (item.is_nil()) continue;
    DRAUGHTS_ASSIGN_OR_RETURN(platform::StreamEntry entry, platform::ParseStreamEntry(item));
    entries.push_back(ToResultEntry(std::move(entry)));
  }
  return entries;
}

bool IsNoGroup(const absl::Status& status) {
  return absl::StrContains(status.message(), "NOGROUP");
}

}  // namespace

RedisResultSource::RedisResultSource(platform::RedisOptions options, ResultGroup group)
    : client_(std::move(options)), group_(std::move(group)) {}

absl::Status RedisResultSource::CreateGroup() {
  // "$": a new group starts with the entries added from now on
  // (docs/API.md); MKSTREAM so it can be created before the first result.
  return CreateGroupAt("$");
}

absl::Status RedisResultSource::CreateGroupAt(const std::string& start_id) {
  absl::StatusOr<RedisReply> reply =
      client_.Command({"XGROUP", "CREATE", group_.stream, group_.group, start_id, "MKSTREAM"});
  if (!reply.ok() && absl::StrContains(reply.status().message(), "BUSYGROUP")) {
    return absl::OkStatus();
  }
  return reply.status();
}

absl::StatusOr<RedisReply> RedisResultSource::GroupCommand(const std::vector<std::string>& argv,
                                                           absl::Duration timeout) {
  absl::StatusOr<RedisReply> reply = client_.CommandWithTimeout(argv, timeout);
  if (reply.ok() || !IsNoGroup(reply.status())) return reply;
  // The group existed and is gone: Redis lost the stream (restarted without
  // persistence, or the key was deleted). Everything the stream holds now
  // was written since and never archived, so the group starts at its
  // beginning; an entry handled before only repeats, which changes nothing.
  platform::LogWarn("results consumer group missing: creating it again from the stream's start",
                    {{"stream", group_.stream}, {"group", group_.group}});
  DRAUGHTS_RETURN_IF_ERROR(CreateGroupAt("0"));
  return client_.CommandWithTimeout(argv, timeout);
}

absl::StatusOr<std::vector<ResultEntry>> RedisResultSource::ReadGroup(const std::string& id,
                                                                      int count,
                                                                      absl::Duration block) {
  std::vector<std::string> argv = {"XREADGROUP",    "GROUP", group_.group,
                                   group_.consumer, "COUNT", absl::StrCat(count)};
  absl::Duration timeout = client_.options().command_timeout;
  if (block > absl::ZeroDuration()) {
    // BLOCK 0 would wait for ever; at least 1 ms.
    argv.insert(argv.end(),
                {"BLOCK", absl::StrCat(std::max<int64_t>(1, absl::ToInt64Milliseconds(block)))});
    timeout += block;
  }
  argv.insert(argv.end(), {"STREAMS", group_.stream, id});
  DRAUGHTS_ASSIGN_OR_RETURN(RedisReply reply, GroupCommand(argv, timeout));
  if (reply.is_nil()) return std::vector<ResultEntry>{};  // BLOCK timed out
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> streams, reply.AsArray());
  std::vector<ResultEntry> entries;
  for (const RedisReply& stream : streams) {
    if (stream.type() != RedisReply::Type::kArray || stream.elements().size() != 2) {
      return Malformed("XREADGROUP", reply);
    }
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<ResultEntry> batch, ParseEntries(stream.elements()[1]));
    for (ResultEntry& entry : batch) entries.push_back(std::move(entry));
  }
  return entries;
}

absl::StatusOr<std::vector<ResultEntry>> RedisResultSource::ReadPending(const std::string& after_id,
                                                                        int count) {
  return ReadGroup(after_id.empty() ? "0" : after_id, count, absl::ZeroDuration());
}

absl::StatusOr<std::vector<ResultEntry>> RedisResultSource::ReadNew(int count,
                                                                    absl::Duration block) {
  return ReadGroup(">", count, block);
}

absl::StatusOr<ClaimedEntries> RedisResultSource::ClaimIdle(const std::string& cursor,
                                                            absl::Duration min_idle, int count) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      RedisReply reply,
      GroupCommand({"XAUTOCLAIM", group_.stream, group_.group, group_.consumer,
                    absl::StrCat(absl::ToInt64Milliseconds(min_idle)),
                    cursor.empty() ? "0-0" : cursor, "COUNT", absl::StrCat(count)},
                   client_.options().command_timeout));
  // [next cursor, entries] and, since Redis 7, [ids deleted from the
  // stream while pending], which XAUTOCLAIM has already dropped from the
  // pending list; they are reported as entries without data so the
  // consumer counts them.
  if (reply.type() != RedisReply::Type::kArray || reply.elements().size() < 2) {
    return Malformed("XAUTOCLAIM", reply);
  }
  ClaimedEntries claimed;
  DRAUGHTS_ASSIGN_OR_RETURN(claimed.next_cursor, reply.elements()[0].AsString());
  DRAUGHTS_ASSIGN_OR_RETURN(claimed.entries, ParseEntries(reply.elements()[1]));
  if (reply.elements().size() >= 3) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> deleted, reply.elements()[2].AsArray());
    for (const RedisReply& id : deleted) {
      DRAUGHTS_ASSIGN_OR_RETURN(std::string text, id.AsString());
      claimed.entries.push_back(ResultEntry{std::move(text), std::nullopt, ""});
    }
  }
  return claimed;
}

absl::Status RedisResultSource::Ack(const std::vector<std::string>& ids) {
  if (ids.empty()) return absl::OkStatus();
  std::vector<std::string> argv = {"XACK", group_.stream, group_.group};
  argv.insert(argv.end(), ids.begin(), ids.end());
  return client_.Command(argv).status();
}

absl::StatusOr<GroupBacklog> RedisResultSource::Backlog() {
  DRAUGHTS_ASSIGN_OR_RETURN(RedisReply reply, client_.Command({"XINFO", "GROUPS", group_.stream}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> groups, reply.AsArray());
  for (const RedisReply& group : groups) {
    // A flat [name, value, ...] list per group.
    const std::vector<RedisReply>& fields = group.elements();
    GroupBacklog backlog;
    bool ours = false;
    for (size_t i = 0; i + 1 < fields.size(); i += 2) {
      const std::string& name = fields[i].text();
      const RedisReply& value = fields[i + 1];
      if (name == "name") {
        ours = value.text() == group_.group;
      } else if (name == "pending") {
        DRAUGHTS_ASSIGN_OR_RETURN(backlog.pending, value.AsInteger());
      } else if (name == "lag" && !value.is_nil()) {
        DRAUGHTS_ASSIGN_OR_RETURN(backlog.lag, value.AsInteger());
      }
    }
    if (ours) return backlog;
  }
  return absl::NotFoundError(absl::StrCat("no group ", group_.group, " on stream ", group_.stream));
}

}  // namespace draughts::rating
