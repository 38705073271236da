#include "platform/redis_cluster_slots.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "platform/redis_client.h"

namespace draughts::platform {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(RedisClusterSlots, Crc16IsXmodem) {
  // The check value of CRC-16/XMODEM, as in the Redis Cluster specification.
  EXPECT_EQ(RedisCrc16("123456789"), 0x31C3);
  EXPECT_EQ(RedisCrc16(""), 0);
}

TEST(RedisClusterSlots, SlotsMatchRedis) {
  // Values CLUSTER KEYSLOT answers on redis-server 7.
  EXPECT_EQ(RedisKeySlot("foo"), 12182);
  EXPECT_EQ(RedisKeySlot("bar"), 5061);
  EXPECT_EQ(RedisKeySlot("somekey"), 11058);
}

TEST(RedisClusterSlots, HashTagDecides) {
  EXPECT_EQ(RedisKeySlot("game:{g1}:state"), RedisKeySlot("g1"));
  EXPECT_EQ(RedisKeySlot("game:{g1}:events"), RedisKeySlot("game:{g1}:outbox"));
  // An empty tag does not count: the whole key is hashed.
  EXPECT_EQ(RedisKeySlot("foo{}{bar}"), RedisCrc16("foo{}{bar}") % kRedisClusterSlots);
  // Only the first '{' and the next '}'.
  EXPECT_EQ(RedisKeySlot("foo{{bar}}zap"), RedisKeySlot("{bar"));
  EXPECT_EQ(RedisKeySlot("foo{bar}{zap}"), RedisKeySlot("bar"));
  // No closing brace: the whole key.
  EXPECT_EQ(RedisKeySlot("foo{bar"), RedisCrc16("foo{bar") % kRedisClusterSlots);
}

// The keys of `argv` as strings (CommandKeys returns views into argv).
std::vector<std::string> KeysOf(const std::vector<std::string>& argv) {
  absl::StatusOr<RedisCommandKeys> keys = CommandKeys(argv);
  EXPECT_TRUE(keys.ok()) << keys.status();
  if (!keys.ok()) return {};
  return std::vector<std::string>(keys->keys.begin(), keys->keys.end());
}

RedisCommandRoute RouteOf(const std::vector<std::string>& argv) {
  absl::StatusOr<RedisCommandKeys> keys = CommandKeys(argv);
  EXPECT_TRUE(keys.ok()) << keys.status();
  return keys.ok() ? keys->route : RedisCommandRoute::kByKeys;
}

TEST(RedisClusterSlots, KeysOfCommands) {
  EXPECT_THAT(KeysOf({"EVALSHA", "abc", "2", "k1", "k2", "arg"}), ElementsAre("k1", "k2"));
  EXPECT_THAT(KeysOf({"XREAD", "COUNT", "10", "BLOCK", "5", "STREAMS", "a", "b", "0", "0"}),
              ElementsAre("a", "b"));
  EXPECT_THAT(KeysOf({"MSET", "a", "1", "b", "2"}), ElementsAre("a", "b"));
  EXPECT_THAT(KeysOf({"XGROUP", "CREATE", "stream", "group", "$"}), ElementsAre("stream"));
  EXPECT_THAT(KeysOf({"HMGET", "h", "a", "b"}), ElementsAre("h"));
  EXPECT_EQ(RouteOf({"SCRIPT", "LOAD", "return 1"}), RedisCommandRoute::kAllMasters);
  EXPECT_EQ(RouteOf({"PING"}), RedisCommandRoute::kAnyNode);
}

TEST(RedisClusterSlots, MalformedCommandsAreRefused) {
  EXPECT_FALSE(CommandKeys({"EVALSHA", "abc", "3", "k1"}).ok());
  EXPECT_FALSE(CommandKeys({"EVALSHA", "abc", "x"}).ok());
  EXPECT_FALSE(CommandKeys({"XREAD", "STREAMS", "a"}).ok());
}

TEST(RedisClusterSlots, OneSlotOrRefused) {
  auto slot = CommandSlot({"EVALSHA", "abc", "2", "game:{g}:state", "game:{g}:events"});
  ASSERT_TRUE(slot.ok()) << slot.status();
  EXPECT_EQ(*slot, RedisKeySlot("g"));

  slot = CommandSlot({"MGET", "foo", "bar"});
  EXPECT_EQ(slot.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(slot.status().message(), HasSubstr("different hash slots"));

  slot = CommandSlot({"PING"});
  ASSERT_TRUE(slot.ok());
  EXPECT_FALSE(slot->has_value());
}

TEST(RedisClusterSlots, ReadOnlyCommands) {
  EXPECT_TRUE(IsReadOnlyCommand("hmget"));
  EXPECT_TRUE(IsReadOnlyCommand("XRANGE"));
  EXPECT_FALSE(IsReadOnlyCommand("EVALSHA"));
  EXPECT_FALSE(IsReadOnlyCommand("XADD"));
  EXPECT_FALSE(IsReadOnlyCommand("XREADGROUP"));
}

TEST(RedisClusterAddress, ClusterForms) {
  auto options = ParseRedisAddress("cluster://127.0.0.1:7000,127.0.0.1:7001?wait=0");
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_THAT(options->cluster_seeds, ElementsAre(std::pair<std::string, int>("127.0.0.1", 7000),
                                                  std::pair<std::string, int>("127.0.0.1", 7001)));
  EXPECT_EQ(options->cluster_wait_replicas, 0);

  options = ParseRedisAddress("10.0.0.1:7000,10.0.0.2:7000");
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->cluster_seeds.size(), 2u);
  EXPECT_EQ(options->cluster_wait_replicas, 1);

  options = ParseRedisAddress("cluster://h:1?wait_timeout_ms=250&failover_wait_ms=9000");
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->cluster_wait_timeout, absl::Milliseconds(250));
  EXPECT_EQ(options->cluster_failover_wait, absl::Seconds(9));

  options = ParseRedisAddress("127.0.0.1:6379");
  ASSERT_TRUE(options.ok());
  EXPECT_TRUE(options->cluster_seeds.empty());
}

TEST(RedisClusterAddress, BadClusterFormsAreRefused) {
  EXPECT_FALSE(ParseRedisAddress("cluster://").ok());
  EXPECT_FALSE(ParseRedisAddress("cluster://h:1,h").ok());
  EXPECT_FALSE(ParseRedisAddress("cluster://h:1?wait=-1").ok());
  EXPECT_FALSE(ParseRedisAddress("cluster://h:1?colour=3").ok());
}

}  // namespace
}  // namespace draughts::platform
