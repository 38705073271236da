// The archive consumer on real Redis and PostgreSQL: records XADDed to a
// private results stream are archived exactly once, a stopped consumer's
// entries are taken over, a PostgreSQL outage loses nothing, and
// GetArchivedGame serves the result through a real gRPC server.
#include <google/protobuf/util/message_differencer.h>
#include <grpcpp/grpcpp.h>

#include <memory>

#include "draughts/v1/rating.grpc.pb.h"
#include "metrics_test_util.h"
#include "platform/redis_streams.h"
#include "platform/serve.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/test_env.h"
#include "rating/archiver.h"
#include "rating/pg_archive_store.h"
#include "rating/rating_service.h"
#include "rating/redis_result_source.h"
#include "rating/results_consumer.h"
#include "rating_env.h"
#include "rules/fen.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

using platform::testing::MetricValue;

using google::protobuf::util::MessageDifferencer;

ResultsConsumerOptions FastOptions() {
  ResultsConsumerOptions options;
  options.block = absl::Milliseconds(100);
  options.claim_idle = absl::Seconds(2);
  options.claim_every = absl::Milliseconds(200);
  options.initial_backoff = absl::Milliseconds(20);
  options.max_backoff = absl::Milliseconds(200);
  return options;
}

// One rating replica's consumer, in this process.
struct Replica {
  Replica(platform::PgPool* pool, const platform::RedisOptions& redis, const ResultGroup& group,
          ResultsConsumerOptions options = FastOptions())
      : store(pool),
        archiver(&store, &metrics),
        source(redis, group),
        consumer(&source, &archiver, &metrics, options) {}

  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  ArchiveMetrics metrics{*registry};
  PgArchiveStore store;
  Archiver archiver;
  RedisResultSource source;
  ResultsConsumer consumer;
};

class ArchiveConsumerTest : public RatingIntegrationTest {
 protected:
  void SetUp() override {
    RatingIntegrationTest::SetUp();
    if (HasFatalFailure()) return;
    pool_ = MakePool(2);
    ASSERT_NE(pool_, nullptr);
    // The group exists before the first XADD, as in production where the
    // service starts before games end.
    RedisResultSource creator(redis_options_, Group("creator"));
    ASSERT_TRUE(creator.CreateGroup().ok());
    ASSERT_TRUE(creator.CreateGroup().ok()) << "BUSYGROUP is fine";
  }

  std::unique_ptr<platform::PgPool> pool_;
};

TEST_F(ArchiveConsumerTest, RecordsAreArchivedOnceEvenWhenDeliveredTwice) {
  Replica replica(pool_.get(), redis_options_, Group("a"));
  const v1::ResultRecord first = PlayedRecord("g1", "international", 30, 1);
  const v1::ResultRecord second = PlayedRecord("g2", "russian", 30, 2);
  AddResult(first.SerializeAsString(), "g1");
  AddResult(first.SerializeAsString(), "g1");  // the relay forwarded it twice
  AddResult("not a record", "g-bad");
  AddResult(second.SerializeAsString(), "g2");
  v1::ResultRecord changed = first;  // a different record for an archived game
  changed.set_result(v1::GAME_RESULT_DRAW);
  AddResult(changed.SerializeAsString(), "g1");
  replica.consumer.Start();
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 2 && PendingCount() == 0; }))
      << "rows " << ArchivedRows() << ", pending " << PendingCount();
  replica.consumer.Stop();

  EXPECT_EQ(ArchivedRows("g1"), 1);
  EXPECT_EQ(ArchivedRows("g2"), 1);
  EXPECT_EQ(MetricValue(*replica.registry, "draughts_archive_games_total"), 2);
  EXPECT_EQ(MetricValue(*replica.registry, "draughts_archive_duplicates_total"), 1);
  EXPECT_EQ(MetricValue(*replica.registry, "draughts_archive_malformed_total",
                        {{"reason", "unparsable"}}),
            1);
  auto stored = replica.store.Find("g1");
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_TRUE(MessageDifferencer::Equals((*stored)->record, first));
}

