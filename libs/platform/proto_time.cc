#include "platform/proto_time.h"

#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"

namespace draughts::platform {

google::protobuf::Timestamp ToProtoTime(absl::Time time) {
  google::protobuf::Timestamp out;
  const int64_t nanos = absl::ToUnixNanos(time);
  out.set_seconds(nanos / 1000000000);
  out.set_nanos(static_cast<int32_t>(nanos % 1000000000));
  if (out.nanos() < 0) {
    out.set_seconds(out.seconds() - 1);
    out.set_nanos(out.nanos() + 1000000000);
  }
  return out;
}

absl::Time FromProtoTime(const google::protobuf::Timestamp& timestamp) {
  return absl::FromUnixSeconds(timestamp.seconds()) + absl::Nanoseconds(timestamp.nanos());
}

absl::Duration FromProtoDuration(const google::protobuf::Duration& duration) {
  return absl::Seconds(duration.seconds()) + absl::Nanoseconds(duration.nanos());
}

google::protobuf::Duration ToProtoDuration(absl::Duration duration) {
  google::protobuf::Duration out;
  const int64_t nanos = absl::ToInt64Nanoseconds(duration);
  out.set_seconds(nanos / 1000000000);  // rounds toward zero: the signs agree
  out.set_nanos(static_cast<int32_t>(nanos % 1000000000));
  return out;
}

absl::StatusOr<absl::Duration> CheckProtoDuration(const google::protobuf::Duration& duration,
                                                  std::string_view field) {
  const int64_t seconds = duration.seconds();
  const int32_t nanos = duration.nanos();
  const bool valid = nanos > -1000000000 && nanos < 1000000000 && !(seconds > 0 && nanos < 0) &&
                     !(seconds < 0 && nanos > 0);
  if (!valid)
    return absl::InvalidArgumentError(absl::StrCat(ToAbsl(field), " is not a valid duration"));
  return FromProtoDuration(duration);
}

}  // namespace draughts::platform
