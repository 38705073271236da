// StreamConsumer (Redis consumer groups) against a real redis-server
// (DRAUGHTS_TEST_REDIS), plus a private one killed and restarted
// (DRAUGHTS_TEST_REDIS_SERVER).
#include "platform/redis_consumer_group.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/redis_client.h"
#include "platform/redis_streams.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

using platform::testing::RedisServerProcess;
using platform::testing::RequiredTestEnv;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

// The shared server is used by other tests at the same time: keys are
// namespaced per process and test.
std::string TestKey(std::string_view name) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return absl::StrCat("platform-test:", ::getpid(), ":", info->name(), ":", std::string(name));
}

std::vector<std::string> Ids(const std::vector<StreamEntry>& entries) {
  std::vector<std::string> ids;
  for (const StreamEntry& entry : entries) ids.push_back(entry.id);
  return ids;
}

class ConsumerGroupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto address = RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    ASSERT_TRUE(address.ok()) << address.status().message();
    auto options = ParseRedisAddress(*address);
    ASSERT_TRUE(options.ok()) << options.status();
    options_ = *options;
    redis_ = std::make_unique<RedisClient>(options_);
    stream_ = TestKey("jobs");
  }
  void TearDown() override {
    if (redis_ != nullptr) redis_->Command({"DEL", stream_}).IgnoreError();
  }

  StreamConsumer Consumer(std::string name, std::string group = "workers",
                          std::string start_id = "0") {
    return StreamConsumer({stream_, std::move(group), std::move(name), std::move(start_id)});
  }

  std::vector<std::string> AddJobs(int n) {
    std::vector<std::string> ids;
    for (int i = 0; i < n; ++i) {
      auto id = StreamAdd(*redis_, stream_, {{"data", absl::StrCat("job-", i)}, {"game_id", "g1"}});
      EXPECT_TRUE(id.ok()) << id.status();
      ids.push_back(id.value_or(""));
    }
    return ids;
  }

  RedisOptions options_;
  std::unique_ptr<RedisClient> redis_;
  std::string stream_;
};

TEST_F(ConsumerGroupTest, CreatingTheGroupTwiceIsOkAndKeepsItsPosition) {
  StreamConsumer a = Consumer("a");
  ASSERT_TRUE(a.CreateGroup(*redis_).ok());
  std::vector<std::string> ids = AddJobs(2);
  auto first = a.ReadNew(*redis_, 1, absl::ZeroDuration());
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_THAT(Ids(*first), ElementsAre(ids[0]));
  // A second replica starting up creates it again: no error, no rewind.
  ASSERT_TRUE(Consumer("b").CreateGroup(*redis_).ok());
  auto rest = Consumer("b").ReadNew(*redis_, 10, absl::ZeroDuration());
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_THAT(Ids(*rest), ElementsAre(ids[1]));
}

TEST_F(ConsumerGroupTest, StartIdChoosesWhetherEntriesFromBeforeTheGroupAreDelivered) {
  std::vector<std::string> before = AddJobs(2);
  StreamConsumer whole = Consumer("w", "from-start", "0");
  StreamConsumer fresh = Consumer("f", "only-new", "$");
  ASSERT_TRUE(whole.CreateGroup(*redis_).ok());
  ASSERT_TRUE(fresh.CreateGroup(*redis_).ok());
  std::vector<std::string> after = AddJobs(1);
  EXPECT_THAT(Ids(whole.ReadNew(*redis_, 10, absl::ZeroDuration()).value()),
              ElementsAre(before[0], before[1], after[0]));
  EXPECT_THAT(Ids(fresh.ReadNew(*redis_, 10, absl::ZeroDuration()).value()), ElementsAre(after[0]));
}

