// What the chat room hears of a game: a ChatNoticeRecord in the outbox for
// a draw offered, a draw refused (not one that lapsed), a player who left
// (the game lost, or the computer standing in), keyed by the event's
// version and carrying the game's table.
#include <gtest/gtest.h>

#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

class ChatNoticesTest : public GameServiceTest {
 protected:
  std::vector<v1::ChatNoticeRecord> NoticesOf(const std::string& game_id) {
    std::vector<v1::ChatNoticeRecord> notices;
    for (const v1::ChatNoticeRecord& notice : store_.ChatNotices()) {
      if (notice.game_id() == game_id) notices.push_back(notice);
    }
    return notices;
  }
  void Offer(const v1::CreateGameResponse& created, v1::Color by, int ply) {
    grpc::ClientContext context;
    v1::OfferDrawRequest offer;
    offer.set_game_id(created.game_id());
    offer.set_player_token(TokenOf(created, by));
    offer.set_expected_ply(ply);
    v1::OfferDrawResponse offered;
    ASSERT_TRUE(stub_->OfferDraw(&context, offer, &offered).ok());
  }
  void Abandon(const std::string& game_id, v1::Color color) {
    grpc::ClientContext context;
    v1::DeclareAbandonedRequest request;
    request.set_game_id(game_id);
    request.set_color(color);
    request.set_expected_ply(0);
    v1::DeclareAbandonedResponse response;
    ASSERT_TRUE(stub_->DeclareAbandoned(&context, request, &response).ok());
  }
};

TEST_F(ChatNoticesTest, DrawOffersAndAnsweredRefusalsAreAnnouncedLapsesAreNot) {
  v1::CreateGameRequest request = PeopleGame("international");
  request.set_table_id("table-7");
  const v1::CreateGameResponse created = Create(request);
  const std::string& id = created.game_id();
  EXPECT_TRUE(NoticesOf(id).empty());

  Offer(created, v1::COLOR_WHITE, 0);
  {
    grpc::ClientContext context;
    v1::RespondDrawRequest answer;
    answer.set_game_id(id);
    answer.set_player_token(created.black_player_token());
    answer.set_expected_ply(0);
    answer.set_accept(false);
    v1::RespondDrawResponse answered;
    ASSERT_TRUE(stub_->RespondDraw(&context, answer, &answered).ok());
  }
  const std::vector<v1::ChatNoticeRecord> notices = NoticesOf(id);
  ASSERT_EQ(notices.size(), 2u);
  EXPECT_EQ(notices[0].notice().kind(), v1::ChatNotice::KIND_DRAW_OFFERED);
  EXPECT_EQ(notices[0].notice().color(), v1::COLOR_WHITE);
  EXPECT_EQ(notices[0].notice().text(), "White offers a draw");
  EXPECT_EQ(notices[0].table_id(), "table-7");
  EXPECT_EQ(notices[1].notice().kind(), v1::ChatNotice::KIND_DRAW_DECLINED);
  EXPECT_EQ(notices[1].notice().color(), v1::COLOR_BLACK);
  EXPECT_GT(notices[1].game_version(), notices[0].game_version());
  EXPECT_EQ(notices[1].game_version(), Get(id).version());

  // An offer that lapses because its addressee plays on says nothing more.
  Play(created, "32-28");
  Offer(created, v1::COLOR_BLACK, 1);
  Play(created, "17-21");
  Play(created, "37-32");
  ASSERT_FALSE(Get(id).draw_offered_by() == v1::COLOR_BLACK);
  ASSERT_EQ(NoticesOf(id).size(), 3u);
  EXPECT_EQ(NoticesOf(id).back().notice().kind(), v1::ChatNotice::KIND_DRAW_OFFERED);
}

TEST_F(ChatNoticesTest, APlayerWhoLeavesIsAnnouncedWhetherTheGameEndsOrTheComputerTakesOver) {
  const v1::CreateGameResponse lost = Create(PeopleGame("international"));
  Abandon(lost.game_id(), v1::COLOR_BLACK);
  std::vector<v1::ChatNoticeRecord> notices = NoticesOf(lost.game_id());
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].notice().kind(), v1::ChatNotice::KIND_PLAYER_LEFT);
  EXPECT_EQ(notices[0].notice().text(), "Black left the game; White wins");
  EXPECT_TRUE(notices[0].table_id().empty());

  v1::CreateGameRequest request = PeopleGame("international");
  request.mutable_options()->set_computer_plays_for_absent(true);
  const v1::CreateGameResponse stood_in = Create(request);
  Abandon(stood_in.game_id(), v1::COLOR_WHITE);
  notices = NoticesOf(stood_in.game_id());
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].notice().kind(), v1::ChatNotice::KIND_PLAYER_LEFT);
  EXPECT_EQ(notices[0].notice().color(), v1::COLOR_WHITE);
  EXPECT_NE(notices[0].notice().text().find("computer"), std::string::npos);
}

}  // namespace
}  // namespace draughts::game_state::testing
