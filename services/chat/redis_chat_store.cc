#include "chat/redis_chat_store.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "chat/lua_scripts.h"
#include "platform/proto_time.h"
#include "platform/redis_streams.h"
#include "platform/secret_tokens.h"
#include "platform/status_macros.h"

namespace draughts::chat {
namespace {

int64_t Millis(absl::Duration duration) {
  return absl::ToInt64Milliseconds(duration);
}

// A record as post_message.lua writes it: fingerprint, id, "\n", message.
absl::StatusOr<PostRecord> ParseRecord(const std::string& record, std::size_t fingerprint_size) {
  const std::size_t newline = record.find('\n', fingerprint_size);
  if (record.size() < fingerprint_size || newline == std::string::npos) {
    return absl::InternalError("a chat post record is malformed");
  }
  platform::StreamEntry entry;
  entry.id = record.substr(fingerprint_size, newline - fingerprint_size);
  entry.fields.emplace_back("data", record.substr(newline + 1));
  PostRecord parsed;
  parsed.fingerprint = record.substr(0, fingerprint_size);
  DRAUGHTS_ASSIGN_OR_RETURN(parsed.message, MessageFromEntry(entry));
  return parsed;
}

// post_message.lua publishes on this channel: the feed reads only the
// rooms that moved.
platform::StreamFeedOptions WithChannel(platform::StreamFeedOptions options,
                                        const RedisChatKeys& keys) {
  if (options.change_channel.empty()) options.change_channel = keys.MessagesChanged();
  return options;
}

}  // namespace

std::string RedisChatKeys::MessagesChanged() const {
  return absl::StrCat(prefix, "chat-messages-changed");
}

std::string RedisChatKeys::Messages(const std::string& room_key) const {
  return absl::StrCat(prefix, "chat:{", room_key, "}:messages");
}

std::string RedisChatKeys::Post(const std::string& room_key, const std::string& author,
                                const std::string& key) const {
  return absl::StrCat(prefix, "chat:{", room_key, "}:post:", author, ":", key);
}

std::string RedisChatKeys::RecentPosts(const std::string& author) const {
  return absl::StrCat(prefix, "chat-author:{", author, "}:recent");
}

absl::StatusOr<v1::ChatMessage> MessageFromEntry(const platform::StreamEntry& entry) {
  const std::string* data = entry.Find("data");
  v1::ChatMessage message;
  if (data == nullptr || !message.ParseFromString(*data)) {
    return absl::InternalError(absl::StrCat("chat message ", entry.id, " does not parse"));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(platform::EventId id, platform::ParseEventId(entry.id));
  message.set_message_id(entry.id);
  *message.mutable_sent_at() =
      platform::ToProtoTime(absl::FromUnixMillis(static_cast<int64_t>(id.ms)));
  return message;
}

RedisChatStore::RedisChatStore(platform::RedisPool* pool, platform::RedisOptions tail_options,
                               RedisChatKeys keys, ChatLimits limits,
                               platform::StreamFeedOptions feed_options)
    : pool_(pool),
      keys_(std::move(keys)),
      limits_(limits),
      post_script_(std::string(lua::kPostMessageLua)),
      count_script_(std::string(lua::kCountPostLua)),
      feed_(pool, std::move(tail_options), WithChannel(std::move(feed_options), keys_)) {}

absl::StatusOr<std::optional<PostRecord>> RedisChatStore::FindPost(const std::string& room_key,
                                                                   const std::string& author,
                                                                   const std::string& key) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            redis->Command({"GET", keys_.Post(room_key, author, key)}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> record, reply.AsOptionalString());
  if (!record.has_value()) return std::nullopt;
  // Fingerprints are fixed-size digests (platform::RequestFingerprint).
  DRAUGHTS_ASSIGN_OR_RETURN(PostRecord parsed, ParseRecord(*record, 32));
  return parsed;
}

absl::Status RedisChatStore::CountPost(const std::string& author) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            platform::EvalScript(*redis, count_script_, {keys_.RecentPosts(author)},
                                                 {absl::StrCat(limits_.posts_per_window),
                                                  absl::StrCat(Millis(limits_.rate_window)),
                                                  platform::RandomUrlSafeString(12)}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> parts, reply.AsArray());
  if (parts.size() != 2) return absl::InternalError("count_post.lua answered oddly");
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t counted, parts[0].AsInteger());
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t wait_ms, parts[1].AsInteger());
  if (counted == 1) return absl::OkStatus();
  const int64_t wait_seconds = std::max<int64_t>(1, (wait_ms + 999) / 1000);
  return absl::ResourceExhaustedError(absl::StrCat(
      "too many messages: at most ", limits_.posts_per_window, " per ",
      absl::FormatDuration(limits_.rate_window), "; wait ", wait_seconds, " s and retry"));
}

absl::StatusOr<PostRecord> RedisChatStore::Post(const std::string& room_key,
                                                const std::string& author, const std::string& key,
                                                const std::string& fingerprint,
                                                const v1::ChatMessage& message) {
  if (fingerprint.size() != 32) return absl::InternalError("fingerprints are 32 bytes");
  v1::ChatMessage stored = message;
  stored.clear_message_id();
  stored.clear_sent_at();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply reply,
      platform::EvalScript(
          *redis, post_script_, {keys_.Messages(room_key), keys_.Post(room_key, author, key)},
          {fingerprint, stored.SerializeAsString(), absl::StrCat(limits_.room_history),
           absl::StrCat(Millis(limits_.room_lifetime)), absl::StrCat(Millis(limits_.key_lifetime)),
           keys_.MessagesChanged()}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> parts, reply.AsArray());
  if (parts.size() != 2) return absl::InternalError("post_message.lua answered oddly");
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t appended, parts[0].AsInteger());
  DRAUGHTS_ASSIGN_OR_RETURN(std::string record, parts[1].AsString());
  DRAUGHTS_ASSIGN_OR_RETURN(PostRecord parsed, ParseRecord(record, fingerprint.size()));
  parsed.appended = appended == 1;
  return parsed;
}

absl::StatusOr<std::vector<v1::ChatMessage>> RedisChatStore::ListNewestFirst(
    const std::string& room_key, std::optional<platform::EventId> before, int count) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const std::string end =
      before.has_value() ? absl::StrCat("(", platform::FormatEventId(*before)) : "+";
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            redis->Command({"XREVRANGE", keys_.Messages(room_key), end, "-",
                                            "COUNT", absl::StrCat(count)}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::StreamEntry> entries,
                            platform::ParseStreamEntries(reply));
  std::vector<v1::ChatMessage> messages;
  messages.reserve(entries.size());
  for (const platform::StreamEntry& entry : entries) {
    DRAUGHTS_ASSIGN_OR_RETURN(v1::ChatMessage message, MessageFromEntry(entry));
    messages.push_back(std::move(message));
  }
  return messages;
}

absl::StatusOr<std::unique_ptr<MessageSubscription>> RedisChatStore::Subscribe(
    const std::string& room_key, std::optional<platform::EventId> after) {
  const std::string key = keys_.Messages(room_key);
  DRAUGHTS_ASSIGN_OR_RETURN(platform::StreamEnds ends, feed_.ReadEnds(key));
  const platform::EventId newest = ends.LastId();
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<platform::StreamSubscription> entries,
                            feed_.Subscribe(key, after.value_or(newest), newest));
  return std::make_unique<platform::EntryFeed<v1::ChatMessage>>(
      std::move(entries), [](platform::StreamEntry entry) { return MessageFromEntry(entry); });
}

}  // namespace draughts::chat
