// The game's own notices in its chat room: game_state writes them to the
// chat notices stream, a chat replica posts each once as a system line in
// the room of the game's table (or of the game).
#include <chrono>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "chat/notice_consumer.h"
#include "chat_env.h"
#include "platform/proto_time.h"
#include "platform/redis_streams.h"

namespace draughts::chat::testing {
namespace {

std::unique_ptr<grpc::ClientContext> Context() {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  return context;
}

std::vector<v1::ChatMessage> SystemLines(const std::vector<v1::ChatMessage>& messages) {
  std::vector<v1::ChatMessage> lines;
  for (const v1::ChatMessage& message : messages) {
    if (message.role() == v1::CHAT_ROLE_SYSTEM) lines.push_back(message);
  }
  return lines;
}

TEST_F(ChatIntegrationTest, DrawOffersAndRefusalsAppearInTheGamesRoom) {
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  ASSERT_TRUE(Post(0, PlayerPost(room, game.game_id(), game.white_player_token(), "draw?")).ok());
  v1::OfferDrawRequest offer;
  offer.set_game_id(game.game_id());
  offer.set_player_token(game.white_player_token());
  offer.set_expected_ply(0);
  v1::OfferDrawResponse offered;
  ASSERT_TRUE(games_->OfferDraw(Context().get(), offer, &offered).ok());
  v1::RespondDrawRequest answer;
  answer.set_game_id(game.game_id());
  answer.set_player_token(game.black_player_token());
  answer.set_expected_ply(0);
  answer.set_accept(false);
  v1::RespondDrawResponse answered;
  ASSERT_TRUE(games_->RespondDraw(Context().get(), answer, &answered).ok());

  std::vector<v1::ChatMessage> lines;
  ASSERT_TRUE(WaitFor([&] {
    lines = SystemLines(ListAll(1, room));
    return lines.size() >= 2;
  }));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].notice_kind(), v1::ChatNotice::KIND_DRAW_OFFERED);
  EXPECT_EQ(lines[0].color(), v1::COLOR_WHITE);
  EXPECT_EQ(lines[0].text(), "White offers a draw");
  EXPECT_EQ(lines[0].game_id(), game.game_id());
  EXPECT_EQ(lines[1].notice_kind(), v1::ChatNotice::KIND_DRAW_DECLINED);
  EXPECT_EQ(lines[1].color(), v1::COLOR_BLACK);
  // After the player's own line, in order.
  const std::vector<v1::ChatMessage> all = ListAll(0, room);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].text(), "draw?");
}

TEST_F(ChatIntegrationTest, APlayerLeavingIsAnnouncedInTheTablesRoom) {
  tables_.AddTable("t-left", false);
  const v1::CreateGameResponse game = NewGame("t-left");
  v1::DeclareAbandonedRequest left;
  left.set_game_id(game.game_id());
  left.set_color(v1::COLOR_BLACK);
  left.set_expected_ply(0);
  v1::DeclareAbandonedResponse ended;
  ASSERT_TRUE(games_->DeclareAbandoned(Context().get(), left, &ended).ok());

  std::vector<v1::ChatMessage> lines;
  ASSERT_TRUE(WaitFor([&] {
    lines = SystemLines(ListAll(0, TableRoom("t-left")));
    return !lines.empty();
  }));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].notice_kind(), v1::ChatNotice::KIND_PLAYER_LEFT);
  EXPECT_EQ(lines[0].color(), v1::COLOR_BLACK);
  EXPECT_EQ(lines[0].text(), "Black left the game; White wins");
  EXPECT_EQ(lines[0].room().table_id(), "t-left");
  // The game's own room name leads to the same room.
  EXPECT_EQ(SystemLines(ListAll(1, GameRoom(game.game_id()))).size(), 1u);
}

TEST_F(ChatIntegrationTest, ANoticeDeliveredTwiceIsPostedOnce) {
  const v1::CreateGameResponse game = NewGame();
  v1::ChatNoticeRecord record;
  record.set_game_id(game.game_id());
  record.set_game_version(42);
  *record.mutable_happened_at() = platform::ToProtoTime(absl::Now());
  record.mutable_notice()->set_kind(v1::ChatNotice::KIND_INFO);
  record.mutable_notice()->set_text("the relay said this twice");
  const std::string stream = absl::StrCat(prefix_, "draughts:chat-notices");
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(
        platform::StreamAdd(*redis_, stream,
                            {{"data", record.SerializeAsString()}, {"game_id", game.game_id()}})
            .ok());
  }
  // And a malformed entry, which must not block the ones after it.
  ASSERT_TRUE(platform::StreamAdd(*redis_, stream, {{"data", "not a proto"}}).ok());
  record.set_game_version(43);
  record.mutable_notice()->set_text("after the bad one");
  ASSERT_TRUE(platform::StreamAdd(*redis_, stream, {{"data", record.SerializeAsString()}}).ok());

  std::vector<v1::ChatMessage> lines;
  ASSERT_TRUE(WaitFor([&] {
    lines = SystemLines(ListAll(0, GameRoom(game.game_id())));
    return lines.size() >= 2;
  }));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text(), "the relay said this twice");
  EXPECT_EQ(lines[1].text(), "after the bad one");
  // Everything was acknowledged.
  ASSERT_TRUE(WaitFor([&] {
    absl::StatusOr<platform::RedisReply> pending = redis_->Command({"XPENDING", stream, "chat"});
    return pending.ok() && !pending->elements().empty() && pending->elements()[0].integer() == 0;
  }));
}

}  // namespace
}  // namespace draughts::chat::testing
