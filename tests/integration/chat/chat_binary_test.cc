// The chat binary on real Redis with a real game_state: posting, listing
// and watching across two replicas, resuming, the 200-message cap, the
// text limits, the rate limit shared by replicas, idempotent retries,
// muted spectators, and no secret in anything others read.
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "chat_env.h"

namespace draughts::chat::testing {
namespace {

using ::testing::Test;

// Reads a WatchChat stream on its own thread until `want` messages came.
class Watcher {
 public:
  Watcher(v1::ChatService::Stub& stub, const v1::WatchChatRequest& request) {
    reader_ = stub.WatchChat(&context_, request);
    // The server sends headers once it is subscribed.
    reader_->WaitForInitialMetadata();
  }
  ~Watcher() {
    context_.TryCancel();
    v1::ChatMessage ignored;
    while (reader_->Read(&ignored)) {
    }
    reader_->Finish().IgnoreError();
  }
  std::vector<v1::ChatMessage> Take(std::size_t want) {
    std::vector<v1::ChatMessage> got;
    v1::ChatMessage message;
    while (got.size() < want && reader_->Read(&message)) got.push_back(message);
    return got;
  }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReader<v1::ChatMessage>> reader_;
};

TEST_F(ChatIntegrationTest, PlayersAndSpectatorsPostListAndWatchAcrossReplicas) {
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  v1::WatchChatRequest watch;
  *watch.mutable_room() = room;
  Watcher watcher(*chat_[1], watch);

  v1::ChatMessage from_ann;
  ASSERT_TRUE(Post(0, PlayerPost(room, game.game_id(), game.white_player_token(), "  hello Ben "),
                   &from_ann)
                  .ok());
  EXPECT_EQ(from_ann.role(), v1::CHAT_ROLE_PLAYER);
  EXPECT_EQ(from_ann.color(), v1::COLOR_WHITE);
  EXPECT_EQ(from_ann.display_name(), "Ann");
  EXPECT_EQ(from_ann.player_id(), "ann");
  EXPECT_EQ(from_ann.text(), "hello Ben");
  EXPECT_EQ(from_ann.room().game_id(), game.game_id());
  EXPECT_FALSE(from_ann.message_id().empty());
  EXPECT_GT(from_ann.sent_at().seconds(), 0);
  const std::string session = "session-secret-of-the-spectator-0123456789";
  ASSERT_TRUE(Post(1, SpectatorPost(room, session, "nice opening", "Zoé")).ok());

  const std::vector<v1::ChatMessage> live = watcher.Take(2);
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live[0].message_id(), from_ann.message_id());
  EXPECT_EQ(live[1].role(), v1::CHAT_ROLE_SPECTATOR);
  EXPECT_EQ(live[1].display_name(), "Zoé");
  EXPECT_EQ(live[1].player_id(), "g_watcher");

  const std::vector<v1::ChatMessage> listed = ListAll(0, room);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].text(), "hello Ben");
  EXPECT_EQ(listed[1].text(), "nice opening");
  // Nothing anyone reads holds a token or a session.
  for (const v1::ChatMessage& message : listed) {
    const std::string bytes = message.SerializeAsString();
    EXPECT_EQ(bytes.find(game.white_player_token()), std::string::npos);
    EXPECT_EQ(bytes.find(session), std::string::npos);
  }
}

TEST_F(ChatIntegrationTest, WatchResumesAfterTheLastIdSeenOnAnyReplica) {
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    v1::ChatMessage posted;
    ASSERT_TRUE(
        Post(i % 2, SpectatorPost(room, absl::StrCat("s", i), absl::StrCat("line ", i)), &posted)
            .ok());
    ids.push_back(posted.message_id());
  }
  v1::WatchChatRequest watch;
  *watch.mutable_room() = room;
  watch.set_from_message_id(ids[0]);
  Watcher watcher(*chat_[1], watch);
  ASSERT_TRUE(Post(0, SpectatorPost(room, "s9", "line 3")).ok());
  const std::vector<v1::ChatMessage> got = watcher.Take(3);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].message_id(), ids[1]);
  EXPECT_EQ(got[1].message_id(), ids[2]);
  EXPECT_EQ(got[2].text(), "line 3");

  // A malformed id is refused at once.
  grpc::ClientContext context;
  watch.set_from_message_id("yesterday");
  auto reader = chat_[0]->WatchChat(&context, watch);
  v1::ChatMessage ignored;
  EXPECT_FALSE(reader->Read(&ignored));
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ChatIntegrationTest, ARoomKeepsItsLast200Messages) {
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  // One spectator per message: the rate limit is per author.
  for (int i = 0; i < 205; ++i) {
    ASSERT_TRUE(
        Post(i % 2, SpectatorPost(room, absl::StrCat("cap-", i), absl::StrCat("m", i))).ok());
  }
  const std::vector<v1::ChatMessage> kept = ListAll(0, room);
  ASSERT_EQ(kept.size(), 200u);
  EXPECT_EQ(kept.front().text(), "m5");
  EXPECT_EQ(kept.back().text(), "m204");
  // Pages: 50 by default, newest first, then the next page.
  grpc::ClientContext context;
  v1::ListMessagesRequest request;
  *request.mutable_room() = room;
  v1::ListMessagesResponse page;
  ASSERT_TRUE(chat_[1]->ListMessages(&context, request, &page).ok());
  ASSERT_EQ(page.messages_size(), 50);
  EXPECT_EQ(page.messages(0).text(), "m204");
  EXPECT_FALSE(page.next_page_token().empty());
}

