// WatchGame (order, resume, end, shutdown, bad requests) and ListGames.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "absl/strings/str_cat.h"

#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

using ::grpc::StatusCode;

struct Watched {
  std::vector<v1::GameEvent> events;
  grpc::Status status;
};

Watched WatchAll(v1::GameService::Stub& stub, const std::string& game_id,
                 const std::string& from = "", absl::Duration deadline = absl::Seconds(5)) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(deadline));
  v1::WatchGameRequest request;
  request.set_game_id(game_id);
  request.set_from_event_id(from);
  auto reader = stub.WatchGame(&context, request);
  Watched out;
  v1::GameEvent event;
  while (reader->Read(&event)) out.events.push_back(event);
  out.status = reader->Finish();
  return out;
}

TEST_F(GameServiceTest, WatchGameStreamsEveryEventInOrderAndEndsAfterTheResult) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string id = created.game_id();
  Play(created, "32-28");
  // A watcher that joins now gets the history, then live events.
  std::thread player([&] {
    absl::SleepFor(absl::Milliseconds(100));
    Play(created, "19-23");
    grpc::ClientContext context;
    v1::ResignRequest resign;
    resign.set_game_id(id);
    resign.set_player_token(created.white_player_token());
    resign.set_expected_ply(2);
    v1::ResignResponse response;
    EXPECT_TRUE(stub_->Resign(&context, resign, &response).ok());
  });
  const Watched watched = WatchAll(*stub_, id);
  player.join();
  EXPECT_TRUE(watched.status.ok()) << StatusText(watched.status);
  ASSERT_EQ(watched.events.size(), 4u);
  EXPECT_TRUE(watched.events[0].has_game_created());
  EXPECT_EQ(watched.events[1].move_played().notation(), "32-28");
  EXPECT_EQ(watched.events[2].move_played().notation(), "19-23");
  EXPECT_TRUE(watched.events[3].has_game_ended());
  for (std::size_t i = 1; i < watched.events.size(); ++i) {
    EXPECT_EQ(watched.events[i].version(), watched.events[i - 1].version() + 1);
  }

  // Resuming after an event id sends only what came after it.
  const Watched resumed = WatchAll(*stub_, id, watched.events[1].event_id());
  EXPECT_TRUE(resumed.status.ok());
  ASSERT_EQ(resumed.events.size(), 2u);
  EXPECT_EQ(resumed.events[0].event_id(), watched.events[2].event_id());
  // Resuming from GameEnded itself: nothing more, and the stream ends at once.
  const absl::Time started = absl::Now();
  const Watched after_end = WatchAll(*stub_, id, watched.events[3].event_id());
  EXPECT_TRUE(after_end.status.ok()) << StatusText(after_end.status);
  EXPECT_TRUE(after_end.events.empty());
  EXPECT_LT(absl::Now() - started, absl::Seconds(2));
}

TEST_F(GameServiceTest, WatchGameFromPastTheLastEventFailsAtOnce) {
  const v1::CreateGameResponse live = Create(PeopleGame());
  const v1::CreateGameResponse done = Create(PeopleGame());
  grpc::ClientContext context;
  v1::ResignRequest resign;
  resign.set_game_id(done.game_id());
  resign.set_player_token(done.white_player_token());
  v1::ResignResponse resigned;
  ASSERT_TRUE(stub_->Resign(&context, resign, &resigned).ok());
  // An id newer than anything either game has (e.g. another game's, or
  // events lost with Redis): nothing is waited for.
  for (const std::string& id : {live.game_id(), done.game_id()}) {
    SCOPED_TRACE(id);
    const std::string last = Get(id).last_event_id();
    const std::string past = absl::StrCat(std::stoull(last.substr(0, last.find('-'))) + 1, "-0");
    const absl::Time started = absl::Now();
    const Watched watched = WatchAll(*stub_, id, past);
    EXPECT_EQ(watched.status.error_code(), StatusCode::FAILED_PRECONDITION)
        << StatusText(watched.status);
    EXPECT_NE(watched.status.error_message().find("GetGame"), std::string::npos);
    EXPECT_TRUE(watched.events.empty());
    EXPECT_LT(absl::Now() - started, absl::Seconds(2));
  }
  // Resuming from the live game's last event waits for the next one.
  const Watched waiting = WatchAll(*stub_, live.game_id(), Get(live.game_id()).last_event_id(),
                                   absl::Milliseconds(300));
  EXPECT_EQ(waiting.status.error_code(), StatusCode::DEADLINE_EXCEEDED);
}

