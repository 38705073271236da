// The Elo calls of RatingService through a real in-process gRPC channel
// over the in-memory store: RecordResult once per game, GetRating with its
// rank, GetLeaderboard pages and a player's own line, GetHistory pages,
// and every documented error.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "fake_archive_store.h"
#include "metrics_test_util.h"
#include "rating/rating_service.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

const absl::Time kJanuary = absl::FromUnixSeconds(1767268800);   // 2026-01-01 12:00 UTC
const absl::Time kFebruary = absl::FromUnixSeconds(1769947200);  // 2026-02-01 12:00 UTC

class RatingCallsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RatingServiceOptions options;
    options.pdn.site = "unit";
    options.metrics = &metrics_;
    options.now = [this] { return now_; };
    service_ = std::make_unique<RatingServiceImpl>(&store_, options);
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    stub_ = v1::RatingService::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
  }
  void TearDown() override { server_->Shutdown(); }

  grpc::Status Record(const v1::ResultRecord& record, v1::RecordResultResponse* response) {
    grpc::ClientContext context;
    v1::RecordResultRequest request;
    *request.mutable_record() = record;
    return stub_->RecordResult(&context, request, response);
  }
  v1::RecordResultResponse MustRecord(const v1::ResultRecord& record) {
    v1::RecordResultResponse response;
    const grpc::Status status = Record(record, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }
  grpc::Status Rating(const std::string& player, const std::string& month,
                      v1::GetRatingResponse* response,
                      const std::string& variant = "international") {
    grpc::ClientContext context;
    v1::GetRatingRequest request;
    request.set_player_id(player);
    request.set_variant(variant);
    request.set_month(month);
    return stub_->GetRating(&context, request, response);
  }
  int Elo(const std::string& player, const std::string& month = "2026-01") {
    v1::GetRatingResponse response;
    EXPECT_TRUE(Rating(player, month, &response).ok());
    return response.rating().elo();
  }
  grpc::Status Board(const v1::GetLeaderboardRequest& request,
                     v1::GetLeaderboardResponse* response) {
    grpc::ClientContext context;
    return stub_->GetLeaderboard(&context, request, response);
  }
  grpc::Status History(const v1::GetHistoryRequest& request, v1::GetHistoryResponse* response) {
    grpc::ClientContext context;
    return stub_->GetHistory(&context, request, response);
  }

  FakeArchiveStore store_;
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  ArchiveMetrics metrics_{*registry_};
  absl::Time now_ = kJanuary + absl::Hours(2);
  std::unique_ptr<RatingServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::RatingService::Stub> stub_;
};