TEST_F(ConsumerGroupTest, EntriesCarryTheirFields) {
  StreamConsumer a = Consumer("a");
  ASSERT_TRUE(a.CreateGroup(*redis_).ok());
  std::string payload("\0\x01proto\xff", 8);
  ASSERT_TRUE(StreamAdd(*redis_, stream_, {{"data", payload}, {"game_id", "g42"}}).ok());
  auto got = a.ReadNew(*redis_, 1, absl::ZeroDuration());
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 1u);
  ASSERT_NE((*got)[0].Find("data"), nullptr);
  EXPECT_EQ(*(*got)[0].Find("data"), payload);
  EXPECT_EQ(*(*got)[0].Find("game_id"), "g42");
  EXPECT_EQ((*got)[0].Find("missing"), nullptr);
}

TEST_F(ConsumerGroupTest, TwoConsumersShareEntriesWithoutOverlap) {
  StreamConsumer a = Consumer("a");
  StreamConsumer b = Consumer("b");
  ASSERT_TRUE(a.CreateGroup(*redis_).ok());
  std::vector<std::string> ids = AddJobs(20);
  RedisClient other(options_);
  std::set<std::string> seen_a, seen_b;
  for (int round = 0; round < 20; ++round) {
    auto got_a = a.ReadNew(*redis_, 3, absl::ZeroDuration());
    auto got_b = b.ReadNew(other, 2, absl::ZeroDuration());
    ASSERT_TRUE(got_a.ok() && got_b.ok());
    for (const StreamEntry& entry : *got_a) seen_a.insert(entry.id);
    for (const StreamEntry& entry : *got_b) seen_b.insert(entry.id);
  }
  EXPECT_EQ(seen_a.size(), 12u);
  EXPECT_EQ(seen_b.size(), 8u);
  std::set<std::string> all = seen_a;
  for (const std::string& id : seen_b)
    EXPECT_TRUE(all.insert(id).second) << id << " delivered twice";
  EXPECT_EQ(all, std::set<std::string>(ids.begin(), ids.end()));
  auto summary = a.Pending(*redis_);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->count, 20);
  EXPECT_EQ(summary->min_id, ids.front());
  EXPECT_EQ(summary->max_id, ids.back());
  EXPECT_THAT(summary->per_consumer, ElementsAre(Pair("a", 12), Pair("b", 8)));
}

TEST_F(ConsumerGroupTest, AckedEntriesAreNotRedelivered) {
  StreamConsumer a = Consumer("a");
  ASSERT_TRUE(a.CreateGroup(*redis_).ok());
  std::vector<std::string> ids = AddJobs(3);
  auto got = a.ReadNew(*redis_, 10, absl::ZeroDuration());
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ(a.Ack(*redis_, {ids[0], ids[2]}).value(), 2);
  EXPECT_EQ(a.Ack(*redis_, {ids[0]}).value(), 0);  // already done: not an error
  EXPECT_EQ(a.Ack(*redis_, {}).value(), 0);

  // Only the unacked one is still this consumer's, and nobody can claim
  // the acked ones even with no idle time at all.
  EXPECT_THAT(Ids(a.ReadPending(*redis_, 10).value()), ElementsAre(ids[1]));
  auto claimed = Consumer("b").ClaimIdle(*redis_, absl::ZeroDuration());
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_THAT(Ids(claimed->entries), ElementsAre(ids[1]));
  ASSERT_TRUE(Consumer("b").Ack(*redis_, {ids[1]}).ok());
  EXPECT_THAT(a.ReadNew(*redis_, 10, absl::ZeroDuration()).value(), IsEmpty());
  EXPECT_THAT(a.ReadPending(*redis_, 10).value(), IsEmpty());
  EXPECT_EQ(a.Pending(*redis_)->count, 0);
  EXPECT_EQ(a.Pending(*redis_)->min_id, "");
}

