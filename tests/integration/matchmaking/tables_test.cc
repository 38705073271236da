// Tables on real Redis with the real game_state: create, list with
// filters, join, leave, private tables and password guesses, bots.
#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "matchmaking_env.h"

namespace draughts::matchmaking::testing {
namespace {

using grpc::StatusCode;

v1::CreateTableRequest Table(const v1::Seat& creator, const std::string& variant) {
  v1::CreateTableRequest request;
  *request.mutable_requester() = creator;
  request.set_variant(variant);
  return request;
}

std::vector<std::string> ListedIds(v1::MatchmakingService::Stub& stub,
                                   v1::ListTablesRequest request) {
  std::vector<std::string> ids;
  for (int page = 0; page < 50; ++page) {
    grpc::ClientContext context;
    v1::ListTablesResponse response;
    grpc::Status status = stub.ListTables(&context, request, &response);
    EXPECT_TRUE(status.ok()) << Text(status);
    for (const v1::Table& table : response.tables()) {
      EXPECT_TRUE(table.invite_code().empty()) << "the lobby must not show invite codes";
      ids.push_back(table.table_id());
    }
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
  }
  return ids;
}

bool Contains(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

TEST(MatchmakingTables, CreateListJoinLeave) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::MatchmakingService::Stub& mm = (*cluster)->mm();
  const v1::Seat alice = Person("alice"), bob = Person("bob");

  v1::Table international;
  ASSERT_TRUE(CreateTable(mm, Table(alice, "international"), &international).ok());
  EXPECT_EQ(international.time_per_move().seconds(), 60) << "10x10 default is 1 minute";
  EXPECT_EQ(international.status(), v1::TABLE_STATUS_WAITING);
  EXPECT_GE(international.invite_code().size(), 10u) << "the creator sees the invite code";
  v1::Table english;
  ASSERT_TRUE(CreateTable(mm, Table(alice, "english"), &english).ok());
  EXPECT_EQ(english.time_per_move().seconds(), 0) << "English default is no limit";

  v1::CreateTableRequest bad = Table(alice, "english");
  bad.mutable_time_per_move()->set_seconds(120);
  grpc::Status refused = CreateTable(mm, bad, nullptr);
  EXPECT_EQ(refused.error_code(), StatusCode::INVALID_ARGUMENT) << Text(refused);
  v1::CreateTableRequest one_second = Table(alice, "international");
  one_second.mutable_time_per_move()->set_seconds(1);
  EXPECT_EQ(CreateTable(mm, one_second, nullptr).error_code(), StatusCode::INVALID_ARGUMENT)
      << "1 s is for tests only (flag off)";

  v1::ListTablesRequest by_variant;
  by_variant.set_variant("international");
  by_variant.set_page_size(1);
  std::vector<std::string> ids = ListedIds(mm, by_variant);
  EXPECT_TRUE(Contains(ids, international.table_id()));
  EXPECT_FALSE(Contains(ids, english.table_id()));
  v1::ListTablesRequest by_time;
  by_time.mutable_time_per_move()->set_seconds(30);
  EXPECT_FALSE(Contains(ListedIds(mm, by_time), international.table_id()));
  by_time.mutable_time_per_move()->set_seconds(60);
  EXPECT_TRUE(Contains(ListedIds(mm, by_time), international.table_id()));

  v1::Table joined;
  grpc::Status join = Join(mm, bob, international.table_id(), "", &joined);
  ASSERT_TRUE(join.ok()) << Text(join);
  EXPECT_EQ(joined.status(), v1::TABLE_STATUS_READY);
  EXPECT_EQ(joined.seats(1).occupant().player_id(), "bob");
  v1::ListTablesRequest open_only;
  open_only.set_open_seats_only(true);
  EXPECT_FALSE(Contains(ListedIds(mm, open_only), international.table_id()));
  EXPECT_TRUE(Contains(ListedIds(mm, open_only), english.table_id()));
  v1::Table third;
  EXPECT_EQ(Join(mm, Person("carol"), international.table_id(), "", &third).error_code(),
            StatusCode::FAILED_PRECONDITION);

  v1::Table after;
  ASSERT_TRUE(Leave(mm, bob, international.table_id(), &after).ok());
  EXPECT_EQ(after.status(), v1::TABLE_STATUS_WAITING);
  EXPECT_TRUE(after.seats(1).occupant().player_id().empty());
  ASSERT_TRUE(Leave(mm, alice, international.table_id(), &after).ok());
  EXPECT_EQ(after.status(), v1::TABLE_STATUS_CLOSED);
  EXPECT_TRUE(WaitForClosed(mm, international.table_id(), absl::Seconds(2)));
  EXPECT_FALSE(Contains(ListedIds(mm, v1::ListTablesRequest()), international.table_id()));
  grpc::Status end;
  std::vector<v1::TableEvent> events =
      WatchAll(mm, international.table_id(), absl::Seconds(10), &end);
  EXPECT_TRUE(end.ok()) << Text(end);
  ASSERT_FALSE(events.empty());
  EXPECT_TRUE(events.front().has_table_opened());
  EXPECT_TRUE(events.back().has_table_closed());
  EXPECT_EQ(events.back().table_closed().reason(), v1::TableClosed::REASON_EVERYONE_LEFT);
  for (const v1::TableEvent& event : events) EXPECT_TRUE(event.table().invite_code().empty());
}

// WatchTable holds no thread (gRPC's callback API): a draining replica must
// still end every open watch, with UNAVAILABLE, and the client resumes on
// another replica from the last event it got.
TEST(MatchmakingTables, SigtermEndsWatchesWithUnavailableAndAnotherReplicaResumes) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(2);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::Table table;
  ASSERT_TRUE(CreateTable((*cluster)->mm(1), Table(Person("erin"), "international"), &table).ok());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  v1::WatchTableRequest watch;
  watch.set_table_id(table.table_id());
  auto reader = (*cluster)->mm(0).WatchTable(&context, watch);
  v1::TableEvent opened;
  ASSERT_TRUE(reader->Read(&opened));
  ASSERT_TRUE(opened.has_table_opened());

