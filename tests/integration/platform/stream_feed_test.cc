// RedisStreamFeed against a real redis-server (DRAUGHTS_TEST_REDIS): live
// delivery through the one tailer, catch-up from a resume point, many
// streams and subscribers, letting go of streams nobody watches, and the
// change channel (only notified streams read between sweeps; notices lost
// while the subscriber reconnects made up for).
#include "platform/stream_feed.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "platform/redis_streams.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

std::string TestKey(std::string_view name) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return absl::StrCat("platform-test:", ::getpid(), ":", info->name(), ":", std::string(name));
}

std::vector<std::string> Values(const std::vector<StreamEntry>& entries) {
  std::vector<std::string> values;
  for (const StreamEntry& entry : entries) {
    const std::string* value = entry.Find("v");
    values.push_back(value == nullptr ? "?" : *value);
  }
  return values;
}

// Collects entries until `count` came or `timeout` passed.
std::vector<std::string> Collect(StreamSubscription& subscription, std::size_t count,
                                 absl::Duration timeout = absl::Seconds(5)) {
  std::vector<std::string> got;
  const absl::Time deadline = absl::Now() + timeout;
  while (got.size() < count && absl::Now() < deadline) {
    absl::StatusOr<std::vector<StreamEntry>> next = subscription.Next(absl::Milliseconds(200));
    if (!next.ok()) {
      ADD_FAILURE() << next.status();
      break;
    }
    for (const std::string& value : Values(*next)) got.push_back(value);
  }
  return got;
}

class StreamFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto address = testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    ASSERT_TRUE(address.ok()) << address.status().message();
    auto options = ParseRedisAddress(*address);
    ASSERT_TRUE(options.ok()) << options.status();
    options_ = *options;
    pool_ = std::make_unique<RedisPool>(options_, 4);
    redis_ = std::make_unique<RedisClient>(options_);
  }
  void TearDown() override {
    for (const std::string& key : keys_) redis_->Command({"DEL", key}).IgnoreError();
  }

  std::string Key(std::string_view name) {
    keys_.push_back(TestKey(name));
    return keys_.back();
  }
  std::string Add(const std::string& key, const std::string& value) {
    absl::StatusOr<std::string> id = StreamAdd(*redis_, key, {{"v", value}});
    EXPECT_TRUE(id.ok()) << id.status();
    return id.value_or("");
  }

  RedisOptions options_;
  std::unique_ptr<RedisPool> pool_;
  std::unique_ptr<RedisClient> redis_;
  std::vector<std::string> keys_;
};

