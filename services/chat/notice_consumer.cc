#include "chat/notice_consumer.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/idempotency.h"
#include "platform/logging.h"
#include "platform/status_macros.h"

namespace draughts::chat {
namespace {

platform::StreamConsumerOptions ConsumerOptions(const NoticeGroup& group) {
  platform::StreamConsumerOptions options;
  options.stream = group.stream;
  options.group = group.group;
  options.consumer = group.consumer;
  return options;
}

}  // namespace

v1::ChatMessage NoticeMessage(const v1::ChatNoticeRecord& record) {
  v1::ChatMessage message;
  if (record.table_id().empty()) {
    message.mutable_room()->set_game_id(record.game_id());
  } else {
    message.mutable_room()->set_table_id(record.table_id());
  }
  message.set_role(v1::CHAT_ROLE_SYSTEM);
  message.set_color(record.notice().color());
  message.set_text(record.notice().text());
  message.set_notice_kind(record.notice().kind());
  message.set_game_id(record.game_id());
  return message;
}

std::string NoticeRoomKey(const v1::ChatNoticeRecord& record) {
  return record.table_id().empty() ? absl::StrCat("game/", record.game_id())
                                   : absl::StrCat("table/", record.table_id());
}

std::string NoticePostKey(const v1::ChatNoticeRecord& record) {
  return absl::StrCat(record.game_id(), ".", record.game_version());
}

NoticeConsumer::NoticeConsumer(platform::RedisPool* pool, NoticeGroup group, ChatStore* store,
                               ChatMetrics* metrics, NoticeConsumerOptions options)
    : pool_(pool),
      consumer_(ConsumerOptions(group)),
      store_(store),
      metrics_(metrics),
      options_(options),
      reader_(pool->options()) {}

NoticeConsumer::~NoticeConsumer() {
  Stop();
}

void NoticeConsumer::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Loop(); });
}

void NoticeConsumer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool NoticeConsumer::SleepUnlessStopped(absl::Duration duration) {
  std::unique_lock<std::mutex> lock(mu_);
  wake_.wait_for(lock, absl::ToChronoMilliseconds(duration), [this] { return stopping_; });
  return !stopping_;
}

void NoticeConsumer::Loop() {
  absl::Duration backoff = options_.initial_backoff;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
    }
    const absl::Status step = Step();
    if (step.ok()) {
      backoff = options_.initial_backoff;
      continue;
    }
    // Everything not acknowledged stays pending: read it again first.
    pending_done_ = false;
    platform::LogWarn("chat notices: retrying after a failure",
                      {{"status", step}, {"backoff", absl::FormatDuration(backoff)}});
    if (!SleepUnlessStopped(backoff)) return;
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

absl::Status NoticeConsumer::Step() {
  if (!group_ready_) {
    DRAUGHTS_RETURN_IF_ERROR(consumer_.CreateGroup(reader_));
    group_ready_ = true;
  }
  if (absl::Now() >= next_claim_) {
    next_claim_ =
        absl::Now() + std::clamp(options_.claim_idle / 2, absl::Seconds(1), absl::Seconds(30));
    std::string cursor = "0-0";
    do {
      DRAUGHTS_ASSIGN_OR_RETURN(platform::ClaimedEntries claimed,
                                consumer_.ClaimIdle(reader_, options_.claim_idle, cursor));
      DRAUGHTS_RETURN_IF_ERROR(Handle(claimed.entries));
      cursor = claimed.next_cursor;
    } while (cursor != "0-0");
  }
  if (!pending_done_) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::StreamEntry> mine,
                              consumer_.ReadPending(reader_, options_.batch_size));
    if (mine.empty()) {
      pending_done_ = true;
    } else {
      return Handle(mine);
    }
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::StreamEntry> fresh,
                            consumer_.ReadNew(reader_, options_.batch_size, options_.block));
  return Handle(fresh);
}

absl::Status NoticeConsumer::Handle(const std::vector<platform::StreamEntry>& entries) {
  for (const platform::StreamEntry& entry : entries) {
    const std::string* data = entry.Find("data");
    v1::ChatNoticeRecord record;
    const bool readable = data != nullptr && record.ParseFromString(*data) &&
                          !record.game_id().empty() && record.game_version() > 0;
    if (!readable) {
      // An entry deleted from the stream comes back without fields: nothing
      // to post. Anything else unreadable is reported once and dropped.
      if (!entry.fields.empty()) {
        platform::LogWarn("chat notices: malformed entry acknowledged", {{"id", entry.id}});
        if (metrics_ != nullptr) metrics_->NoticeMalformed();
      }
    } else {
      DRAUGHTS_ASSIGN_OR_RETURN(
          PostRecord posted,
          store_->Post(NoticeRoomKey(record), std::string(kSystemAuthor), NoticePostKey(record),
                       platform::RequestFingerprint(record), NoticeMessage(record)));
      if (metrics_ != nullptr) {
        metrics_->NoticePosted();
        if (posted.appended) metrics_->Posted(v1::CHAT_ROLE_SYSTEM);
      }
    }
    DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
    DRAUGHTS_RETURN_IF_ERROR(consumer_.Ack(*redis, {entry.id}).status());
  }
  return absl::OkStatus();
}

}  // namespace draughts::chat
