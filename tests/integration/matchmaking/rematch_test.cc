// The "play again" window, learned from the real results stream: both
// votes start the next game with the colours swapped (votes on two
// replicas); without them the window closes the table.
#include <gtest/gtest.h>

#include "matchmaking_env.h"

namespace draughts::matchmaking::testing {
namespace {

using grpc::StatusCode;

struct Seated {
  v1::Table table;
  std::string token_a;  // seat 0's token
  std::string token_b;  // seat 1's token
};

Seated StartPeopleGame(Cluster& cluster, const v1::Seat& a, const v1::Seat& b) {
  v1::CreateTableRequest request;
  *request.mutable_requester() = a;
  request.set_variant("international");
  v1::Table table;
  EXPECT_TRUE(CreateTable(cluster.mm(0), request, &table).ok());
  EXPECT_TRUE(Join(cluster.mm(1), b, table.table_id(), "", nullptr).ok());
  v1::StartGameResponse by_a, by_b;
  grpc::Status status = Start(cluster.mm(0), a, table.table_id(), &by_a);
  EXPECT_TRUE(status.ok()) << Text(status);
  // The other player's StartGame, on the other replica, returns the same game.
  status = Start(cluster.mm(1), b, table.table_id(), &by_b);
  EXPECT_TRUE(status.ok()) << Text(status);
  EXPECT_EQ(by_a.table().game_id(), by_b.table().game_id());
  Seated seated;
  seated.table = by_a.table();
  if (by_a.your_tokens_size() == 1) seated.token_a = by_a.your_tokens(0).player_token();
  if (by_b.your_tokens_size() == 1) seated.token_b = by_b.your_tokens(0).player_token();
  EXPECT_FALSE(seated.token_a.empty());
  EXPECT_FALSE(seated.token_b.empty());
  EXPECT_NE(seated.table.seats(0).color(), seated.table.seats(1).color());
  return seated;
}

TEST(MatchmakingRematch, BothVoteAndTheColoursSwap) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(2, {"--rematch-window=20s"});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  const v1::Seat a = Person("ann"), b = Person("ben");
  Seated seated = StartPeopleGame(**cluster, a, b);
  const std::string id = seated.table.table_id();
  v1::VoteRematchResponse early;
  EXPECT_EQ(Vote((*cluster)->mm(0), a, id, &early).error_code(), StatusCode::FAILED_PRECONDITION)
      << "no finished game yet";

  ASSERT_TRUE(Resign((*cluster)->game(), seated.table.game_id(), seated.token_a).ok());
  absl::StatusOr<v1::GetTableResponse> finished =
      WaitForTable((*cluster)->mm(1), id, a, [](const v1::GetTableResponse& r) {
        return r.table().status() == v1::TABLE_STATUS_FINISHED;
      });
  ASSERT_TRUE(finished.ok()) << finished.status();
  EXPECT_TRUE(finished->table().has_rematch_deadline());

  v1::VoteRematchResponse first, second;
  grpc::Status status = Vote((*cluster)->mm(0), a, id, &first);
  ASSERT_TRUE(status.ok()) << Text(status);
  EXPECT_FALSE(first.started());
  EXPECT_TRUE(first.table().seats(0).rematch_vote());
  status = Vote((*cluster)->mm(1), b, id, &second);
  ASSERT_TRUE(status.ok()) << Text(status);
  EXPECT_TRUE(second.started());
  EXPECT_EQ(second.table().status(), v1::TABLE_STATUS_PLAYING);
  EXPECT_EQ(second.table().games_played(), 2);
  EXPECT_NE(second.table().game_id(), seated.table.game_id());
  EXPECT_EQ(second.table().seats(0).color(), seated.table.seats(1).color()) << "colours swap";
  EXPECT_EQ(second.table().seats(1).color(), seated.table.seats(0).color());
  ASSERT_EQ(second.your_tokens_size(), 1);
  EXPECT_EQ(second.your_tokens(0).color(), second.table().seats(1).color());
  // The first voter learns the new game and their token from GetTable.
  absl::StatusOr<v1::GetTableResponse> mine =
      WaitForTable((*cluster)->mm(0), id, a, [&](const v1::GetTableResponse& r) {
        return r.table().game_id() == second.table().game_id() && r.your_tokens_size() == 1;
      });
  ASSERT_TRUE(mine.ok()) << mine.status();
  EXPECT_EQ(mine->your_tokens(0).color(), second.table().seats(0).color());
}

TEST(MatchmakingRematch, WindowClosesTheTable) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(2, {"--rematch-window=2s"});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  const v1::Seat a = Person("cat"), b = Person("dan");
  Seated seated = StartPeopleGame(**cluster, a, b);
  const std::string id = seated.table.table_id();
  ASSERT_TRUE(Resign((*cluster)->game(), seated.table.game_id(), seated.token_b).ok());
  absl::StatusOr<v1::GetTableResponse> finished =
      WaitForTable((*cluster)->mm(0), id, a, [](const v1::GetTableResponse& r) {
        return r.table().status() == v1::TABLE_STATUS_FINISHED;
      });
  ASSERT_TRUE(finished.ok()) << finished.status();
  v1::VoteRematchResponse vote;
  ASSERT_TRUE(Vote((*cluster)->mm(1), a, id, &vote).ok());
  EXPECT_FALSE(vote.started()) << "one vote is not enough";

