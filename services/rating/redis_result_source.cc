#include "rating/redis_result_source.h"

#include <algorithm>
#include <utility>

#include "platform/redis_streams.h"
#include "platform/status_macros.h"

namespace draughts::rating {
namespace {

platform::StreamConsumerOptions ConsumerOptions(const ResultGroup& group, std::string start_id) {
  return {.stream = group.stream,
          .group = group.group,
          .consumer = group.consumer,
          .start_id = std::move(start_id)};
}

// An entry deleted from the stream while pending comes without fields, so
// without data: the consumer counts it as malformed and acknowledges it.
ResultEntry ToResultEntry(const platform::StreamEntry& entry) {
  ResultEntry out;
  out.id = entry.id;
  if (const std::string* data = entry.Find("data")) out.data = *data;
  if (const std::string* game_id = entry.Find("game_id")) out.game_id = *game_id;
  return out;
}

std::vector<ResultEntry> ToResultEntries(const std::vector<platform::StreamEntry>& entries) {
  std::vector<ResultEntry> out;
  out.reserve(entries.size());
  for (const platform::StreamEntry& entry : entries) out.push_back(ToResultEntry(entry));
  return out;
}

}  // namespace

RedisResultSource::RedisResultSource(platform::RedisOptions options, const ResultGroup& group)
    : client_(std::move(options)),
      from_now_(ConsumerOptions(group, "$")),
      from_start_(ConsumerOptions(group, "0")) {}

absl::Status RedisResultSource::CreateGroup() {
  return from_now_.CreateGroup(client_);
}

absl::StatusOr<std::vector<ResultEntry>> RedisResultSource::ReadPending(const std::string& after_id,
                                                                        int count) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::StreamEntry> entries,
      from_start_.ReadPending(client_, count, after_id.empty() ? "0" : after_id));
  return ToResultEntries(entries);
}

absl::StatusOr<std::vector<ResultEntry>> RedisResultSource::ReadNew(int count,
                                                                    absl::Duration block) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::StreamEntry> entries,
      from_start_.ReadNew(client_, count, std::max(block, absl::ZeroDuration())));
  return ToResultEntries(entries);
}

absl::StatusOr<ClaimedEntries> RedisResultSource::ClaimIdle(const std::string& cursor,
                                                            absl::Duration min_idle, int count) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::ClaimedEntries claimed,
      from_start_.ClaimIdle(client_, min_idle, cursor.empty() ? "0-0" : cursor, count));
  ClaimedEntries out;
  out.next_cursor = std::move(claimed.next_cursor);
  out.entries = ToResultEntries(claimed.entries);
  // Redis 7 has already dropped these from the pending list; they come as
  // entries without data so the consumer counts them.
  for (std::string& id : claimed.deleted_ids) {
    out.entries.push_back(ResultEntry{std::move(id), std::nullopt, ""});
  }
  return out;
}

absl::Status RedisResultSource::Ack(const std::vector<std::string>& ids) {
  return from_start_.Ack(client_, ids).status();
}

absl::StatusOr<GroupBacklog> RedisResultSource::Backlog() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::ConsumerGroupInfo info, from_start_.Info(client_));
  return GroupBacklog{.pending = info.pending, .lag = info.lag};
}

}  // namespace draughts::rating