TEST_F(StreamFeedTest, DeliversWhatWasThereAndWhatComesAfter) {
  RedisStreamFeed feed(pool_.get(), options_);
  const std::string key = Key("chat");
  Add(key, "a");
  Add(key, "b");
  absl::StatusOr<StreamEnds> ends = feed.ReadEnds(key);
  ASSERT_TRUE(ends.ok()) << ends.status();
  ASSERT_TRUE(ends->first.has_value() && ends->last.has_value());
  EXPECT_EQ(*ends->first->Find("v"), "a");
  EXPECT_EQ(*ends->last->Find("v"), "b");
  auto subscription = feed.Subscribe(key, std::nullopt, ends->LastId());
  ASSERT_TRUE(subscription.ok()) << subscription.status();
  EXPECT_EQ(Collect(**subscription, 2), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(feed.watched_streams(), 1);
  Add(key, "c");
  Add(key, "d");
  EXPECT_EQ(Collect(**subscription, 2), (std::vector<std::string>{"c", "d"}));
  subscription->reset();
  EXPECT_EQ(feed.watched_streams(), 0);
}

TEST_F(StreamFeedTest, ResumesAfterAGivenEntryAndCatchesUpInPages) {
  StreamFeedOptions options;
  options.read_count = 3;
  RedisStreamFeed feed(pool_.get(), options_, options);
  const std::string key = Key("events");
  std::string resume;
  for (int i = 0; i < 10; ++i) {
    const std::string id = Add(key, absl::StrCat(i));
    if (i == 2) resume = id;
  }
  absl::StatusOr<EventId> after = ParseEventId(resume);
  ASSERT_TRUE(after.ok());
  absl::StatusOr<StreamEnds> ends = feed.ReadEnds(key);
  ASSERT_TRUE(ends.ok());
  auto subscription = feed.Subscribe(key, *after, ends->LastId());
  ASSERT_TRUE(subscription.ok());
  EXPECT_EQ(Collect(**subscription, 7),
            (std::vector<std::string>{"3", "4", "5", "6", "7", "8", "9"}));
  Add(key, "10");
  EXPECT_EQ(Collect(**subscription, 1), (std::vector<std::string>{"10"}));
}

TEST_F(StreamFeedTest, OneTailerServesManyStreamsAndSubscribers) {
  RedisStreamFeed feed(pool_.get(), options_);
  const std::string first = Key("one");
  const std::string second = Key("two");
  Add(first, "x");
  Add(second, "y");
  std::vector<std::unique_ptr<StreamSubscription>> subscriptions;
  for (const std::string& key : {first, first, second}) {
    absl::StatusOr<StreamEnds> ends = feed.ReadEnds(key);
    ASSERT_TRUE(ends.ok());
    auto subscription = feed.Subscribe(key, ParseEventId(ends->last->id).value(), ends->LastId());
    ASSERT_TRUE(subscription.ok());
    subscriptions.push_back(*std::move(subscription));
  }
  EXPECT_EQ(feed.watched_streams(), 2);
  for (auto& subscription : subscriptions) {
    absl::StatusOr<std::vector<StreamEntry>> none = subscription->Next(absl::Milliseconds(1));
    ASSERT_TRUE(none.ok()) << none.status();
    EXPECT_TRUE(none->empty());  // caught up: from now on fed by the tailer
  }
  // Added after catching up: only the tailer can bring these.
  Add(first, "1");
  Add(second, "2");
  EXPECT_EQ(Collect(*subscriptions[0], 1, absl::Seconds(2)), (std::vector<std::string>{"1"}));
  EXPECT_EQ(Collect(*subscriptions[1], 1, absl::Seconds(2)), (std::vector<std::string>{"1"}));
  EXPECT_EQ(Collect(*subscriptions[2], 1, absl::Seconds(2)), (std::vector<std::string>{"2"}));
  subscriptions.pop_back();
  EXPECT_EQ(feed.watched_streams(), 1);
}

// With a change channel and sweeps an hour apart, only a stream whose key
// was published is read: what arrives came through the channel.
class StreamFeedChannelTest : public StreamFeedTest {
 protected:
  void SetUp() override {
    StreamFeedTest::SetUp();
    channel_ = TestKey("changed");
  }
  StreamFeedOptions Options() const {
    return {.change_channel = channel_, .sweep_interval = absl::Hours(1)};
  }
  void Publish(const std::string& key) {
    ASSERT_TRUE(redis_->Command({"PUBLISH", channel_, key}).ok());
  }
  // Until the feed's subscriber listens (it sweeps once it does).
  void WaitListening(int listeners = 1) {
    const absl::Time deadline = absl::Now() + absl::Seconds(5);
    while (absl::Now() < deadline) {
      absl::StatusOr<RedisReply> count = redis_->Command({"PUBSUB", "NUMSUB", channel_});
      ASSERT_TRUE(count.ok()) << count.status();
      if (count->elements().size() == 2 && count->elements()[1].integer() == listeners) return;
      absl::SleepFor(absl::Milliseconds(10));
    }
    FAIL() << "the feed never subscribed to " << channel_;
  }
  std::unique_ptr<StreamSubscription> CaughtUp(RedisStreamFeed& feed, const std::string& key) {
    Add(key, "before");
    absl::StatusOr<StreamEnds> ends = feed.ReadEnds(key);
    EXPECT_TRUE(ends.ok()) << ends.status();
    auto subscription = feed.Subscribe(key, ends->LastId(), ends->LastId());
    EXPECT_TRUE(subscription.ok()) << subscription.status();
    absl::StatusOr<std::vector<StreamEntry>> none = (*subscription)->Next(absl::Milliseconds(1));
    EXPECT_TRUE(none.ok() && none->empty());
    return *std::move(subscription);
  }

  std::string channel_;
};

TEST_F(StreamFeedChannelTest, ReadsTheStreamsNamedOnTheChannelAndOnlyThose) {
  RedisStreamFeed feed(pool_.get(), options_, Options());
  WaitListening();
  const std::string told = Key("told");
  const std::string untold = Key("untold");
  auto told_subscription = CaughtUp(feed, told);
  auto untold_subscription = CaughtUp(feed, untold);
  // Let the reads of the two new streams pass: from now on only notices
  // bring the tailer back.
  absl::SleepFor(absl::Milliseconds(300));
  Add(untold, "quiet");
  Add(told, "1");
  Publish(told);
  EXPECT_EQ(Collect(*told_subscription, 1, absl::Seconds(2)), (std::vector<std::string>{"1"}));
  EXPECT_EQ(Collect(*untold_subscription, 1, absl::Milliseconds(500)), std::vector<std::string>{});
  Publish(untold);
  EXPECT_EQ(Collect(*untold_subscription, 1, absl::Seconds(2)),
            (std::vector<std::string>{"quiet"}));
  // A notice for a stream nobody here watches is ignored.
  Publish(Key("elsewhere"));
  EXPECT_EQ(feed.watched_streams(), 2);
}

TEST_F(StreamFeedChannelTest, ASweepBringsWhatNoNoticeAnnounced) {
  StreamFeedOptions options = Options();
  options.sweep_interval = absl::Milliseconds(200);
  RedisStreamFeed feed(pool_.get(), options_, options);
  WaitListening();
  const std::string key = Key("silent-writer");
  auto subscription = CaughtUp(feed, key);
  Add(key, "late");
  EXPECT_EQ(Collect(*subscription, 1, absl::Seconds(2)), (std::vector<std::string>{"late"}));
}

TEST_F(StreamFeedChannelTest, NoticesLostWhileTheSubscriberWasCutOffAreMadeUpFor) {
  RedisStreamFeed feed(pool_.get(), options_, Options());
  WaitListening();
  const std::string key = Key("cut-off");
  auto subscription = CaughtUp(feed, key);
  absl::SleepFor(absl::Milliseconds(300));
  // Every subscriber connection of this server goes; the entry is added and
  // announced while this feed's is down, so its notice is lost.
  ASSERT_TRUE(redis_->Command({"CLIENT", "KILL", "TYPE", "pubsub"}).ok());
  Add(key, "while-away");
  Publish(key);
  EXPECT_EQ(Collect(*subscription, 1, absl::Seconds(3)), (std::vector<std::string>{"while-away"}));
  WaitListening();
}

TEST_F(StreamFeedTest, MissingStreamHasNoEnds) {
  RedisStreamFeed feed(pool_.get(), options_);
  absl::StatusOr<StreamEnds> ends = feed.ReadEnds(Key("missing"));
  ASSERT_TRUE(ends.ok()) << ends.status();
  EXPECT_FALSE(ends->first.has_value());
  EXPECT_FALSE(ends->last.has_value());
  EXPECT_EQ(ends->LastId(), EventId{});
}

}  // namespace
}  // namespace draughts::platform