TEST_F(ConsumerGroupTest, DeadConsumersEntriesAreClaimedAfterTheIdleTimeoutAndNotBefore) {
  StreamConsumer dead = Consumer("dead");
  StreamConsumer alive = Consumer("alive");
  ASSERT_TRUE(dead.CreateGroup(*redis_).ok());
  std::vector<std::string> ids = AddJobs(3);
  ASSERT_EQ(dead.ReadNew(*redis_, 2, absl::ZeroDuration())->size(), 2u);  // then it "dies"

  const absl::Duration timeout = absl::Milliseconds(600);
  auto early = alive.ClaimIdle(*redis_, timeout);
  ASSERT_TRUE(early.ok()) << early.status();
  EXPECT_THAT(early->entries, IsEmpty());
  // The third entry was never delivered: it is for ReadNew, not a claim.
  EXPECT_THAT(Ids(alive.ReadNew(*redis_, 10, absl::ZeroDuration()).value()), ElementsAre(ids[2]));
  ASSERT_EQ(alive.Ack(*redis_, {ids[2]}).value(), 1);

  absl::SleepFor(timeout + absl::Milliseconds(100));
  auto late = alive.ClaimIdle(*redis_, timeout);
  ASSERT_TRUE(late.ok()) << late.status();
  EXPECT_THAT(Ids(late->entries), ElementsAre(ids[0], ids[1]));
  EXPECT_EQ(*late->entries[0].Find("data"), "job-0");
  EXPECT_EQ(late->next_cursor, "0-0");  // scanned the whole pending list
  EXPECT_THAT(late->deleted_ids, IsEmpty());

  // They are the living consumer's now, delivered twice, no longer the dead one's.
  auto pending = alive.PendingEntries(*redis_, 10, absl::ZeroDuration(), "alive");
  ASSERT_TRUE(pending.ok()) << pending.status();
  ASSERT_EQ(pending->size(), 2u);
  EXPECT_EQ((*pending)[0], (PendingEntry{ids[0], "alive", (*pending)[0].idle, 2}));
  EXPECT_EQ((*pending)[1].id, ids[1]);
  EXPECT_LT((*pending)[1].idle, timeout);
  EXPECT_THAT(dead.ReadPending(*redis_, 10).value(), IsEmpty());
  // Claiming reset their idle time: a third consumer cannot take them yet.
  EXPECT_THAT(Consumer("third").ClaimIdle(*redis_, timeout)->entries, IsEmpty());
  auto idle_only = alive.PendingEntries(*redis_, 10, timeout);
  ASSERT_TRUE(idle_only.ok()) << idle_only.status();
  EXPECT_THAT(*idle_only, IsEmpty());
}

TEST_F(ConsumerGroupTest, ClaimPagesWithItsCursorAndReportsDeletedEntries) {
  StreamConsumer dead = Consumer("dead");
  StreamConsumer alive = Consumer("alive");
  ASSERT_TRUE(dead.CreateGroup(*redis_).ok());
  std::vector<std::string> ids = AddJobs(5);
  ASSERT_EQ(dead.ReadNew(*redis_, 5, absl::ZeroDuration())->size(), 5u);
  ASSERT_EQ(redis_->Command({"XDEL", stream_, ids[1]})->AsInteger().value(), 1);

  std::vector<std::string> claimed, deleted;
  std::string cursor = "0-0";
  for (int page = 0; page < 10; ++page) {
    auto got = alive.ClaimIdle(*redis_, absl::ZeroDuration(), cursor, 2);
    ASSERT_TRUE(got.ok()) << got.status();
    for (const StreamEntry& entry : got->entries) claimed.push_back(entry.id);
    deleted.insert(deleted.end(), got->deleted_ids.begin(), got->deleted_ids.end());
    cursor = got->next_cursor;
    if (cursor == "0-0") break;
  }
  EXPECT_EQ(cursor, "0-0");
  EXPECT_THAT(claimed, ElementsAre(ids[0], ids[2], ids[3], ids[4]));
  EXPECT_THAT(deleted, ElementsAre(ids[1]));
}