TEST_F(ArchiveConsumerTest, AStoppedConsumersEntryIsClaimedAndArchivedByAnother) {
  RedisResultSource dead(redis_options_, Group("dead"));
  const v1::ResultRecord record = PlayedRecord("g-orphan");
  const std::string id = AddResult(record.SerializeAsString(), "g-orphan");
  auto read = dead.ReadNew(10, absl::Milliseconds(100));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 1u);  // read, then "died" without acknowledging
  EXPECT_EQ(read->front().id, id);

  Replica live(pool_.get(), redis_options_, Group("live"));
  live.consumer.Start();
  absl::SleepFor(absl::Milliseconds(500));
  EXPECT_EQ(ArchivedRows(), 0) << "taken before claim-idle";
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 1 && PendingCount() == 0; }))
      << "rows " << ArchivedRows() << ", pending " << PendingCount();
  live.consumer.Stop();
  EXPECT_EQ(MetricValue(*live.registry, "draughts_results_claimed_total"), 1);
  EXPECT_EQ(MetricValue(*live.registry, "draughts_archive_games_total"), 1);
}

TEST_F(ArchiveConsumerTest, ARestartedConsumerFinishesItsOwnPendingEntries) {
  const v1::ResultRecord record = PlayedRecord("g1");
  {
    RedisResultSource before(redis_options_, Group("same-name"));
    AddResult(record.SerializeAsString(), "g1");
    ASSERT_EQ(before.ReadNew(10, absl::Milliseconds(100))->size(), 1u);
  }
  ResultsConsumerOptions options = FastOptions();
  options.claim_idle = absl::Hours(1);  // only its own pending read can find it
  Replica restarted(pool_.get(), redis_options_, Group("same-name"), options);
  restarted.consumer.Start();
  EXPECT_TRUE(WaitFor([&] { return ArchivedRows() == 1 && PendingCount() == 0; }))
      << "rows " << ArchivedRows() << ", pending " << PendingCount();
  restarted.consumer.Stop();
}

TEST_F(ArchiveConsumerTest, APendingEntryDeletedFromTheStreamIsAcknowledgedNotRetriedForEver) {
  {
    RedisResultSource before(redis_options_, Group("same-name"));
    const std::string id = AddResult(PlayedRecord("g-trimmed").SerializeAsString(), "g-trimmed");
    ASSERT_EQ(before.ReadNew(10, absl::Milliseconds(100))->size(), 1u);
    ASSERT_TRUE(redis_->Command({"XDEL", stream_, id}).ok());  // trimmed while pending
  }
  AddResult(PlayedRecord("g-next").SerializeAsString(), "g-next");
  Replica restarted(pool_.get(), redis_options_, Group("same-name"));
  restarted.consumer.Start();
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 1 && PendingCount() == 0; }))
      << "rows " << ArchivedRows() << ", pending " << PendingCount();
  restarted.consumer.Stop();
  EXPECT_EQ(ArchivedRows("g-next"), 1);
  EXPECT_EQ(
      MetricValue(*restarted.registry, "draughts_archive_malformed_total", {{"reason", "no_data"}}),
      1);
}

TEST_F(ArchiveConsumerTest, ARedisRestartThatLostTheStreamLosesNoLaterResult) {
  auto binary = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
  ASSERT_TRUE(binary.ok()) << binary.status().message();
  auto redis = platform::testing::RedisServerProcess::Start(*binary);
  ASSERT_TRUE(redis.ok()) << redis.status();
  platform::RedisOptions options = *platform::ParseRedisAddress((*redis)->address());
  platform::RedisClient writer(options);
  const ResultGroup group{"results", "rating", "a"};
  RedisResultSource creator(options, group);
  ASSERT_TRUE(creator.CreateGroup().ok());
  auto add = [&](const std::string& game_id) {
    return platform::StreamAdd(
               writer, "results",
               {{"data", PlayedRecord(game_id).SerializeAsString()}, {"game_id", game_id}})
        .status();
  };

  Replica replica(pool_.get(), options, group);
  replica.consumer.Start();
  ASSERT_TRUE(add("g-before").ok());
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 1; }));

  (*redis)->Kill();
  absl::SleepFor(absl::Milliseconds(300));  // the consumer fails and backs off
  ASSERT_TRUE((*redis)->Restart().ok());    // empty: no persistence
  // game-state's relay writes the next result before the consumer is back:
  // the stream exists again, without the group.
  ASSERT_TRUE(WaitFor([&] { return add("g-after").ok(); }));
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 2; })) << "rows " << ArchivedRows();
  replica.consumer.Stop();
  EXPECT_EQ(ArchivedRows("g-after"), 1);
}

