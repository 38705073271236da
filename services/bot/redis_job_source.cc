#include "bot/redis_job_source.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "platform/redis_streams.h"
#include "platform/status_macros.h"

namespace draughts::bot {
namespace {

platform::StreamConsumerOptions ConsumerOptions(const JobGroup& group, std::string start_id) {
  return {.stream = group.stream,
          .group = group.group,
          .consumer = group.consumer,
          .start_id = std::move(start_id)};
}

std::vector<JobEntry> ToJobs(const std::vector<platform::StreamEntry>& entries) {
  std::vector<JobEntry> jobs;
  jobs.reserve(entries.size());
  for (const platform::StreamEntry& entry : entries) {
    JobEntry& job = jobs.emplace_back();
    job.id = entry.id;
    if (const std::string* data = entry.Find("data")) job.data = *data;
  }
  return jobs;
}

}  // namespace

std::optional<absl::Time> EntryTime(const std::string& id) {
  const std::size_t dash = id.find('-');
  int64_t ms = 0;
  if (!absl::SimpleAtoi(id.substr(0, dash), &ms)) return std::nullopt;
  return absl::FromUnixMillis(ms);
}

RedisJobSource::RedisJobSource(platform::RedisPool* pool, const JobGroup& group)
    : pool_(pool),
      reader_(pool->options()),
      stream_(group.stream),
      from_now_(ConsumerOptions(group, "$")),
      from_start_(ConsumerOptions(group, "0")) {}

absl::Status RedisJobSource::CreateGroup() {
  return from_now_.CreateGroup(reader_);
}

absl::StatusOr<std::vector<JobEntry>> RedisJobSource::ReadPending(const std::string& after_id,
                                                                  int count) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::StreamEntry> entries,
      from_start_.ReadPending(reader_, count, after_id.empty() ? "0" : after_id));
  return ToJobs(entries);
}

absl::StatusOr<std::vector<JobEntry>> RedisJobSource::ReadNew(int count, absl::Duration block) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::StreamEntry> entries,
      from_start_.ReadNew(reader_, count, std::max(block, absl::ZeroDuration())));
  return ToJobs(entries);
}

absl::StatusOr<ClaimedJobs> RedisJobSource::ClaimIdle(const std::string& cursor,
                                                      absl::Duration min_idle, int count) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::ClaimedEntries claimed,
      from_start_.ClaimIdle(reader_, min_idle, cursor.empty() ? "0-0" : cursor, count));
  ClaimedJobs out;
  out.next_cursor = std::move(claimed.next_cursor);
  out.entries = ToJobs(claimed.entries);
  return out;
}

absl::Status RedisJobSource::Ack(const std::vector<std::string>& ids) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  return from_start_.Ack(*redis, ids).status();
}

absl::StatusOr<QueueBacklog> RedisJobSource::Backlog() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::ConsumerGroupInfo info, from_start_.Info(*redis));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::PendingSummary pending, from_start_.Pending(*redis));
  QueueBacklog backlog{.pending = info.pending, .lag = info.lag, .oldest_age = {}};
  std::optional<absl::Time> oldest;
  if (pending.count > 0) oldest = EntryTime(pending.min_id);
  if (!oldest.has_value() || info.lag.value_or(1) > 0) {
    // The first job not yet delivered is older than every pending one only
    // when nothing is pending; look at it either way, it is one XRANGE.
    DRAUGHTS_ASSIGN_OR_RETURN(
        std::vector<platform::StreamEntry> next,
        platform::StreamRange(*redis, stream_, absl::StrCat("(", info.last_delivered_id), "+", 1));
    if (!next.empty()) {
      std::optional<absl::Time> undelivered = EntryTime(next.front().id);
      if (undelivered.has_value() && (!oldest.has_value() || *undelivered < *oldest)) {
        oldest = undelivered;
      }
    }
  }
  if (oldest.has_value())
    backlog.oldest_age = std::max(absl::ZeroDuration(), absl::Now() - *oldest);
  return backlog;
}

}  // namespace draughts::bot
