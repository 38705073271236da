// RedisStreamFeed against a real redis-server (DRAUGHTS_TEST_REDIS): live
// delivery through the one tailer, catch-up from a resume point, many
// streams and subscribers, and letting go of streams nobody watches.
#include "platform/stream_feed.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
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
  RedisStreamFeed feed(pool_.get(), options_, {.block = absl::Milliseconds(300)});
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
  RedisStreamFeed feed(pool_.get(), options_, {.block = absl::Milliseconds(300), .read_count = 3});
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
  RedisStreamFeed feed(pool_.get(), options_, {.block = absl::Milliseconds(300)});
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