TEST_F(ArchiveConsumerTest, PostgreSQLDownThenBackLosesNothingAndWritesNothingTwice) {
  Replica replica(pool_.get(), redis_options_, Group("a"));
  replica.consumer.Start();
  AddResult(PlayedRecord("g0").SerializeAsString(), "g0");
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 1; }));

  SetLoginAllowed(false);  // ends the pool's connections and refuses new ones
  for (int i = 1; i <= 5; ++i) {
    const std::string id = "g" + std::to_string(i);
    AddResult(PlayedRecord(id, "international", 10, static_cast<unsigned>(i)).SerializeAsString(),
              id);
  }
  ASSERT_TRUE(WaitFor([&] {
    return MetricValue(*replica.registry, "draughts_archive_store_failures_total") >= 2;
  }));
  EXPECT_EQ(ArchivedRows(), 1);
  EXPECT_GE(PendingCount(), 1) << "an entry was acknowledged before it was archived";

  SetLoginAllowed(true);
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 6 && PendingCount() == 0; }))
      << "rows " << ArchivedRows() << ", pending " << PendingCount();
  replica.consumer.Stop();
  for (int i = 0; i <= 5; ++i) EXPECT_EQ(ArchivedRows("g" + std::to_string(i)), 1);
  EXPECT_EQ(MetricValue(*replica.registry, "draughts_archive_games_total"), 6);
  EXPECT_EQ(MetricValue(*replica.registry, "draughts_archive_duplicates_total"), 0);
}

TEST_F(ArchiveConsumerTest, GetArchivedGameServesTheGameAndItsPdnOverGrpc) {
  Replica replica(pool_.get(), redis_options_, Group("a"));
  const v1::ResultRecord record = PlayedRecord("g-served", "frisian", 40, 9);
  AddResult(record.SerializeAsString(), "g-served");
  replica.consumer.Start();
  ASSERT_TRUE(WaitFor([&] { return ArchivedRows() == 1; }));
  replica.consumer.Stop();

  PgArchiveStore store(pool_.get());
  RatingServiceImpl service(&store, PdnSettings{"integration"});
  platform::ServeOptions serve;
  serve.address = "127.0.0.1:0";
  auto server = platform::RunningServer::Start(serve, {&service});
  ASSERT_TRUE(server.ok()) << server.status();
  auto stub = v1::RatingService::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", (*server)->port()), grpc::InsecureChannelCredentials()));

  v1::GetArchivedGameRequest request;
  request.set_game_id("g-served");
  v1::GetArchivedGameResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub->GetArchivedGame(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(MessageDifferencer::Equals(response.game().record(), record));
  EXPECT_TRUE(response.game().has_archived_at());

  auto games = rules::ReadPdn(response.game().pdn());
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ(*games->front().FindTag("GameType"), "40");
  EXPECT_EQ(*games->front().FindTag("Site"), "integration");
  auto replayed = rules::ReplayPdnGame(games->front(), *rules::FindVariant("international"));
  ASSERT_TRUE(replayed.ok()) << replayed.error().ToString();
  EXPECT_EQ(replayed->variant().id, "frisian");
  EXPECT_EQ(rules::FormatFen(replayed->position()), record.final_fen());

  grpc::ClientContext missing_context;
  request.set_game_id("g-never");
  EXPECT_EQ(stub->GetArchivedGame(&missing_context, request, &response).error_code(),
            grpc::StatusCode::NOT_FOUND);
  (*server)->DrainAndStop(absl::ZeroDuration(), absl::Seconds(1));
}

}  // namespace
}  // namespace draughts::rating::testing