TEST_F(GameServiceTest, WatchGameRefusals) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  EXPECT_EQ(WatchAll(*stub_, "").status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(WatchAll(*stub_, "nosuchgame").status.error_code(), StatusCode::NOT_FOUND);
  const Watched malformed = WatchAll(*stub_, created.game_id(), "yesterday");
  EXPECT_EQ(malformed.status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(malformed.status.error_message().find("from_event_id"), std::string::npos);
}

TEST_F(GameServiceTest, WatchGameEndsWithUnavailableOnShutdown) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  v1::WatchGameRequest request;
  request.set_game_id(created.game_id());
  auto reader = stub_->WatchGame(&context, request);
  v1::GameEvent event;
  ASSERT_TRUE(reader->Read(&event));  // GameCreated: the stream is live
  service_->BeginShutdown();
  while (reader->Read(&event)) {
  }
  const grpc::Status status = reader->Finish();
  EXPECT_EQ(status.error_code(), StatusCode::UNAVAILABLE) << StatusText(status);
  EXPECT_NE(status.error_message().find("resume"), std::string::npos);
  // New watchers are turned away at once.
  EXPECT_EQ(WatchAll(*stub_, created.game_id()).status.error_code(), StatusCode::UNAVAILABLE);
}

TEST_F(GameServiceTest, WatchGameNoticesTheClientLeaving) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const Watched watched = WatchAll(*stub_, created.game_id(), "", absl::Milliseconds(200));
  EXPECT_EQ(watched.status.error_code(), StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(watched.events.size(), 1u);
}

v1::ListGamesResponse List(v1::GameService::Stub& stub, v1::ListGamesRequest request,
                           grpc::Status* status_out = nullptr) {
  grpc::ClientContext context;
  v1::ListGamesResponse response;
  grpc::Status status = stub.ListGames(&context, request, &response);
  if (status_out != nullptr) {
    *status_out = status;
  } else {
    EXPECT_TRUE(status.ok()) << StatusText(status);
  }
  return response;
}

TEST_F(GameServiceTest, ListGamesMostRecentlyActiveFirstWithPages) {
  std::vector<v1::CreateGameResponse> games;
  for (int i = 0; i < 5; ++i) {
    games.push_back(Create(PeopleGame(i % 2 == 0 ? "international" : "english")));
    now_ += absl::Seconds(1);
  }
  // The oldest game becomes the most recently active.
  Play(games[0], "32-28");
  v1::ListGamesRequest request;
  request.set_page_size(2);
  std::vector<std::string> listed;
  for (int page = 0; page < 5; ++page) {
    const v1::ListGamesResponse response = List(*stub_, request);
    EXPECT_LE(response.games_size(), 2);
    for (const v1::GameSummary& summary : response.games()) listed.push_back(summary.game_id());
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
  }
  ASSERT_EQ(listed.size(), 5u);
  EXPECT_EQ(listed[0], games[0].game_id());
  EXPECT_EQ(listed[1], games[4].game_id());
  EXPECT_EQ(listed[4], games[1].game_id());

  v1::ListGamesRequest english;
  english.set_variant("english");
  EXPECT_EQ(List(*stub_, english).games_size(), 2);
  v1::ListGamesRequest mine;
  mine.set_player_id("alice");
  EXPECT_EQ(List(*stub_, mine).games_size(), 5);
  mine.set_player_id("nobody");
  EXPECT_EQ(List(*stub_, mine).games_size(), 0);
}

TEST_F(GameServiceTest, ListGamesHidesFinishedGamesUnlessAsked) {
  const v1::CreateGameResponse live = Create(PeopleGame());
  const v1::CreateGameResponse done = Create(PeopleGame());
  grpc::ClientContext context;
  v1::ResignRequest resign;
  resign.set_game_id(done.game_id());
  resign.set_player_token(done.white_player_token());
  v1::ResignResponse resigned;
  ASSERT_TRUE(stub_->Resign(&context, resign, &resigned).ok());
  v1::ListGamesRequest request;
  const v1::ListGamesResponse only_live = List(*stub_, request);
  ASSERT_EQ(only_live.games_size(), 1);
  EXPECT_EQ(only_live.games(0).game_id(), live.game_id());
  request.set_include_finished(true);
  EXPECT_EQ(List(*stub_, request).games_size(), 2);
}

TEST_F(GameServiceTest, ListGamesRefusals) {
  grpc::Status status;
  v1::ListGamesRequest request;
  request.set_page_size(-1);
  List(*stub_, request, &status);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  request.set_page_size(0);
  request.set_variant("chess");
  List(*stub_, request, &status);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  request.clear_variant();
  request.set_page_token("not a token");
  List(*stub_, request, &status);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  // A token used with other filters.
  for (int i = 0; i < 3; ++i) Create(PeopleGame());
  v1::ListGamesRequest paged;
  paged.set_page_size(1);
  const std::string token = List(*stub_, paged).next_page_token();
  ASSERT_FALSE(token.empty());
  paged.set_page_token(token);
  paged.set_include_finished(true);
  List(*stub_, paged, &status);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("filters"), std::string::npos);
}

}  // namespace
}  // namespace draughts::game_state::testing