  absl::StatusOr<int> exit_code = (*cluster)->Terminate(0);
  ASSERT_TRUE(exit_code.ok()) << exit_code.status();
  EXPECT_EQ(*exit_code, 0);
  // Events already sent may still be read (the creator's seat); then the
  // stream ends.
  std::string last_event_id = opened.event_id();
  for (v1::TableEvent more; reader->Read(&more);) last_event_id = more.event_id();
  const grpc::Status ended = reader->Finish();
  EXPECT_EQ(ended.error_code(), StatusCode::UNAVAILABLE) << Text(ended);

  ASSERT_TRUE(Join((*cluster)->mm(1), Person("finn"), table.table_id(), "", nullptr).ok());
  grpc::ClientContext resumed_context;
  resumed_context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  watch.set_from_event_id(last_event_id);
  auto resumed = (*cluster)->mm(1).WatchTable(&resumed_context, watch);
  v1::TableEvent next;
  ASSERT_TRUE(resumed->Read(&next));
  EXPECT_NE(next.event_id(), last_event_id);
  EXPECT_FALSE(next.has_table_opened());
  bool finn_seated = false;
  for (const v1::TableSeat& seat : next.table().seats()) {
    finn_seated = finn_seated || seat.occupant().player_id() == "finn";
  }
  EXPECT_TRUE(finn_seated) << next.DebugString();
}

TEST(MatchmakingTables, RetriedCreateMakesOneTable) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(2);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::CreateTableRequest request = Table(Person("dora"), "international");
  request.set_idempotency_key(Key());
  v1::Table first, second;
  ASSERT_TRUE(CreateTable((*cluster)->mm(0), request, &first).ok());
  ASSERT_TRUE(CreateTable((*cluster)->mm(1), request, &second).ok());
  EXPECT_EQ(first.table_id(), second.table_id());
  request.set_variant("english");
  EXPECT_EQ(CreateTable((*cluster)->mm(1), request, nullptr).error_code(),
            StatusCode::INVALID_ARGUMENT)
      << "same key, different request";
}

