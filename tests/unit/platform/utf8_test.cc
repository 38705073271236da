#include "platform/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace draughts::platform {
namespace {

TEST(CountCodePoints, CountsCharactersNotBytes) {
  EXPECT_EQ(CountCodePoints(""), 0u);
  EXPECT_EQ(CountCodePoints("Anna"), 4u);
  EXPECT_EQ(CountCodePoints("Ёжик"), 4u);              // 2-byte letters
  EXPECT_EQ(CountCodePoints("棋手"), 2u);              // 3 bytes each
  EXPECT_EQ(CountCodePoints("\xF0\x9F\x98\x80"), 1u);  // an emoji, 4 bytes
  EXPECT_EQ(CountCodePoints(std::string("a\0b", 3)), 3u);
}

TEST(CountCodePoints, RefusesBrokenUtf8) {
  for (const std::string& bad : {std::string("\x80"), std::string("a\xC3"), std::string("\xE6\xA3"),
                                 std::string("\xC3(") /* continuation missing */,
                                 std::string("\xF8\x88\x80\x80\x80"), std::string("ok\xFF")}) {
    EXPECT_FALSE(CountCodePoints(bad).has_value());
  }
}

}  // namespace
}  // namespace draughts::platform
