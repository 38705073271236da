#include "platform/idempotency.h"

#include <gtest/gtest.h>

#include <string>

#include "google/protobuf/duration.pb.h"
#include "google/protobuf/struct.pb.h"

namespace draughts::platform {
namespace {

TEST(IdempotencyKey, AcceptsPlainKeysUpTo64Characters) {
  EXPECT_TRUE(ValidateIdempotencyKey("table:1.game-2_x").ok());
  EXPECT_TRUE(ValidateIdempotencyKey(std::string(64, 'k')).ok());
}

TEST(IdempotencyKey, RefusesEmptyLongOrOddCharacters) {
  for (const std::string& bad : {std::string(), std::string(65, 'k'), std::string("a/b"),
                                 std::string("a b"), std::string("{slot}"), std::string("é")}) {
    absl::Status status = ValidateIdempotencyKey(bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find("idempotency_key"), absl::string_view::npos) << bad;
  }
}

TEST(RequestFingerprint, SameRequestSameDigestWhateverTheMapOrder) {
  google::protobuf::Struct a;
  google::protobuf::Struct b;
  for (int i = 0; i < 20; ++i) {
    (*a.mutable_fields())["k" + std::to_string(i)].set_number_value(i);
    (*b.mutable_fields())["k" + std::to_string(19 - i)].set_number_value(19 - i);
  }
  const std::string digest = RequestFingerprint(a);
  EXPECT_EQ(digest.size(), 32u);
  EXPECT_EQ(RequestFingerprint(b), digest);
}

TEST(RequestFingerprint, AnyFieldChangesTheDigest) {
  google::protobuf::Duration request;
  request.set_seconds(30);
  const std::string first = RequestFingerprint(request);
  request.set_nanos(1);
  EXPECT_NE(RequestFingerprint(request), first);
  // An empty message still has a digest, distinct from a non-empty one's.
  EXPECT_NE(RequestFingerprint(google::protobuf::Duration()), first);
}

}  // namespace
}  // namespace draughts::platform