  grpc::Status end;
  std::vector<v1::TableEvent> events = WatchAll((*cluster)->mm(1), id, absl::Seconds(20), &end);
  ASSERT_TRUE(end.ok()) << Text(end);
  ASSERT_FALSE(events.empty());
  ASSERT_TRUE(events.back().has_table_closed());
  EXPECT_EQ(events.back().table_closed().reason(), v1::TableClosed::REASON_REMATCH_WINDOW_CLOSED);
  bool saw_finish = false, saw_vote = false, saw_start = false;
  for (const v1::TableEvent& event : events) {
    saw_finish |= event.has_game_finished();
    saw_vote |= event.has_rematch_voted();
    saw_start |= event.has_game_started();
  }
  EXPECT_TRUE(saw_finish && saw_vote && saw_start);
  EXPECT_EQ(Vote((*cluster)->mm(0), b, id, &vote).error_code(), StatusCode::FAILED_PRECONDITION)
      << "the window is over and the table closed";
  EXPECT_TRUE(WaitForClosed((*cluster)->mm(0), id, absl::Seconds(1)));
}

TEST(MatchmakingRematch, BotVotesYesAgainstTheComputer) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(1, {"--rematch-window=20s"});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::MatchmakingService::Stub& mm = (*cluster)->mm();
  const v1::Seat me = Person("learner");
  v1::CreateTableRequest request;
  *request.mutable_requester() = me;
  request.set_variant("english");
  request.set_vs_computer(true);
  request.set_bot_level(v1::BOT_LEVEL_EASY);
  request.set_creator_color(v1::COLOR_BLACK);
  v1::Table table;
  ASSERT_TRUE(CreateTable(mm, request, &table).ok());
  EXPECT_EQ(table.status(), v1::TABLE_STATUS_READY);
  EXPECT_EQ(table.seats(1).occupant().display_name(), "Computer (Easy)");
  v1::StartGameResponse started;
  ASSERT_TRUE(Start(mm, me, table.table_id(), &started).ok());
  EXPECT_EQ(started.table().seats(0).color(), v1::COLOR_BLACK) << "the creator's colour";
  ASSERT_EQ(started.your_tokens_size(), 1);
  ASSERT_TRUE(
      Resign((*cluster)->game(), started.table().game_id(), started.your_tokens(0).player_token())
          .ok());
  absl::StatusOr<v1::GetTableResponse> finished =
      WaitForTable(mm, table.table_id(), me, [](const v1::GetTableResponse& r) {
        return r.table().status() == v1::TABLE_STATUS_FINISHED;
      });
  ASSERT_TRUE(finished.ok()) << finished.status();
  EXPECT_TRUE(finished->table().seats(1).rematch_vote()) << "a bot always votes yes";
  v1::VoteRematchResponse vote;
  ASSERT_TRUE(Vote(mm, me, table.table_id(), &vote).ok());
  EXPECT_TRUE(vote.started());
  EXPECT_EQ(vote.table().seats(0).color(), v1::COLOR_WHITE) << "swapped for the rematch";
}

}  // namespace
}  // namespace draughts::matchmaking::testing