TEST_F(ChatIntegrationTest, TextLimitsAreCountedInCharactersAndRefusedClearly) {
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  std::string longest;
  for (int i = 0; i < 500; ++i) longest += "é";  // 1000 bytes, 500 characters
  v1::ChatMessage posted;
  ASSERT_TRUE(Post(0, SpectatorPost(room, "a", longest), &posted).ok());
  EXPECT_EQ(posted.text(), longest);

  const grpc::Status too_long = Post(1, SpectatorPost(room, "b", longest + "x"));
  EXPECT_EQ(too_long.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(too_long.error_message().find("501 characters"), std::string::npos)
      << too_long.error_message();
  EXPECT_NE(too_long.error_message().find("500"), std::string::npos);

  const grpc::Status control = Post(0, SpectatorPost(room, "c", "two\nlines"));
  EXPECT_EQ(control.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const grpc::Status blank = Post(0, SpectatorPost(room, "d", "   "));
  EXPECT_EQ(blank.error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  // Invalid UTF-8 is refused with the field's name, though protobuf itself
  // would not parse such a request.
  const grpc::Status invalid = Post(1, SpectatorPost(room, "e", "bad \xff\xfe bytes"));
  EXPECT_EQ(invalid.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << StatusText(invalid);
  EXPECT_EQ(invalid.error_message(), "text is not valid UTF-8");
  v1::PostMessageRequest bad_name = SpectatorPost(room, "f", "fine text");
  bad_name.mutable_author()->set_display_name("Zo\xc3");
  const grpc::Status invalid_name = Post(0, bad_name);
  EXPECT_EQ(invalid_name.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(invalid_name.error_message(), "author.display_name is not valid UTF-8");
  EXPECT_EQ(ListAll(0, room).size(), 1u);
}

TEST_F(ChatIntegrationTest, TheSixthMessageInTheWindowIsRefusedOnEveryReplicaThenAccepted) {
  RestartChat({"--rate-window=4s"});
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  const absl::Time first = absl::Now();
  v1::PostMessageRequest retried;
  for (int i = 0; i < 5; ++i) {
    v1::PostMessageRequest post =
        PlayerPost(room, game.game_id(), game.black_player_token(), absl::StrCat("msg ", i));
    if (i == 0) retried = post;
    ASSERT_TRUE(Post(i % 2, post).ok()) << i;
  }
  for (int replica = 0; replica < 2; ++replica) {
    const grpc::Status sixth =
        Post(replica, PlayerPost(room, game.game_id(), game.black_player_token(), "one too many"));
    if (absl::Now() - first >= absl::Seconds(4)) GTEST_SKIP() << "the machine is too slow";
    EXPECT_EQ(sixth.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << StatusText(sixth);
    EXPECT_NE(sixth.error_message().find("wait"), std::string::npos);
  }
  // A retry of a post that went through is answered, not counted.
  v1::ChatMessage again;
  ASSERT_TRUE(Post(1, retried, &again).ok());
  EXPECT_EQ(again.text(), "msg 0");
  // The other player is another author.
  EXPECT_TRUE(Post(0, PlayerPost(room, game.game_id(), game.white_player_token(), "my turn")).ok());

  const v1::PostMessageRequest later =
      PlayerPost(room, game.game_id(), game.black_player_token(), "later");
  absl::Time accepted_at;
  ASSERT_TRUE(WaitFor(
      [&] {
        accepted_at = absl::Now();
        return Post(1, later).ok();
      },
      absl::Seconds(15)));
  EXPECT_GE(accepted_at - first, absl::Seconds(4) - absl::Milliseconds(50));
  EXPECT_EQ(ListAll(0, room).size(), 7u);
}

TEST_F(ChatIntegrationTest, ARetryReturnsTheFirstMessageAndAReusedKeyIsRefused) {
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  v1::PostMessageRequest post = SpectatorPost(room, "sess", "once");
  v1::ChatMessage first;
  v1::ChatMessage second;
  ASSERT_TRUE(Post(0, post, &first).ok());
  ASSERT_TRUE(Post(1, post, &second).ok());
  EXPECT_EQ(first.message_id(), second.message_id());
  post.set_text("twice");
  EXPECT_EQ(Post(0, post).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ListAll(1, room).size(), 1u);
}

TEST_F(ChatIntegrationTest, SeatsAndRoomsAreChecked) {
  const v1::CreateGameResponse game = NewGame();
  const v1::CreateGameResponse other = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  EXPECT_EQ(Post(0, PlayerPost(room, game.game_id(), "not-a-token", "hi")).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // A seat of another game may not talk in this room.
  EXPECT_EQ(
      Post(0, PlayerPost(room, other.game_id(), other.white_player_token(), "hi")).error_code(),
      grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Post(1, SpectatorPost(GameRoom("nosuchgame"), "s", "hi")).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Post(1, SpectatorPost(TableRoom("nosuchtable"), "s", "hi")).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Post(1, SpectatorPost(room, "s", "hi", "")).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(ListAll(0, room).empty());
}

TEST_F(ChatIntegrationTest, SpectatorsMayBeMutedByTheTable) {
  // A game without a table: its own option.
  const v1::CreateGameResponse quiet = NewGame("", /*spectators_muted=*/true);
  const v1::ChatRoom room = GameRoom(quiet.game_id());
  const grpc::Status muted = Post(0, SpectatorPost(room, "s", "can I talk?"));
  EXPECT_EQ(muted.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_NE(muted.error_message().find("muted"), std::string::npos);
  EXPECT_TRUE(
      Post(1, PlayerPost(room, quiet.game_id(), quiet.white_player_token(), "we can")).ok());

  // A table's option, whatever room name is used; its games share its room.
  tables_.AddTable("quiet-table", /*spectators_muted=*/true);
  tables_.AddTable("open-table", /*spectators_muted=*/false);
  const v1::CreateGameResponse at_table = NewGame("quiet-table", true);
  EXPECT_EQ(Post(0, SpectatorPost(TableRoom("quiet-table"), "s", "hello")).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Post(0, SpectatorPost(GameRoom(at_table.game_id()), "s", "hello")).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::ChatMessage from_player;
  ASSERT_TRUE(Post(1,
                   PlayerPost(GameRoom(at_table.game_id()), at_table.game_id(),
                              at_table.black_player_token(), "table talk"),
                   &from_player)
                  .ok());
  EXPECT_EQ(from_player.room().table_id(), "quiet-table");
  EXPECT_EQ(ListAll(0, TableRoom("quiet-table")).size(), 1u);
  EXPECT_TRUE(Post(0, SpectatorPost(TableRoom("open-table"), "s", "hello")).ok());
}

TEST_F(ChatIntegrationTest, SigtermEndsWatchesWithUnavailableSoClientsResumeElsewhere) {
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  v1::ChatMessage first;
  ASSERT_TRUE(Post(1, SpectatorPost(room, "s", "before"), &first).ok());
  grpc::ClientContext context;
  v1::WatchChatRequest watch;
  *watch.mutable_room() = room;
  auto reader = chat_[0]->WatchChat(&context, watch);
  reader->WaitForInitialMetadata();
  absl::StatusOr<int> exit_code = chats_[0]->Terminate();
  ASSERT_TRUE(exit_code.ok()) << exit_code.status();
  EXPECT_EQ(*exit_code, 0);
  v1::ChatMessage ignored;
  EXPECT_FALSE(reader->Read(&ignored));
  const grpc::Status ended = reader->Finish();
  EXPECT_EQ(ended.error_code(), grpc::StatusCode::UNAVAILABLE) << StatusText(ended);

  // The other replica carries on from the last id seen.
  ASSERT_TRUE(Post(1, SpectatorPost(room, "s2", "after")).ok());
  watch.set_from_message_id(first.message_id());
  Watcher resumed(*chat_[1], watch);
  const std::vector<v1::ChatMessage> got = resumed.Take(1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].text(), "after");
}

TEST_F(ChatIntegrationTest, MetricsCountPostsRefusalsByReasonAndWatchers) {
  RestartChat({"--rate-limit=1"}, /*metrics=*/true);
  const v1::CreateGameResponse game = NewGame();
  const v1::ChatRoom room = GameRoom(game.game_id());
  ASSERT_TRUE(Post(0, PlayerPost(room, game.game_id(), game.white_player_token(), "hi")).ok());
  EXPECT_EQ(
      Post(0, PlayerPost(room, game.game_id(), game.white_player_token(), "again")).error_code(),
      grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Post(0, SpectatorPost(room, "m", std::string(501, 'x'))).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::WatchChatRequest watch;
  *watch.mutable_room() = room;
  Watcher watcher(*chat_[0], watch);
  const auto has = [&](const std::string& line) {
    return WaitFor([&] { return ScrapeMetrics().find(line) != std::string::npos; },
                   absl::Seconds(10));
  };
  EXPECT_TRUE(has("draughts_chat_messages_posted_total{role=\"player\"} 1"));
  EXPECT_TRUE(has("draughts_chat_messages_refused_total{reason=\"rate_limited\"} 1"));
  EXPECT_TRUE(has("draughts_chat_messages_refused_total{reason=\"too_long\"} 1"));
  EXPECT_TRUE(has("draughts_chat_messages_refused_total{reason=\"muted\"} 0"));
  EXPECT_TRUE(has("draughts_chat_watch_streams 1"));
}

}  // namespace
}  // namespace draughts::chat::testing
