// The service's building blocks: ids, tokens, page tokens, Redis keys (the
// generic ones are tested in tests/unit/platform).
#include <gtest/gtest.h>

#include "game_state/game_id.h"
#include "game_state/page_tokens.h"
#include "game_state/player_tokens.h"
#include "game_state/redis_keys.h"

namespace draughts::game_state {
namespace {

TEST(GameIds, DerivedFromTheKeyStableAndDistinct) {
  EXPECT_EQ(GameIdForKey("table-1:game-1"), GameIdForKey("table-1:game-1"));
  EXPECT_NE(GameIdForKey("table-1:game-1"), GameIdForKey("table-1:game-2"));
  EXPECT_EQ(GameIdForKey("x").size(), 26u);
  EXPECT_TRUE(ValidateGameId(GameIdForKey("x")).ok());
}

TEST(GameIds, Validation) {
  EXPECT_TRUE(ValidateGameId("abc_D-9").ok());
  EXPECT_FALSE(ValidateGameId("").ok());
  EXPECT_FALSE(ValidateGameId("a{b}").ok());
  EXPECT_FALSE(ValidateGameId("a b").ok());
  EXPECT_FALSE(ValidateGameId(std::string(65, 'a')).ok());
}

TEST(PlayerTokens, FreshLongAndUrlSafe) {
  const std::string token = NewPlayerToken();
  EXPECT_EQ(token.size(), 32u);
  EXPECT_EQ(
      token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
      std::string::npos);
  EXPECT_NE(NewPlayerToken(), token);
}

TEST(PlayerTokens, SealedTokensOpenOnlyWithTheSameSecret) {
  absl::StatusOr<TokenSealer> a = TokenSealer::FromSecret("a shared secret for replicas");
  absl::StatusOr<TokenSealer> same = TokenSealer::FromSecret("a shared secret for replicas");
  absl::StatusOr<TokenSealer> other = TokenSealer::FromSecret("another secret entirely!!");
  ASSERT_TRUE(a.ok() && same.ok() && other.ok());
  const std::string box = a->Seal({"white-token", "black-token"});
  EXPECT_EQ(box.find("white-token"), std::string::npos);
  absl::StatusOr<TokenPair> opened = same->Open(box);
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(opened->white, "white-token");
  EXPECT_EQ(opened->black, "black-token");
  EXPECT_FALSE(other->Open(box).ok());
  std::string damaged = box;
  damaged.back() ^= 1;
  EXPECT_FALSE(a->Open(damaged).ok());
  EXPECT_FALSE(a->Open("short").ok());
  EXPECT_FALSE(TokenSealer::FromSecret("too short").ok());
}

TEST(PageTokens, RoundTripAndRefuseOtherFiltersOrGames) {
  const std::string token = EncodeGamesPageToken({1234, "game1"}, "english\n0\n");
  absl::StatusOr<ListCursor> cursor = DecodeGamesPageToken(token, "english\n0\n");
  ASSERT_TRUE(cursor.ok());
  EXPECT_EQ(cursor->activity_ms, 1234);
  EXPECT_EQ(cursor->game_id, "game1");
  EXPECT_FALSE(DecodeGamesPageToken(token, "international\n0\n").ok());
  EXPECT_FALSE(DecodeGamesPageToken("AAAA", "").ok());
  const std::string moves = EncodeMovesPageToken("g", {7, 4});
  absl::StatusOr<MovesPage> page = DecodeMovesPageToken(moves, "g");
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->ply, 7);
  EXPECT_EQ(page->offset, 4);
  EXPECT_FALSE(DecodeMovesPageToken(moves, "h").ok());
  EXPECT_FALSE(DecodeMovesPageToken(token, "g").ok());  // a ListGames token
}

TEST(RedisKeys, ShareTheGamesHashTag) {
  RedisKeys keys;
  keys.prefix = "t1:";
  EXPECT_EQ(keys.State("g1"), "t1:game:{g1}:state");
  EXPECT_EQ(keys.Events("g1"), "t1:game:{g1}:events");
  EXPECT_EQ(keys.Outbox("g1"), "t1:game:{g1}:outbox");
}

}  // namespace
}  // namespace draughts::game_state
