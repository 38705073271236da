#include "platform/page_token.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "absl/strings/escaping.h"

namespace draughts::platform {
namespace {

TEST(PageToken, RoundTripsItsFields) {
  const std::string token = EncodePageToken("t1", {"1234", "game_1", ""});
  absl::StatusOr<std::vector<std::string>> fields = DecodePageToken(token, "t1", 3);
  ASSERT_TRUE(fields.ok()) << fields.status();
  EXPECT_EQ(*fields, (std::vector<std::string>{"1234", "game_1", ""}));
  // URL-safe: goes into a query string as it is.
  EXPECT_EQ(token.find_first_of("+/="), std::string::npos);
}

TEST(PageToken, FieldsMayHoldTheSeparator) {
  const std::vector<std::string> odd = {"a|b", "100%", "%7C", "|"};
  absl::StatusOr<std::vector<std::string>> fields =
      DecodePageToken(EncodePageToken("t1", odd), "t1", 4);
  ASSERT_TRUE(fields.ok()) << fields.status();
  EXPECT_EQ(*fields, odd);
}

TEST(PageToken, PlainFieldsKeepTheUnescapedFormat) {
  // Tokens issued before fields were escaped still decode.
  EXPECT_EQ(EncodePageToken("g1", {"5", "x"}), absl::WebSafeBase64Escape("g1|5|x"));
}

TEST(PageToken, RefusesOtherKindsCountsAndDamage) {
  const std::string token = EncodePageToken("t1", {"1", "2"});
  EXPECT_FALSE(DecodePageToken(token, "t2", 2).ok());
  EXPECT_FALSE(DecodePageToken(token, "t1", 3).ok());
  EXPECT_FALSE(DecodePageToken(token, "t1", 1).ok());
  EXPECT_FALSE(DecodePageToken("not base64!", "t1", 2).ok());
  EXPECT_FALSE(DecodePageToken(absl::WebSafeBase64Escape("t1|%zz|2"), "t1", 2).ok());
  EXPECT_FALSE(DecodePageToken(absl::WebSafeBase64Escape("t1|%7|"), "t1", 2).ok());
  absl::StatusOr<std::vector<std::string>> huge =
      DecodePageToken(std::string(kMaxPageTokenSize + 1, 'A'), "t1", 2);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(huge.status().message(), "page_token is malformed");
}

TEST(PageToken, FilterDigestIsShortAndFollowsTheFilters) {
  const std::string digest = PageFilterDigest("english\n0\n");
  EXPECT_EQ(digest.size(), 16u);
  EXPECT_EQ(PageFilterDigest("english\n0\n"), digest);
  EXPECT_NE(PageFilterDigest("english\n1\n"), digest);
  EXPECT_EQ(PageFilterDigest(std::string(100000, 'f')).size(), 16u);
}

TEST(PageToken, IntegersMustBeWholeFields) {
  int64_t value = 0;
  EXPECT_TRUE(ParsePageTokenInt("-42", value));
  EXPECT_EQ(value, -42);
  int small = 0;
  for (const char* bad : {"", "4x", " 4", "+4", "99999999999"}) {
    EXPECT_FALSE(ParsePageTokenInt(bad, small)) << bad;
  }
}

}  // namespace
}  // namespace draughts::platform