TEST(MatchmakingTables, WrongPasswordRevealsNothingAndGuessesAreLimited) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster =
      Cluster::Start(1, {"--password-guesses-per-table=3", "--password-guesses-per-player=5"});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::MatchmakingService::Stub& mm = (*cluster)->mm();
  v1::CreateTableRequest request = Table(Person("owner"), "international");
  request.set_password("open sesame");
  v1::Table table;
  ASSERT_TRUE(CreateTable(mm, request, &table).ok());
  EXPECT_TRUE(table.has_password());

  // The password is stored only as an Argon2id hash.
  absl::StatusOr<platform::RedisReply> stored = (*cluster)->redis().Command(
      {"HGET", absl::StrCat((*cluster)->prefix(), "mm:{t:", table.table_id(), "}:table"), "pw"});
  ASSERT_TRUE(stored.ok());
  EXPECT_TRUE(absl::StartsWith(stored->text(), "$argon2id$")) << stored->text();
  EXPECT_FALSE(absl::StrContains(stored->text(), "open sesame"));

  grpc::Status wrong = Join(mm, Person("g1"), table.table_id(), "guess", nullptr);
  grpc::Status unknown = Join(mm, Person("g1"), "tnosuchtable00000", "guess", nullptr);
  EXPECT_EQ(wrong.error_code(), StatusCode::PERMISSION_DENIED) << Text(wrong);
  EXPECT_EQ(unknown.error_code(), StatusCode::PERMISSION_DENIED) << Text(unknown);
  EXPECT_EQ(wrong.error_message(), unknown.error_message())
      << "a guesser cannot tell a wrong password from an unknown table";
  EXPECT_EQ(Join(mm, Person("g2"), table.table_id(), "", nullptr).error_code(),
            StatusCode::PERMISSION_DENIED)
      << "a private table needs its password";

  // Per table: two more wrong guesses by others reach the limit of 3; then
  // even the right password waits.
  EXPECT_EQ(Join(mm, Person("g2"), table.table_id(), "guess2", nullptr).error_code(),
            StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Join(mm, Person("g3"), table.table_id(), "guess3", nullptr).error_code(),
            StatusCode::PERMISSION_DENIED);
  grpc::Status limited = Join(mm, Person("friend"), table.table_id(), "open sesame", nullptr);
  EXPECT_EQ(limited.error_code(), StatusCode::RESOURCE_EXHAUSTED) << Text(limited);
  // Unknown ids are limited the same way, so the limit reveals nothing.
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(
        Join(mm, Person(absl::StrCat("u", i)), "tnosuchtable00000", "x", nullptr).error_code(),
        StatusCode::PERMISSION_DENIED);
  }
  EXPECT_EQ(Join(mm, Person("u9"), "tnosuchtable00000", "x", nullptr).error_code(),
            StatusCode::RESOURCE_EXHAUSTED);
  // Per player: g1 has 2 wrong guesses; 3 more on other ids reach 5.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Join(mm, Person("g1"), absl::StrCat("tother", i), "x", nullptr).error_code(),
              StatusCode::PERMISSION_DENIED);
  }
  EXPECT_EQ(Join(mm, Person("g1"), "tyetanother", "x", nullptr).error_code(),
            StatusCode::RESOURCE_EXHAUSTED);

  // The invite link needs no password (the code is the secret).
  v1::JoinTableRequest by_code;
  by_code.set_idempotency_key(Key());
  *by_code.mutable_requester() = Person("friend");
  by_code.set_invite_code(table.invite_code());
  v1::JoinTableResponse joined;
  grpc::ClientContext context;
  grpc::Status status = mm.JoinTable(&context, by_code, &joined);
  ASSERT_TRUE(status.ok()) << Text(status);
  EXPECT_EQ(joined.table().status(), v1::TABLE_STATUS_READY);
}

TEST(MatchmakingTables, RightPasswordJoins) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::MatchmakingService::Stub& mm = (*cluster)->mm();
  v1::CreateTableRequest request = Table(Person("host"), "english");
  request.set_password("pässwörd");
  v1::Table table;
  ASSERT_TRUE(CreateTable(mm, request, &table).ok());
  v1::Table joined;
  grpc::Status status = Join(mm, Person("pal"), table.table_id(), "pässwörd", &joined);
  ASSERT_TRUE(status.ok()) << Text(status);
  EXPECT_EQ(joined.status(), v1::TABLE_STATUS_READY);
}

