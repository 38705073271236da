#include "platform/secret_tokens.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace draughts::platform {
namespace {

TEST(RandomUrlSafeString, LengthAlphabetAndFreshness) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string s = RandomUrlSafeString(24);
    EXPECT_EQ(s.size(), 32u);
    EXPECT_EQ(
        s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
        std::string::npos)
        << s;
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(RandomUrlSafeString(1).size(), 2u);  // no padding
  EXPECT_EQ(RandomUrlSafeString(0), "");
}

TEST(SecretHash, MatchesOnlyItsSecret) {
  const std::string secret = RandomUrlSafeString(24);
  const std::string hash = HashSecret(secret);
  EXPECT_EQ(hash.size(), 32u);
  EXPECT_EQ(hash.find(secret), std::string::npos);
  EXPECT_TRUE(SecretMatchesHash(secret, hash));
  EXPECT_FALSE(SecretMatchesHash(secret + "x", hash));
  EXPECT_FALSE(SecretMatchesHash("", hash));
  EXPECT_FALSE(SecretMatchesHash(secret, ""));
  EXPECT_FALSE(SecretMatchesHash(secret, hash.substr(1)));
}

TEST(SecretBox, OpensOnlyWithTheSameSecretAndContext) {
  absl::StatusOr<SecretBox> a = SecretBox::FromSecret("a shared secret for replicas", "seats v1");
  absl::StatusOr<SecretBox> same =
      SecretBox::FromSecret("a shared secret for replicas", "seats v1");
  absl::StatusOr<SecretBox> other_secret =
      SecretBox::FromSecret("another secret entirely!!", "seats v1");
  absl::StatusOr<SecretBox> other_context =
      SecretBox::FromSecret("a shared secret for replicas", "invites v1");
  ASSERT_TRUE(a.ok() && same.ok() && other_secret.ok() && other_context.ok());
  const std::string box = a->Seal("seat-token");
  EXPECT_EQ(box.size(), SecretBox::kOverhead + 10);
  EXPECT_EQ(box.find("seat-token"), std::string::npos);
  EXPECT_NE(a->Seal("seat-token"), box);  // a fresh nonce each time
  absl::StatusOr<std::string> opened = same->Open(box);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(*opened, "seat-token");
  EXPECT_EQ(other_secret->Open(box).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(other_context->Open(box).status().code(), absl::StatusCode::kFailedPrecondition);
  std::string damaged = box;
  damaged.back() ^= 1;
  EXPECT_FALSE(a->Open(damaged).ok());
  EXPECT_FALSE(a->Open(box.substr(0, SecretBox::kOverhead - 1)).ok());
  EXPECT_FALSE(SecretBox::Ephemeral().Open(box).ok());
  EXPECT_EQ(SecretBox::FromSecret("too short", "x").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace draughts::platform
