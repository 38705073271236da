#include "platform/proto_time.h"

#include <gtest/gtest.h>

namespace draughts::platform {
namespace {

TEST(ProtoTime, RoundTripsToTheNanosecond) {
  const absl::Time t = absl::FromUnixNanos(1700000000123456789);
  google::protobuf::Timestamp proto = ToProtoTime(t);
  EXPECT_EQ(proto.seconds(), 1700000000);
  EXPECT_EQ(proto.nanos(), 123456789);
  EXPECT_EQ(FromProtoTime(proto), t);
}

TEST(ProtoTime, BeforeTheEpochNanosStayPositive) {
  const absl::Time t = absl::FromUnixNanos(-1500000000);  // 1.5 s before 1970
  google::protobuf::Timestamp proto = ToProtoTime(t);
  EXPECT_EQ(proto.seconds(), -2);
  EXPECT_EQ(proto.nanos(), 500000000);
  EXPECT_EQ(FromProtoTime(proto), t);
}

google::protobuf::Duration MakeDuration(int64_t seconds, int32_t nanos) {
  google::protobuf::Duration d;
  d.set_seconds(seconds);
  d.set_nanos(nanos);
  return d;
}

TEST(ProtoDuration, ValidValuesConvert) {
  EXPECT_EQ(FromProtoDuration(MakeDuration(30, 500000000)), absl::Milliseconds(30500));
  absl::StatusOr<absl::Duration> negative = CheckProtoDuration(MakeDuration(-1, -500000000), "d");
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(*negative, absl::Milliseconds(-1500));
  absl::StatusOr<absl::Duration> zero = CheckProtoDuration({}, "d");
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(*zero, absl::ZeroDuration());
}

TEST(ProtoDuration, InvalidValuesNameTheField) {
  for (const google::protobuf::Duration& bad :
       {MakeDuration(0, 1000000000), MakeDuration(0, -1000000000), MakeDuration(1, -1),
        MakeDuration(-1, 1)}) {
    absl::StatusOr<absl::Duration> checked = CheckProtoDuration(bad, "time_per_move");
    ASSERT_FALSE(checked.ok()) << bad.ShortDebugString();
    EXPECT_EQ(checked.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(checked.status().message(), "time_per_move is not a valid duration");
  }
}

TEST(ProtoDuration, MadeWithTheSignInBothParts) {
  google::protobuf::Duration positive = ToProtoDuration(absl::Milliseconds(1250));
  EXPECT_EQ(positive.seconds(), 1);
  EXPECT_EQ(positive.nanos(), 250000000);
  google::protobuf::Duration negative = ToProtoDuration(-absl::Milliseconds(1250));
  EXPECT_EQ(negative.seconds(), -1);
  EXPECT_EQ(negative.nanos(), -250000000);
  EXPECT_TRUE(CheckProtoDuration(negative, "d").ok());
  for (absl::Duration d : {absl::Nanoseconds(7), -absl::Nanoseconds(7), absl::Hours(30)}) {
    EXPECT_EQ(FromProtoDuration(ToProtoDuration(d)), d);
  }
}

}  // namespace
}  // namespace draughts::platform