TEST_F(RatingCallsTest, ARatedGameMovesBothRatingsOnceAndARepeatReturnsTheFirstChanges) {
  const v1::ResultRecord game =
      RatedRecord("g1", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  const v1::RecordResultResponse first = MustRecord(game);
  EXPECT_TRUE(first.applied());
  EXPECT_FALSE(first.duplicate());
  ASSERT_EQ(first.changes_size(), 2);
  EXPECT_EQ(first.changes(0).player_id(), "ann");
  EXPECT_EQ(first.changes(0).color(), v1::COLOR_WHITE);
  EXPECT_EQ(first.changes(0).elo_before(), 1500);
  EXPECT_EQ(first.changes(0).elo_after(), 1520);
  EXPECT_EQ(first.changes(1).elo_after(), 1480);
  EXPECT_EQ(first.changes(1).month(), "2026-01");

  const v1::RecordResultResponse again = MustRecord(game);
  EXPECT_TRUE(again.duplicate());
  EXPECT_TRUE(again.applied());
  ASSERT_EQ(again.changes_size(), 2);
  EXPECT_EQ(again.changes(0).elo_after(), 1520);
  EXPECT_EQ(Elo("ann"), 1520) << "a repeat changes nothing";
  EXPECT_EQ(Elo("bob"), 1480);
  EXPECT_EQ(platform::testing::MetricValue(*registry_, "draughts_rating_duplicates_skipped_total"),
            1);
  EXPECT_EQ(platform::testing::MetricValue(*registry_, "draughts_rating_results_applied_total",
                                           {{"elo", "changed"}}),
            1);
  EXPECT_EQ(platform::testing::MetricValue(*registry_, "draughts_rating_updates_total"), 2);
  EXPECT_TRUE(store_.Find("g1")->has_value()) << "recorded games are archived too";
}

TEST_F(RatingCallsTest, ADifferentRecordForAnAppliedGameIsAFailedPrecondition) {
  MustRecord(RatedRecord("g1", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kJanuary));
  v1::RecordResultResponse response;
  const grpc::Status status =
      Record(RatedRecord("g1", "ann", "bob", v1::GAME_RESULT_BLACK_WINS, kJanuary), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(status.error_message().find("g1"), std::string::npos);
  EXPECT_EQ(Elo("ann"), 1520);
}

TEST_F(RatingCallsTest, GamesAgainstBotsOrGuestsOrUnratedAreRecordedWithoutChangingElo) {
  MustRecord(RatedRecord("g0", "ann", "bob", v1::GAME_RESULT_DRAW, kJanuary));
  v1::ResultRecord guest = RatedRecord("g1", "ann", "g_x", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  guest.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
  v1::ResultRecord bot = RatedRecord("g2", "ann", "", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  bot.mutable_black()->set_kind(v1::SEAT_KIND_BOT);
  v1::ResultRecord unrated = RatedRecord("g3", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  unrated.set_rated(false);
  for (const auto* record : {&guest, &bot, &unrated}) {
    const v1::RecordResultResponse response = MustRecord(*record);
    EXPECT_FALSE(response.applied()) << record->game_id();
    EXPECT_EQ(response.changes_size(), 0);
    EXPECT_TRUE(store_.Find(record->game_id())->has_value());
  }
  v1::GetRatingResponse ann;
  ASSERT_TRUE(Rating("ann", "2026-01", &ann).ok());
  EXPECT_EQ(ann.rating().elo(), 1500);
  EXPECT_EQ(ann.rating().games(), 1);
  EXPECT_EQ(ann.rating().draws(), 1);

  v1::GetHistoryRequest request;
  request.set_player_id("ann");
  v1::GetHistoryResponse history;
  ASSERT_TRUE(History(request, &history).ok());
  EXPECT_EQ(history.entries_size(), 4) << "every game of Ann's is in her history";
  int changed = 0;
  for (const auto& entry : history.entries()) changed += entry.elo_changed() ? 1 : 0;
  EXPECT_EQ(changed, 1);
}

TEST_F(RatingCallsTest, InvalidRecordsAreRefusedAndChangeNothing) {
  const v1::ResultRecord good =
      RatedRecord("g1", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  std::vector<std::pair<v1::ResultRecord, std::string>> cases;
  cases.emplace_back(good, "game_id").first.clear_game_id();
  cases.emplace_back(good, "variant").first.clear_variant();
  cases.emplace_back(good, "not finished").first.set_result(v1::GAME_RESULT_ONGOING);
  cases.emplace_back(good, "kind").first.mutable_white()->clear_kind();
  cases.emplace_back(good, "player_id").first.mutable_black()->clear_player_id();
  cases.emplace_back(good, "finished_at").first.clear_finished_at();
  for (const auto& [record, words] : cases) {
    v1::RecordResultResponse response;
    const grpc::Status status = Record(record, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << words;
    EXPECT_NE(status.error_message().find(words), std::string::npos) << status.error_message();
  }
  EXPECT_EQ(store_.size(), 0u);
}

TEST_F(RatingCallsTest, TheStoreDownIsUnavailableForEveryCall) {
  store_.FailWith(absl::UnavailableError("PostgreSQL down"));
  v1::RecordResultResponse recorded;
  EXPECT_EQ(
      Record(RatedRecord("g1", "a", "b", v1::GAME_RESULT_DRAW, kJanuary), &recorded).error_code(),
      grpc::StatusCode::UNAVAILABLE);
  v1::GetRatingResponse rating;
  EXPECT_EQ(Rating("a", "", &rating).error_code(), grpc::StatusCode::UNAVAILABLE);
  v1::GetLeaderboardRequest board_request;
  board_request.set_variant("international");
  v1::GetLeaderboardResponse board;
  EXPECT_EQ(Board(board_request, &board).error_code(), grpc::StatusCode::UNAVAILABLE);
  v1::GetHistoryRequest history_request;
  history_request.set_player_id("a");
  v1::GetHistoryResponse history;
  EXPECT_EQ(History(history_request, &history).error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(RatingCallsTest, EachMonthStartsAfreshAndAnEmptyMonthIsTheCurrentOne) {
  MustRecord(RatedRecord("g1", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kJanuary));
  MustRecord(RatedRecord("g2", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kFebruary));
  EXPECT_EQ(Elo("ann", "2026-01"), 1520);
  EXPECT_EQ(Elo("ann", "2026-02"), 1520) << "February's first game starts from 1500 again";
  EXPECT_EQ(Elo("ann", "2026-03"), 1500);

  v1::GetRatingResponse current;
  ASSERT_TRUE(Rating("ann", "", &current).ok());
  EXPECT_EQ(current.rating().month(), "2026-01") << "the injected clock is in January";
  now_ = kFebruary;
  ASSERT_TRUE(Rating("ann", "", &current).ok());
  EXPECT_EQ(current.rating().month(), "2026-02");
  EXPECT_EQ(current.rating().games(), 1);
}

TEST_F(RatingCallsTest, GetRatingGivesTheInitialRatingUntilAGameAndThenARank) {
  v1::GetRatingResponse nobody;
  ASSERT_TRUE(Rating("nobody", "2026-01", &nobody).ok());
  EXPECT_EQ(nobody.rating().elo(), 1500);
  EXPECT_EQ(nobody.rating().games(), 0);
  EXPECT_EQ(nobody.rating().player_id(), "nobody");
  EXPECT_EQ(nobody.rank(), 0);

  MustRecord(RatedRecord("g1", "ann", "bob", v1::GAME_RESULT_BLACK_WINS, kJanuary));
  v1::GetRatingResponse bob;
  ASSERT_TRUE(Rating("bob", "2026-01", &bob).ok());
  EXPECT_EQ(bob.rank(), 1);
  EXPECT_EQ(bob.rating().display_name(), "bob name");
  EXPECT_EQ(bob.rating().wins(), 1);
  v1::GetRatingResponse ann;
  ASSERT_TRUE(Rating("ann", "2026-01", &ann).ok());
  EXPECT_EQ(ann.rank(), 2);

  struct Bad {
    std::string player, month, variant, words;
  };
  for (const Bad& bad :
       {Bad{"", "2026-01", "international", "player_id"}, Bad{"ann", "2026-01", "", "variant"},
        Bad{"ann", "2026-1", "international", "month"},
        Bad{"ann", "2026-13", "international", "month"}}) {
    v1::GetRatingResponse response;
    const grpc::Status status = Rating(bad.player, bad.month, &response, bad.variant);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad.words;
    EXPECT_NE(status.error_message().find(bad.words), std::string::npos) << status.error_message();
  }
}

TEST_F(RatingCallsTest, LeaderboardPagesCoverEveryoneOnceInOrderWithTheirOwnRank) {
  // p00 beats everyone, p01 everyone but p00, ...: a strict order.
  int game = 0;
  for (int i = 0; i < 7; ++i) {
    for (int j = i + 1; j < 7; ++j) {
      MustRecord(RatedRecord(absl::StrCat("g", game++), absl::StrCat("p0", i),
                             absl::StrCat("p0", j), v1::GAME_RESULT_WHITE_WINS, kJanuary));
    }
  }
  MustRecord(
      RatedRecord("other-variant", "p06", "p05", v1::GAME_RESULT_WHITE_WINS, kJanuary, "russian"));
  v1::GetLeaderboardRequest request;
  request.set_variant("international");
  request.set_month("2026-01");
  request.set_page_size(3);
  request.set_player_id("p04");
  std::vector<v1::LeaderboardEntry> all;
  for (int page = 0; page < 5; ++page) {
    v1::GetLeaderboardResponse response;
    const grpc::Status status = Board(request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_LE(response.entries_size(), 3);
    EXPECT_EQ(response.player().rank(), 5);
    EXPECT_EQ(response.player().rating().player_id(), "p04");
    all.insert(all.end(), response.entries().begin(), response.entries().end());
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
  }
  ASSERT_EQ(all.size(), 7u);
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].rank(), static_cast<int>(i) + 1);
    EXPECT_EQ(all[i].rating().player_id(), absl::StrCat("p0", i));
    if (i > 0) {
      EXPECT_LE(all[i].rating().elo(), all[i - 1].rating().elo());
    }
  }

  // A token with other filters, a damaged one, a negative size.
  v1::GetLeaderboardResponse response;
  request.set_month("2026-02");
  EXPECT_EQ(Board(request, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  request.set_month("2026-01");
  request.set_page_token("not-a-token");
  EXPECT_EQ(Board(request, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  request.clear_page_token();
  request.set_page_size(-1);
  EXPECT_EQ(Board(request, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  request.set_page_size(0);
  request.clear_variant();
  EXPECT_EQ(Board(request, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  request.set_variant("international");
  request.set_month("January");
  EXPECT_EQ(Board(request, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(RatingCallsTest, HistoryPagesAreNewestFirstAndFilterByRuleSet) {
  for (int i = 0; i < 5; ++i) {
    MustRecord(RatedRecord(absl::StrCat("g", i), "ann", "bob", v1::GAME_RESULT_WHITE_WINS,
                           kJanuary + absl::Minutes(i), i % 2 == 0 ? "international" : "russian"));
  }
  v1::GetHistoryRequest request;
  request.set_player_id("ann");
  request.set_page_size(2);
  std::vector<std::string> seen;
  for (int page = 0; page < 5; ++page) {
    v1::GetHistoryResponse response;
    ASSERT_TRUE(History(request, &response).ok());
    for (const auto& entry : response.entries()) {
      seen.push_back(entry.game_id());
      EXPECT_EQ(entry.color(), v1::COLOR_WHITE);
      EXPECT_EQ(entry.outcome(), v1::OUTCOME_WIN);
      EXPECT_EQ(entry.opponent().player_id(), "bob");
      EXPECT_TRUE(entry.elo_changed());
      EXPECT_GT(entry.elo_after(), entry.elo_before());
    }
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"g4", "g3", "g2", "g1", "g0"}));

  v1::GetHistoryRequest russian;
  russian.set_player_id("ann");
  russian.set_variant("russian");
  v1::GetHistoryResponse response;
  ASSERT_TRUE(History(russian, &response).ok());
  ASSERT_EQ(response.entries_size(), 2);
  EXPECT_EQ(response.entries(0).game_id(), "g3");
  EXPECT_TRUE(response.next_page_token().empty());

  request.set_variant("russian");  // the token was for all rule sets
  EXPECT_EQ(History(request, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::GetHistoryRequest empty;
  EXPECT_EQ(History(empty, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  empty.set_player_id("ann");
  empty.set_page_size(-5);
  EXPECT_EQ(History(empty, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace draughts::rating::testing
