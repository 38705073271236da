#include "matchmaking/table_password.h"

#include <gtest/gtest.h>

#include "absl/strings/match.h"

namespace draughts::matchmaking {
namespace {

// The smallest Argon2id memory libsodium accepts keeps the test fast.
PasswordHasher Cheap() {
  return PasswordHasher(1, 8 * 1024);
}

TEST(PasswordHasher, HashesWithArgon2idAndSalt) {
  PasswordHasher hasher = Cheap();
  absl::StatusOr<std::string> first = hasher.Hash("correct horse");
  absl::StatusOr<std::string> second = hasher.Hash("correct horse");
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_TRUE(absl::StartsWith(*first, "$argon2id$")) << *first;
  EXPECT_FALSE(absl::StrContains(*first, "correct horse"));
  EXPECT_NE(*first, *second) << "salted";
  EXPECT_TRUE(hasher.Verify(*first, "correct horse"));
  EXPECT_TRUE(hasher.Verify(*second, "correct horse"));
  EXPECT_FALSE(hasher.Verify(*first, "correct horsE"));
  EXPECT_FALSE(hasher.Verify(*first, ""));
}

TEST(PasswordHasher, BadHashesNeverMatch) {
  PasswordHasher hasher = Cheap();
  EXPECT_FALSE(hasher.Verify("", ""));
  EXPECT_FALSE(hasher.Verify("$argon2id$garbage", "x"));
  EXPECT_FALSE(hasher.Verify(std::string(1000, 'a'), "x"));
  hasher.VerifyNothing("anything");  // spends the time, matches nothing
}

}  // namespace
}  // namespace draughts::matchmaking
