#include "platform/event_id.h"

#include <gtest/gtest.h>

namespace draughts::platform {
namespace {

TEST(EventIds, OrderAsNumbersNotAsText) {
  absl::StatusOr<EventId> small = ParseEventId("1700000000000-9");
  absl::StatusOr<EventId> large = ParseEventId("1700000000000-10");
  absl::StatusOr<EventId> later = ParseEventId("1700000000001-0");
  ASSERT_TRUE(small.ok() && large.ok() && later.ok());
  EXPECT_LT(*small, *large);  // as text "...-9" > "...-10"
  EXPECT_LT(*large, *later);
  EXPECT_LT(EventId{}, *small);
}

TEST(EventIds, FormatRoundTrips) {
  for (const char* text :
       {"0-0", "1700000000000-10", "18446744073709551615-18446744073709551615"}) {
    absl::StatusOr<EventId> id = ParseEventId(text);
    ASSERT_TRUE(id.ok()) << text;
    EXPECT_EQ(FormatEventId(*id), text);
  }
}

TEST(EventIds, RefuseMalformedWithAShortMessage) {
  for (const char* bad : {"", "12", "a-1", "1-", "-1", "1-2-3", "1--2", "+1-2", " 1-2",
                          "99999999999999999999999-0", "18446744073709551616-0"}) {
    absl::StatusOr<EventId> id = ParseEventId(bad);
    EXPECT_EQ(id.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  const std::string huge(10000, '7');
  absl::StatusOr<EventId> id = ParseEventId(huge);
  ASSERT_FALSE(id.ok());
  EXPECT_LT(id.status().message().size(), 200u);
}

TEST(EventIds, AResumePointIsOptionalAndAMalformedOneNamesItsField) {
  absl::StatusOr<std::optional<EventId>> none = ParseResumePoint("from_event_id", "");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());
  absl::StatusOr<std::optional<EventId>> some = ParseResumePoint("from_event_id", "5-10");
  ASSERT_TRUE(some.ok()) << some.status();
  ASSERT_TRUE(some->has_value());
  EXPECT_EQ(**some, (EventId{5, 10}));
  absl::StatusOr<std::optional<EventId>> bad = ParseResumePoint("from_message_id", "5-x");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message().substr(0, 17), "from_message_id: ");
}

}  // namespace
}  // namespace draughts::platform