TEST_F(ConsumerGroupTest, RestartedConsumerGetsItsOwnPendingEntriesBackPageByPage) {
  StreamConsumer a = Consumer("a");
  ASSERT_TRUE(a.CreateGroup(*redis_).ok());
  std::vector<std::string> ids = AddJobs(3);
  ASSERT_EQ(a.ReadNew(*redis_, 3, absl::ZeroDuration())->size(), 3u);
  ASSERT_EQ(Consumer("b").ReadNew(*redis_, 3, absl::ZeroDuration())->size(), 0u);

  StreamConsumer restarted = Consumer("a");
  RedisClient fresh(options_);
  auto page1 = restarted.ReadPending(fresh, 2);
  ASSERT_TRUE(page1.ok()) << page1.status();
  EXPECT_THAT(Ids(*page1), ElementsAre(ids[0], ids[1]));
  EXPECT_EQ(*(*page1)[1].Find("data"), "job-1");
  auto page2 = restarted.ReadPending(fresh, 2, page1->back().id);
  EXPECT_THAT(Ids(page2.value()), ElementsAre(ids[2]));
  // Reading its history again does not move anything to anyone else.
  EXPECT_THAT(Consumer("b").ReadPending(fresh, 10).value(), IsEmpty());
}

TEST_F(ConsumerGroupTest, ASecondGroupGetsEveryEntryToo) {
  StreamConsumer rating = Consumer("r1", "rating");
  StreamConsumer matchmaking = Consumer("m1", "matchmaking");
  ASSERT_TRUE(rating.CreateGroup(*redis_).ok());
  ASSERT_TRUE(matchmaking.CreateGroup(*redis_).ok());
  std::vector<std::string> ids = AddJobs(4);
  auto by_rating = rating.ReadNew(*redis_, 10, absl::ZeroDuration());
  ASSERT_TRUE(rating.Ack(*redis_, Ids(*by_rating)).ok());
  EXPECT_THAT(Ids(*by_rating), ::testing::ContainerEq(ids));
  // Acks in one group do not touch the other.
  EXPECT_THAT(Ids(matchmaking.ReadNew(*redis_, 10, absl::ZeroDuration()).value()),
              ::testing::ContainerEq(ids));
  auto groups = ListConsumerGroups(*redis_, stream_);
  ASSERT_TRUE(groups.ok()) << groups.status();
  ASSERT_EQ(groups->size(), 2u);
}

TEST_F(ConsumerGroupTest, BlockingReadReturnsWhenAnEntryArrives) {
  StreamConsumer a = Consumer("a");
  ASSERT_TRUE(a.CreateGroup(*redis_).ok());
  absl::Time begin = absl::Now();
  auto idle = a.ReadNew(*redis_, 1, absl::Milliseconds(300));
  ASSERT_TRUE(idle.ok()) << idle.status();
  EXPECT_THAT(*idle, IsEmpty());
  EXPECT_GE(absl::Now() - begin, absl::Milliseconds(280));

  std::thread writer([&] {
    absl::SleepFor(absl::Milliseconds(200));
    RedisClient other(options_);
    StreamAdd(other, stream_, {{"data", "late"}}).IgnoreError();
  });
  begin = absl::Now();
  auto woken = a.ReadNew(*redis_, 1, absl::Seconds(10));
  writer.join();
  ASSERT_TRUE(woken.ok()) << woken.status();
  ASSERT_EQ(woken->size(), 1u);
  EXPECT_EQ(*(*woken)[0].Find("data"), "late");
  EXPECT_LT(absl::Now() - begin, absl::Seconds(5));
}

TEST_F(ConsumerGroupTest, InfoReportsPendingAndLag) {
  StreamConsumer a = Consumer("a");
  ASSERT_TRUE(a.CreateGroup(*redis_).ok());
  std::vector<std::string> ids = AddJobs(5);
  ASSERT_EQ(a.ReadNew(*redis_, 2, absl::ZeroDuration())->size(), 2u);
  ASSERT_TRUE(a.Ack(*redis_, {ids[0]}).ok());
  auto info = a.Info(*redis_);
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->name, "workers");
  EXPECT_EQ(info->consumers, 1);
  EXPECT_EQ(info->pending, 1);
  EXPECT_EQ(info->last_delivered_id, ids[1]);
  // Redis 7 (the version the project runs) reports the backlog.
  ASSERT_TRUE(info->lag.has_value());
  EXPECT_EQ(*info->lag, 3);
  EXPECT_EQ(info->entries_read, 2);
}

