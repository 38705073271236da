#include "platform/redis_reply.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <string>

#include "platform/redis_streams.h"

namespace draughts::platform {
namespace {

using ::testing::HasSubstr;

redisReply Make(int type) {
  redisReply reply{};
  reply.type = type;
  return reply;
}

TEST(RedisReplyTest, CopiesEveryHiredisTypeBinarySafe) {
  std::string binary("a\0b", 3);
  redisReply str = Make(REDIS_REPLY_STRING);
  str.str = binary.data();
  str.len = binary.size();
  redisReply integer = Make(REDIS_REPLY_INTEGER);
  integer.integer = -42;
  redisReply nil = Make(REDIS_REPLY_NIL);
  std::string ok = "OK";
  redisReply status = Make(REDIS_REPLY_STATUS);
  status.str = ok.data();
  status.len = ok.size();
  redisReply* children[] = {&str, &integer, &nil, &status};
  redisReply array = Make(REDIS_REPLY_ARRAY);
  array.element = children;
  array.elements = 4;

  RedisReply converted = RedisReply::FromHiredis(&array);
  ASSERT_EQ(converted.type(), RedisReply::Type::kArray);
  ASSERT_EQ(converted.elements().size(), 4u);
  EXPECT_EQ(converted.elements()[0], RedisReply::String(binary));
  EXPECT_EQ(converted.elements()[0].text().size(), 3u);
  EXPECT_EQ(converted.elements()[1], RedisReply::Integer(-42));
  EXPECT_TRUE(converted.elements()[2].is_nil());
  EXPECT_EQ(converted.elements()[3], RedisReply::Status("OK"));
  EXPECT_TRUE(RedisReply::FromHiredis(nullptr).is_nil());
}

TEST(RedisReplyTest, TooDeepNestingBecomesAnErrorNotAStackOverflow) {
  std::vector<redisReply> levels(100, Make(REDIS_REPLY_ARRAY));
  std::vector<redisReply*> pointers(100);
  for (size_t i = 0; i + 1 < levels.size(); ++i) {
    pointers[i] = &levels[i + 1];
    levels[i].element = &pointers[i];
    levels[i].elements = 1;
  }
  RedisReply converted = RedisReply::FromHiredis(&levels[0]);
  const RedisReply* node = &converted;
  int depth = 0;
  while (node->type() == RedisReply::Type::kArray) {
    node = &node->elements()[0];
    ++depth;
  }
  EXPECT_LT(depth, 100);
  EXPECT_TRUE(node->is_error());
}

TEST(RedisReplyTest, CheckedConversions) {
  EXPECT_EQ(RedisReply::String("x").AsString().value(), "x");
  EXPECT_EQ(RedisReply::Status("OK").AsString().value(), "OK");
  EXPECT_EQ(RedisReply::Integer(5).AsString().status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(RedisReply::Nil().AsOptionalString().value(), std::nullopt);
  EXPECT_EQ(RedisReply::String("v").AsOptionalString().value(), "v");
  EXPECT_EQ(RedisReply::Integer(7).AsInteger().value(), 7);
  EXPECT_EQ(RedisReply::String("12").AsInteger().value(), 12);
  EXPECT_EQ(RedisReply::String("1x").AsInteger().status().code(), absl::StatusCode::kInternal);
  EXPECT_TRUE(RedisReply::Nil().AsArray().value().empty());
  EXPECT_EQ(RedisReply::Array({RedisReply::Integer(1)}).AsArray().value().size(), 1u);
  auto wrong = RedisReply::String("s").AsArray();
  EXPECT_THAT(std::string(wrong.status().message()),
              HasSubstr("redis reply is string, expected array"));
  // An error reply converts to its own status, not to a type mismatch.
  EXPECT_EQ(RedisReply::Error("ABORTED lost").AsString().status(), absl::AbortedError("lost"));
  EXPECT_TRUE(RedisReply::String("fine").ToStatus().ok());
}

TEST(RedisReplyTest, DebugStringEscapesBinary) {
  EXPECT_EQ(RedisReply::String(std::string("a\0\n", 3)).DebugString(), "\"a\\x00\\n\"");
  EXPECT_EQ(RedisReply::Array({RedisReply::Nil(), RedisReply::Integer(3)}).DebugString(),
            "[(nil), (integer) 3]");
}

TEST(RedisErrorToStatusTest, CanonicalCodeNamesFromScriptsChooseTheCode) {
  EXPECT_EQ(RedisErrorToStatus("ABORTED stale ply 17"), absl::AbortedError("stale ply 17"));
  EXPECT_EQ(RedisErrorToStatus("FAILED_PRECONDITION not your turn"),
            absl::FailedPreconditionError("not your turn"));
  EXPECT_EQ(RedisErrorToStatus("NOT_FOUND"), absl::NotFoundError(""));
  EXPECT_EQ(RedisErrorToStatus("PERMISSION_DENIED bad token").code(),
            absl::StatusCode::kPermissionDenied);
  // A code name must be a whole word.
  EXPECT_EQ(RedisErrorToStatus("ABORTEDX y").code(), absl::StatusCode::kInternal);
}

TEST(RedisErrorToStatusTest, ServerConditions) {
  EXPECT_EQ(RedisErrorToStatus("LOADING Redis is loading").code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(RedisErrorToStatus("BUSY script running").code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(RedisErrorToStatus("READONLY replica").code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(RedisErrorToStatus("OOM command not allowed").code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(RedisErrorToStatus("NOSCRIPT No matching script").code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(RedisErrorToStatus("NOGROUP No such key 's' or consumer group 'g'").code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(RedisErrorToStatus("BUSYGROUP Consumer Group name already exists").code(),
            absl::StatusCode::kAlreadyExists);
  absl::Status wrongtype = RedisErrorToStatus("WRONGTYPE Operation against a key");
  EXPECT_EQ(wrongtype.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(wrongtype.message(), "redis: WRONGTYPE Operation against a key");
  EXPECT_EQ(RedisErrorToStatus("ERR syntax error").code(), absl::StatusCode::kInternal);
  EXPECT_EQ(RedisErrorToStatus("").code(), absl::StatusCode::kInternal);
}

TEST(ParseStreamEntryTest, ParsesIdAndFields) {
  RedisReply reply =
      RedisReply::Array({RedisReply::String("1-0"),
                         RedisReply::Array({RedisReply::String("type"), RedisReply::String("move"),
                                            RedisReply::String("ply"), RedisReply::String("3")})});
  auto entry = ParseStreamEntry(reply);
  ASSERT_TRUE(entry.ok()) << entry.status();
  EXPECT_EQ(entry->id, "1-0");
  ASSERT_EQ(entry->fields.size(), 2u);
  EXPECT_EQ(entry->fields[1], std::make_pair(std::string("ply"), std::string("3")));
}

TEST(ParseStreamEntryTest, RejectsMalformedReplies) {
  EXPECT_FALSE(ParseStreamEntry(RedisReply::String("1-0")).ok());
  EXPECT_FALSE(ParseStreamEntry(RedisReply::Array({RedisReply::String("1-0")})).ok());
  EXPECT_FALSE(ParseStreamEntry(RedisReply::Array({RedisReply::String("1-0"),
                                                   RedisReply::Array({RedisReply::String("odd")})}))
                   .ok());
  EXPECT_FALSE(
      ParseStreamEntry(RedisReply::Array({RedisReply::Integer(1), RedisReply::Array({})})).ok());
}

}  // namespace
}  // namespace draughts::platform
