#include "platform/redis_reply.h"

#include <hiredis/hiredis.h>

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "platform/absl_compat.h"

namespace draughts::platform {
namespace {

// Deeper nesting than any command we use returns; guards the recursion
// against a hostile or broken server.
constexpr int kMaxDepth = 32;

RedisReply Convert(const redisReply* reply, int depth) {
  if (reply == nullptr) return RedisReply::Nil();
  switch (reply->type) {
    case REDIS_REPLY_STRING:
      return RedisReply::String(std::string(reply->str, reply->len));
    case REDIS_REPLY_STATUS:
      return RedisReply::Status(std::string(reply->str, reply->len));
    case REDIS_REPLY_ERROR:
      return RedisReply::Error(std::string(reply->str, reply->len));
    case REDIS_REPLY_INTEGER:
      return RedisReply::Integer(reply->integer);
    case REDIS_REPLY_ARRAY: {
      if (depth >= kMaxDepth) return RedisReply::Error("ERR reply nested too deeply");
      std::vector<RedisReply> elements;
      elements.reserve(reply->elements);
      for (size_t i = 0; i < reply->elements; ++i) {
        elements.push_back(Convert(reply->element[i], depth + 1));
      }
      return RedisReply::Array(std::move(elements));
    }
    case REDIS_REPLY_NIL:
    default:
      return RedisReply::Nil();
  }
}

absl::Status WrongType(const RedisReply& reply, std::string_view wanted) {
  if (reply.is_error()) return RedisErrorToStatus(reply.text());
  return absl::InternalError(absl::StrCat("redis reply is ",
                                          ToAbsl(RedisReplyTypeName(reply.type())), ", expected ",
                                          ToAbsl(wanted), ": ", reply.DebugString()));
}

bool StartsWithWord(std::string_view text, std::string_view word) {
  return text.size() >= word.size() && text.substr(0, word.size()) == word &&
         (text.size() == word.size() || text[word.size()] == ' ');
}

}  // namespace

RedisReply RedisReply::String(std::string value) {
  RedisReply reply;
  reply.type_ = Type::kString;
  reply.text_ = std::move(value);
  return reply;
}

RedisReply RedisReply::Status(std::string value) {
  RedisReply reply;
  reply.type_ = Type::kStatus;
  reply.text_ = std::move(value);
  return reply;
}

RedisReply RedisReply::Error(std::string value) {
  RedisReply reply;
  reply.type_ = Type::kError;
  reply.text_ = std::move(value);
  return reply;
}

RedisReply RedisReply::Integer(int64_t value) {
  RedisReply reply;
  reply.type_ = Type::kInteger;
  reply.integer_ = value;
  return reply;
}

RedisReply RedisReply::Array(std::vector<RedisReply> elements) {
  RedisReply reply;
  reply.type_ = Type::kArray;
  reply.elements_ = std::move(elements);
  return reply;
}

RedisReply RedisReply::FromHiredis(const redisReply* reply) {
  return Convert(reply, 0);
}

absl::StatusOr<std::string> RedisReply::AsString() const {
  if (type_ == Type::kString || type_ == Type::kStatus) return text_;
  return WrongType(*this, "string");
}

absl::StatusOr<std::optional<std::string>> RedisReply::AsOptionalString() const {
  if (type_ == Type::kNil) return std::optional<std::string>();
  if (type_ == Type::kString || type_ == Type::kStatus) return std::optional<std::string>(text_);
  return WrongType(*this, "string or nil");
}

absl::StatusOr<int64_t> RedisReply::AsInteger() const {
  if (type_ == Type::kInteger) return integer_;
  int64_t value = 0;
  if (type_ == Type::kString && absl::SimpleAtoi(text_, &value)) return value;
  return WrongType(*this, "integer");
}

absl::StatusOr<std::vector<RedisReply>> RedisReply::AsArray() const {
  if (type_ == Type::kArray) return elements_;
  if (type_ == Type::kNil) return std::vector<RedisReply>();
  return WrongType(*this, "array");
}

absl::Status RedisReply::ToStatus() const {
  if (type_ == Type::kError) return RedisErrorToStatus(text_);
  return absl::OkStatus();
}

std::string RedisReply::DebugString() const {
  switch (type_) {
    case Type::kNil:
      return "(nil)";
    case Type::kString:
      return absl::StrCat("\"", absl::CHexEscape(text_), "\"");
    case Type::kStatus:
      return text_;
    case Type::kError:
      return absl::StrCat("(error) ", text_);
    case Type::kInteger:
      return absl::StrCat("(integer) ", integer_);
    case Type::kArray: {
      std::vector<std::string> parts;
      for (const RedisReply& element : elements_) parts.push_back(element.DebugString());
      return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
    }
  }
  return "?";
}

std::string_view RedisReplyTypeName(RedisReply::Type type) {
  switch (type) {
    case RedisReply::Type::kNil:
      return "nil";
    case RedisReply::Type::kString:
      return "string";
    case RedisReply::Type::kStatus:
      return "status";
    case RedisReply::Type::kInteger:
      return "integer";
    case RedisReply::Type::kArray:
      return "array";
    case RedisReply::Type::kError:
      return "error";
  }
  return "?";
}

absl::Status RedisErrorToStatus(std::string_view error_text) {
  struct Prefix {
    std::string_view word;
    absl::StatusCode code;
    bool strip;  // canonical code names are a protocol with our scripts: drop them
  };
  static constexpr Prefix kPrefixes[] = {
      {"CANCELLED", absl::StatusCode::kCancelled, true},
      {"UNKNOWN", absl::StatusCode::kUnknown, true},
      {"INVALID_ARGUMENT", absl::StatusCode::kInvalidArgument, true},
      {"DEADLINE_EXCEEDED", absl::StatusCode::kDeadlineExceeded, true},
      {"NOT_FOUND", absl::StatusCode::kNotFound, true},
      {"ALREADY_EXISTS", absl::StatusCode::kAlreadyExists, true},
      {"PERMISSION_DENIED", absl::StatusCode::kPermissionDenied, true},
      {"RESOURCE_EXHAUSTED", absl::StatusCode::kResourceExhausted, true},
      {"FAILED_PRECONDITION", absl::StatusCode::kFailedPrecondition, true},
      {"ABORTED", absl::StatusCode::kAborted, true},
      {"OUT_OF_RANGE", absl::StatusCode::kOutOfRange, true},
      {"UNIMPLEMENTED", absl::StatusCode::kUnimplemented, true},
      {"INTERNAL", absl::StatusCode::kInternal, true},
      {"UNAVAILABLE", absl::StatusCode::kUnavailable, true},
      {"DATA_LOSS", absl::StatusCode::kDataLoss, true},
      {"UNAUTHENTICATED", absl::StatusCode::kUnauthenticated, true},
      {"NOSCRIPT", absl::StatusCode::kNotFound, false},
      {"NOGROUP", absl::StatusCode::kNotFound, false},
      {"BUSYGROUP", absl::StatusCode::kAlreadyExists, false},
      {"LOADING", absl::StatusCode::kUnavailable, false},
      {"BUSY", absl::StatusCode::kUnavailable, false},
      {"MASTERDOWN", absl::StatusCode::kUnavailable, false},
      {"READONLY", absl::StatusCode::kUnavailable, false},
      {"TRYAGAIN", absl::StatusCode::kUnavailable, false},
      {"CLUSTERDOWN", absl::StatusCode::kUnavailable, false},
      {"OOM", absl::StatusCode::kResourceExhausted, false},
      {"EXECABORT", absl::StatusCode::kAborted, false},
  };
  for (const Prefix& prefix : kPrefixes) {
    if (!StartsWithWord(error_text, prefix.word)) continue;
    if (prefix.strip) {
      std::string_view rest = error_text.substr(prefix.word.size());
      if (!rest.empty()) rest.remove_prefix(1);
      return absl::Status(prefix.code, ToAbsl(rest));
    }
    return absl::Status(prefix.code, absl::StrCat("redis: ", ToAbsl(error_text)));
  }
  return absl::InternalError(absl::StrCat("redis: ", ToAbsl(error_text)));
}

}  // namespace draughts::platform