TEST_F(ConsumerGroupTest, BadArgumentsAndMissingThingsAreClearErrors) {
  StreamConsumer a = Consumer("a");
  EXPECT_EQ(a.ReadNew(*redis_, 0, absl::ZeroDuration()).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(a.ReadNew(*redis_, 1, absl::Seconds(-1)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(a.ReadPending(*redis_, 1, ">").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(a.ClaimIdle(*redis_, absl::Seconds(-1)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      StreamConsumer({stream_, "g", ""}).ReadNew(*redis_, 1, absl::ZeroDuration()).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(StreamConsumer({"", "g", "c"}).CreateGroup(*redis_).code(),
            absl::StatusCode::kInvalidArgument);
  // Nothing was created by the refused calls.
  EXPECT_EQ(redis_->Command({"EXISTS", stream_})->AsInteger().value(), 0);
  EXPECT_EQ(a.Info(*redis_).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(a.Pending(*redis_).status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(Consumer("x", "other").CreateGroup(*redis_).ok());
  EXPECT_EQ(a.Info(*redis_).status().code(), absl::StatusCode::kNotFound);
  // A key of another type is not a stream.
  std::string plain = TestKey("plain");
  ASSERT_TRUE(redis_->Command({"SET", plain, "x"}).ok());
  EXPECT_EQ(StreamConsumer({plain, "g", "c"}).CreateGroup(*redis_).code(),
            absl::StatusCode::kInternal);
  redis_->Command({"DEL", plain}).IgnoreError();
}

TEST_F(ConsumerGroupTest, ReadingRecreatesAGroupThatVanished) {
  StreamConsumer a = Consumer("a");
  ASSERT_TRUE(a.CreateGroup(*redis_).ok());
  ASSERT_TRUE(redis_->Command({"XGROUP", "DESTROY", stream_, "workers"}).ok());
  std::vector<std::string> ids = AddJobs(1);
  auto got = a.ReadNew(*redis_, 10, absl::ZeroDuration());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_THAT(Ids(*got), ElementsAre(ids[0]));  // start_id "0": nothing lost
}

// --- a private server we can kill ---

TEST(PrivateRedisConsumerGroupTest, RedisDownIsUnavailableThenReadingRecovers) {
  auto binary = RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
  ASSERT_TRUE(binary.ok()) << binary.status().message();
  auto server = RedisServerProcess::Start(*binary);
  ASSERT_TRUE(server.ok()) << server.status();
  RedisOptions options;
  options.port = (*server)->port();
  options.connect_attempts = 2;
  options.initial_backoff = absl::Milliseconds(20);
  RedisClient redis(options);
  StreamConsumer worker({"jobs", "bot", "w1"});
  ASSERT_TRUE(worker.CreateGroup(redis).ok());
  ASSERT_TRUE(StreamAdd(redis, "jobs", {{"data", "before"}}).ok());
  ASSERT_EQ(worker.ReadNew(redis, 10, absl::ZeroDuration())->size(), 1u);

  (*server)->Kill();
  EXPECT_EQ(worker.ReadNew(redis, 10, absl::Milliseconds(100)).status().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(worker.Ack(redis, {"1-0"}).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(worker.ClaimIdle(redis, absl::Seconds(1)).status().code(),
            absl::StatusCode::kUnavailable);

  // Back without its data (no persistence): the group is created again by
  // the next read and new work flows.
  ASSERT_TRUE((*server)->Restart().ok());
  ASSERT_TRUE(StreamAdd(redis, "jobs", {{"data", "after"}}).ok());
  auto got = worker.ReadNew(redis, 10, absl::ZeroDuration());
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ(*(*got)[0].Find("data"), "after");
}

}  // namespace
}  // namespace draughts::platform
