// A Redis reply as a plain C++ value: copied out of hiredis's redisReply at
// once, so no raw pointer into hiredis memory ever escapes the client.
#ifndef DRAUGHTS_PLATFORM_REDIS_REPLY_H_
#define DRAUGHTS_PLATFORM_REDIS_REPLY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct redisReply;

namespace draughts::platform {

class RedisReply {
 public:
  enum class Type { kNil, kString, kStatus, kInteger, kArray, kError };

  RedisReply() = default;  // nil
  static RedisReply Nil() { return RedisReply(); }
  static RedisReply String(std::string value);
  static RedisReply Status(std::string value);  // "+OK" style simple strings
  static RedisReply Error(std::string value);   // "-ERR ..." replies
  static RedisReply Integer(int64_t value);
  static RedisReply Array(std::vector<RedisReply> elements);

  // Deep copy of a hiredis reply; nullptr becomes nil.
  static RedisReply FromHiredis(const redisReply* reply);

  Type type() const { return type_; }
  bool is_nil() const { return type_ == Type::kNil; }
  bool is_error() const { return type_ == Type::kError; }

  // Raw fields; meaningful for the matching type, empty otherwise.
  const std::string& text() const { return text_; }  // string, status or error
  int64_t integer() const { return integer_; }
  const std::vector<RedisReply>& elements() const { return elements_; }

  // Checked conversions: a reply of another type is an INTERNAL error that
  // names both types (the data in Redis is not what the code expects).
  absl::StatusOr<std::string> AsString() const;                         // bulk or status string
  absl::StatusOr<std::optional<std::string>> AsOptionalString() const;  // nil -> nullopt
  absl::StatusOr<int64_t> AsInteger() const;                // integer, or a string holding one
  absl::StatusOr<std::vector<RedisReply>> AsArray() const;  // nil array -> empty
  // The reply as a status: OK unless it is an error reply.
  absl::Status ToStatus() const;

  std::string DebugString() const;
  bool operator==(const RedisReply& other) const = default;

 private:
  Type type_ = Type::kNil;
  std::string text_;
  int64_t integer_ = 0;
  std::vector<RedisReply> elements_;
};

std::string_view RedisReplyTypeName(RedisReply::Type type);

// Maps a Redis error reply text to a status. Scripts can choose the code by
// starting their error with a canonical code name, e.g.
// `redis.error_reply("ABORTED stale ply")` -> ABORTED "stale ply". Server
// conditions that clear up by themselves (LOADING, BUSY, READONLY, ...) are
// UNAVAILABLE, OOM is RESOURCE_EXHAUSTED, NOSCRIPT and NOGROUP (a consumer
// group that does not exist) are NOT_FOUND, BUSYGROUP (it exists already) is
// ALREADY_EXISTS, and anything else (ERR, WRONGTYPE, ...) is INTERNAL with
// the full text.
absl::Status RedisErrorToStatus(std::string_view error_text);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_REPLY_H_
