#include <gtest/gtest.h>

#include <set>

#include "gateway/api_handlers.h"
#include "gateway/session_store.h"

namespace draughts::gateway {
namespace {

TEST(SessionIdTest, RandomAndWellFormed) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string id = NewSessionId();
    EXPECT_TRUE(IsWellFormedSessionId(id)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 200u);
  EXPECT_FALSE(IsWellFormedSessionId(""));
  EXPECT_FALSE(IsWellFormedSessionId("short"));
  EXPECT_FALSE(IsWellFormedSessionId("aaaaaaaaaaaaaaaaaaaa*a"));
  EXPECT_FALSE(IsWellFormedSessionId("aaaaaaaaaaaaaaaaaaaaaaa"));
}

TEST(PublicPlayerIdTest, RandomWellFormedAndNotASessionId) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string id = NewPublicPlayerId();
    ASSERT_EQ(id.size(), 24u) << id;
    EXPECT_EQ(id.substr(0, 2), "g_");
    EXPECT_TRUE(IsWellFormedPublicPlayerId(id)) << id;
    // A public id is never accepted where the secret is expected.
    EXPECT_FALSE(IsWellFormedSessionId(id)) << id;
    seen.insert(id.substr(2));
  }
  EXPECT_EQ(seen.size(), 200u);
  EXPECT_FALSE(IsWellFormedPublicPlayerId(NewSessionId()));
  EXPECT_FALSE(IsWellFormedPublicPlayerId("g_"));
  EXPECT_FALSE(IsWellFormedPublicPlayerId("x_aaaaaaaaaaaaaaaaaaaaaa"));
  EXPECT_FALSE(IsWellFormedPublicPlayerId("g_aaaaaaaaaaaaaaaaaaaa*a"));
}

TEST(SessionIdTest, GuestNames) {
  const std::string name = NewGuestName();
  ASSERT_EQ(name.size(), 10u) << name;
  EXPECT_EQ(name.substr(0, 6), "Guest-");
}

TEST(SessionCookieTest, ParsesOurCookieAmongOthers) {
  EXPECT_EQ(SessionIdFromCookie("draughts_session=abc"), "abc");
  EXPECT_EQ(SessionIdFromCookie("theme=dark; draughts_session=abc ; x=1"), "abc");
  EXPECT_EQ(SessionIdFromCookie("draughts_sessionx=abc"), "");
  EXPECT_EQ(SessionIdFromCookie("other=draughts_session=abc"), "");
  EXPECT_EQ(SessionIdFromCookie(""), "");
}

TEST(SessionCookieTest, SetCookieAttributes) {
  const std::string cookie = SessionCookie("abc");
  EXPECT_EQ(cookie.rfind("draughts_session=abc;", 0), 0u) << cookie;
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
  EXPECT_NE(cookie.find("SameSite=Lax"), std::string::npos);
  EXPECT_NE(cookie.find("Path=/"), std::string::npos);
}

TEST(QueryTest, Parameters) {
  EXPECT_EQ(QueryParameter("after=17-0", "after"), "17-0");
  EXPECT_EQ(QueryParameter("x=1&after=17%2D3", "after"), "17-3");
  EXPECT_EQ(QueryParameter("x=1", "after"), std::nullopt);
}

}  // namespace
}  // namespace draughts::gateway
