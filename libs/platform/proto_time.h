// google.protobuf.Timestamp / Duration <-> absl::Time / Duration. Every
// service keeps times as absl values inside and converts only at its proto
// edge, so the rounding and the validity rules are the same everywhere.
#ifndef DRAUGHTS_PLATFORM_PROTO_TIME_H_
#define DRAUGHTS_PLATFORM_PROTO_TIME_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/timestamp.pb.h"

namespace draughts::platform {

// Nanosecond precision; times before 1970 keep nanos in [0, 1e9) as the
// Timestamp comment requires.
google::protobuf::Timestamp ToProtoTime(absl::Time time);
absl::Time FromProtoTime(const google::protobuf::Timestamp& timestamp);

// Trusts `duration` to be valid (stored or self-made values); check what a
// client sent with CheckProtoDuration first.
absl::Duration FromProtoDuration(const google::protobuf::Duration& duration);

// Nanosecond precision; seconds and nanos share the sign, as Duration's
// comment requires.
google::protobuf::Duration ToProtoDuration(absl::Duration duration);

// A client's Duration: INVALID_ARGUMENT ("<field> is not a valid
// duration") when nanos is out of range or its sign differs from seconds',
// which FromProtoDuration would otherwise turn into a plausible but wrong
// value.
absl::StatusOr<absl::Duration> CheckProtoDuration(const google::protobuf::Duration& duration,
                                                  std::string_view field);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_PROTO_TIME_H_
