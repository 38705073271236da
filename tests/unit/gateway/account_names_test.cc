// Account names, their normal form, passwords, the Origin check and the
// Argon2id hasher (libsodium, with small work factors).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gateway/account_handlers.h"
#include "gateway/account_names.h"
#include "gateway/password_hasher.h"
#include "gateway/session_store.h"

namespace draughts::gateway {
namespace {

TEST(AccountNameTest, AcceptsTheDocumentedAlphabetAndLengths) {
  for (const std::string name : {"abc", "Anna_B", "x-1", "12345678901234567890", "Zz9"}) {
    EXPECT_TRUE(ValidateAccountName(name).ok()) << name;
  }
}

TEST(AccountNameTest, RefusesOtherNames) {
  for (const std::string& name :
       std::vector<std::string>{"", "ab", "123456789012345678901", "_anna", "-anna", "an na",
                                "anna!", "élodie", "ann\xc3\xa9", std::string("an\0na", 5),
                                "Guest-1234", "guest", "GUESTS", "Deleted-7", "anna\n"}) {
    absl::Status status = ValidateAccountName(name);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << name;
  }
}

TEST(AccountNameTest, ErrorsNeverEchoTheName) {
  const std::string name = "hunter2hunter2hunter2!";
  EXPECT_EQ(ValidateAccountName(name).message().find("hunter2"), std::string::npos);
}

TEST(AccountNameTest, NormalFormIgnoresCaseOnly) {
  EXPECT_EQ(NormaliseAccountName("Anna_B"), "anna_b");
  EXPECT_EQ(NormaliseAccountName("ANNA_B"), NormaliseAccountName("anna_b"));
  EXPECT_NE(NormaliseAccountName("anna-b"), NormaliseAccountName("anna_b"));
  EXPECT_EQ(NormaliseAccountName("Zz9-"), "zz9-");
}

TEST(PasswordTest, LengthBoundsAndNoNul) {
  EXPECT_TRUE(ValidatePassword("12345678").ok());
  EXPECT_TRUE(ValidatePassword(std::string(256, 'x')).ok());
  EXPECT_FALSE(ValidatePassword("1234567").ok());
  EXPECT_FALSE(ValidatePassword(std::string(257, 'x')).ok());
  EXPECT_FALSE(ValidatePassword(std::string("abcd\0efgh", 9)).ok());
  EXPECT_EQ(ValidatePassword("secret1").message().find("secret1"), std::string::npos);
}

TEST(SameOriginTest, RefusesOtherOrigins) {
  HttpRequest request;
  request.host = "draughts.example:8080";
  EXPECT_TRUE(CheckSameOrigin(request).ok());  // no Origin: not a browser page
  request.origin = "https://draughts.example:8080";
  EXPECT_TRUE(CheckSameOrigin(request).ok());
  request.origin = "http://draughts.example:8080";
  EXPECT_TRUE(CheckSameOrigin(request).ok());
  for (const std::string origin : {"https://evil.example", "null", "https://draughts.example",
                                   "https://draughts.example:8080.evil", "draughts.example:8080"}) {
    request.origin = origin;
    EXPECT_EQ(CheckSameOrigin(request).code(), absl::StatusCode::kPermissionDenied) << origin;
  }
}

TEST(PublicIdTest, AccountIdsAreWellFormedAndUnrelated) {
  const std::string id = NewAccountPlayerId();
  EXPECT_EQ(id.substr(0, 2), "p_");
  EXPECT_TRUE(IsWellFormedPublicPlayerId(id));
  EXPECT_NE(NewAccountPlayerId(), id);
}

PasswordHasher SmallHasher(uint64_t opslimit) {
  PasswordHashOptions options;
  options.opslimit = opslimit;
  options.memlimit = 8 << 10;
  return PasswordHasher::Create(options).value();
}

TEST(PasswordHasherTest, HashesWithArgon2idAndVerifies) {
  const PasswordHasher hasher = SmallHasher(1);
  const std::string hash = hasher.Hash("correct horse").value();
  EXPECT_EQ(hash.rfind("$argon2id$", 0), 0u) << hash;
  EXPECT_EQ(hash.find("correct horse"), std::string::npos);
  EXPECT_NE(hasher.Hash("correct horse").value(), hash);  // salted
  EXPECT_TRUE(hasher.Verify(hash, "correct horse"));
  EXPECT_FALSE(hasher.Verify(hash, "correct horsf"));
  EXPECT_FALSE(hasher.Verify("not a hash", "correct horse"));
  EXPECT_FALSE(hasher.VerifyDummy("correct horse"));
  EXPECT_FALSE(hasher.NeedsRehash(hash));
}

TEST(PasswordHasherTest, OtherParametersNeedARehash) {
  const std::string old_hash = SmallHasher(1).Hash("correct horse").value();
  const PasswordHasher stronger = SmallHasher(2);
  EXPECT_TRUE(stronger.Verify(old_hash, "correct horse"));
  EXPECT_TRUE(stronger.NeedsRehash(old_hash));
  EXPECT_TRUE(stronger.NeedsRehash("garbage"));
}

TEST(PasswordHasherTest, RefusesParametersOutOfRange) {
  PasswordHashOptions options;
  options.opslimit = 0;
  EXPECT_FALSE(PasswordHasher::Create(options).ok());
  options.opslimit = 1;
  options.memlimit = 1024;
  EXPECT_FALSE(PasswordHasher::Create(options).ok());
}

}  // namespace
}  // namespace draughts::gateway