TEST(MatchmakingTables, CreatorFillsSeatsWithBotsAndStarts) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(1, {"--engines=scan"});
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::MatchmakingService::Stub& mm = (*cluster)->mm();
  const v1::Seat creator = Person("solo");
  v1::Table table;
  ASSERT_TRUE(CreateTable(mm, Table(creator, "international"), &table).ok());

  v1::FillSeatsWithBotsRequest fill;
  fill.set_idempotency_key(Key());
  *fill.mutable_requester() = Person("stranger");
  fill.set_table_id(table.table_id());
  fill.set_level(v1::BOT_LEVEL_HARD);
  v1::FillSeatsWithBotsResponse filled;
  {
    grpc::ClientContext context;
    EXPECT_EQ(mm.FillSeatsWithBots(&context, fill, &filled).error_code(),
              StatusCode::PERMISSION_DENIED);
  }
  fill.set_idempotency_key(Key());
  *fill.mutable_requester() = creator;
  fill.set_engine_id("unknown-engine");
  {
    grpc::ClientContext context;
    EXPECT_EQ(mm.FillSeatsWithBots(&context, fill, &filled).error_code(), StatusCode::NOT_FOUND);
  }
  fill.set_idempotency_key(Key());
  fill.clear_engine_id();
  {
    grpc::ClientContext context;
    grpc::Status status = mm.FillSeatsWithBots(&context, fill, &filled);
    ASSERT_TRUE(status.ok()) << Text(status);
  }
  EXPECT_EQ(filled.table().status(), v1::TABLE_STATUS_READY);
  const v1::Seat& bot = filled.table().seats(1).occupant();
  EXPECT_EQ(bot.kind(), v1::SEAT_KIND_BOT);
  EXPECT_EQ(bot.bot_level(), v1::BOT_LEVEL_HARD);
  EXPECT_EQ(bot.display_name(), "Computer (Hard)");

  v1::StartGameResponse started;
  grpc::Status status = Start(mm, creator, table.table_id(), &started);
  ASSERT_TRUE(status.ok()) << Text(status);
  EXPECT_EQ(started.table().status(), v1::TABLE_STATUS_PLAYING);
  ASSERT_EQ(started.your_tokens_size(), 1) << "the creator gets their own token only";
  EXPECT_EQ(started.your_tokens(0).color(), started.table().seats(0).color());
  v1::GetGameRequest get;
  get.set_game_id(started.table().game_id());
  v1::GetGameResponse game;
  grpc::ClientContext context;
  ASSERT_TRUE((*cluster)->game().GetGame(&context, get, &game).ok());
  EXPECT_EQ(game.game().table_id(), table.table_id());
  const v1::Seat& white = game.game().white().seat();
  const v1::Seat& black = game.game().black().seat();
  EXPECT_TRUE((white.kind() == v1::SEAT_KIND_BOT) != (black.kind() == v1::SEAT_KIND_BOT));

  // A spectator sees no tokens and no invite code.
  v1::GetTableRequest spectator;
  spectator.set_table_id(table.table_id());
  v1::GetTableResponse seen;
  grpc::ClientContext spectator_context;
  ASSERT_TRUE(mm.GetTable(&spectator_context, spectator, &seen).ok());
  EXPECT_TRUE(seen.your_tokens().empty());
  EXPECT_TRUE(seen.table().invite_code().empty());
}

TEST(MatchmakingTables, LeavingDuringAGameLosesIt) {
  absl::StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  v1::MatchmakingService::Stub& mm = (*cluster)->mm();
  const v1::Seat a = Person("leaver"), b = Person("stayer");
  v1::Table table;
  ASSERT_TRUE(CreateTable(mm, Table(a, "international"), &table).ok());
  ASSERT_TRUE(Join(mm, b, table.table_id(), "", nullptr).ok());
  v1::StartGameResponse started;
  ASSERT_TRUE(Start(mm, b, table.table_id(), &started).ok());
  const v1::Color leaver_color = started.table().seats(0).color();
  ASSERT_TRUE(Leave(mm, a, table.table_id()).ok());
  v1::GetGameRequest get;
  get.set_game_id(started.table().game_id());
  v1::GetGameResponse game;
  grpc::ClientContext context;
  ASSERT_TRUE((*cluster)->game().GetGame(&context, get, &game).ok());
  EXPECT_EQ(game.game().reason(), v1::RESULT_REASON_ABANDONED);
  EXPECT_EQ(game.game().result(), leaver_color == v1::COLOR_WHITE ? v1::GAME_RESULT_BLACK_WINS
                                                                  : v1::GAME_RESULT_WHITE_WINS);
}

}  // namespace
}  // namespace draughts::matchmaking::testing
