// RedisClient, scripts, streams and pool against a real redis-server
// (DRAUGHTS_TEST_REDIS), plus a private server that we kill and restart
// (DRAUGHTS_TEST_REDIS_SERVER).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/redis_client.h"
#include "platform/redis_pool.h"
#include "platform/redis_script.h"
#include "platform/redis_streams.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

using platform::testing::RedisServerProcess;
using platform::testing::RequiredTestEnv;
using ::testing::HasSubstr;

// Keys are namespaced per process and test: the shared server is used by
// other tests at the same time, so never FLUSHDB and never share keys.
std::string TestKey(std::string_view name) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return absl::StrCat("platform-test:", ::getpid(), ":", info->name(), ":", std::string(name));
}

class RedisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto address = RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    ASSERT_TRUE(address.ok()) << address.status().message();
    auto options = ParseRedisAddress(*address);
    ASSERT_TRUE(options.ok()) << options.status();
    options_ = *options;
    client_ = std::make_unique<RedisClient>(options_);
  }

  RedisOptions options_;
  std::unique_ptr<RedisClient> client_;
};

TEST_F(RedisTest, SetGetDelAndTypedReplies) {
  std::string key = TestKey("k");
  auto set = client_->Command({"SET", key, "v1"});
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(*set, RedisReply::Status("OK"));
  EXPECT_TRUE(client_->connected());
  EXPECT_EQ(client_->Command({"GET", key})->AsString().value(), "v1");
  EXPECT_EQ(client_->Command({"INCR", TestKey("n")})->AsInteger().value(), 1);
  EXPECT_EQ(client_->Command({"DEL", key, TestKey("n")})->AsInteger().value(), 2);
  EXPECT_EQ(client_->Command({"GET", key})->AsOptionalString().value(), std::nullopt);
}

TEST_F(RedisTest, ArgumentsAndValuesAreBinarySafe) {
  std::string key = TestKey(std::string("bin\0key", 7));
  std::string value("\0\r\n$3\r\nxyz\xff", 11);
  ASSERT_TRUE(client_->Command(std::vector<std::string>{"SET", key, value}).ok());
  auto got = client_->Command(std::vector<std::string>{"GET", key});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->AsString().value(), value);
  EXPECT_EQ(client_->Command({"STRLEN", key})->AsInteger().value(), 11);
  client_->Command({"DEL", key}).IgnoreError();
}

TEST_F(RedisTest, ServerErrorRepliesBecomeStatuses) {
  std::string key = TestKey("list");
  ASSERT_TRUE(client_->Command({"LPUSH", key, "a"}).ok());
  auto wrong = client_->Command({"INCR", key});
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(wrong.status().message()), HasSubstr("WRONGTYPE"));
  auto unknown = client_->Command({"NOSUCHCOMMAND"});
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInternal);
  // The connection stays usable after error replies.
  EXPECT_EQ(client_->Command({"LLEN", key})->AsInteger().value(), 1);
  client_->Command({"DEL", key}).IgnoreError();
}

TEST_F(RedisTest, PipelineReturnsOneReplyPerCommandInOrderWithErrorsInPlace) {
  std::string counter = TestKey("counter");
  std::string list = TestKey("list");
  std::vector<std::vector<std::string>> commands;
  for (int i = 0; i < 100; ++i) commands.push_back({"INCR", counter});
  commands.push_back({"RPUSH", list, "x"});
  commands.push_back({"INCR", list});  // WRONGTYPE, in place
  commands.push_back({"GET", counter});
  auto replies = client_->Pipeline(commands);
  ASSERT_TRUE(replies.ok()) << replies.status();
  ASSERT_EQ(replies->size(), 103u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ((*replies)[i], RedisReply::Integer(i + 1));
  EXPECT_EQ((*replies)[100], RedisReply::Integer(1));
  EXPECT_TRUE((*replies)[101].is_error());
  EXPECT_EQ((*replies)[101].ToStatus().code(), absl::StatusCode::kInternal);
  EXPECT_EQ((*replies)[102].AsString().value(), "100");
  client_->Command({"DEL", counter, list}).IgnoreError();
}

TEST_F(RedisTest, ScriptRunsByShaAndChoosesItsErrorCode) {
  RedisScript compare_and_set(R"lua(
    local current = redis.call('GET', KEYS[1]) or ''
    if current ~= ARGV[1] then
      return redis.error_reply('ABORTED expected ' .. ARGV[1] .. ' got ' .. current)
    end
    redis.call('SET', KEYS[1], ARGV[2])
    return 1
  )lua");
  std::string key = TestKey("cas");
  auto first = EvalScript(*client_, compare_and_set, {key}, {"", "v1"});
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->AsInteger().value(), 1);
  EXPECT_EQ(compare_and_set.sha().size(), 40u);

  auto lost = EvalScript(*client_, compare_and_set, {key}, {"", "v2"});
  EXPECT_EQ(lost.status().code(), absl::StatusCode::kAborted);
  EXPECT_EQ(lost.status().message(), "expected  got v1");
  EXPECT_EQ(client_->Command({"GET", key})->AsString().value(), "v1");
  client_->Command({"DEL", key}).IgnoreError();
}

TEST_F(RedisTest, ScriptSyntaxErrorIsReportedAtLoad) {
  RedisScript broken("this is not lua");
  absl::Status status = LoadScript(*client_, broken);
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_TRUE(broken.sha().empty());
}

TEST_F(RedisTest, StreamsAddRangeAndBlockingRead) {
  std::string key = TestKey("events");
  auto id1 = StreamAdd(*client_, key, {{"type", "created"}});
  auto id2 = StreamAdd(*client_, key, {{"type", "move"}, {"move", "32-28"}});
  ASSERT_TRUE(id1.ok() && id2.ok());
  EXPECT_LT(*id1, *id2);

  auto all = StreamRange(*client_, key);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[1].id, *id2);
  EXPECT_EQ((*all)[1].fields, (StreamFields{{"type", "move"}, {"move", "32-28"}}));
  EXPECT_EQ(StreamRange(*client_, key, "-", "+", 1)->size(), 1u);

  // Resume after id1: sees exactly the second entry, without blocking.
  auto after = StreamReadBlocking(*client_, {{key, *id1}}, absl::Seconds(1));
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_EQ(after->size(), 1u);
  EXPECT_EQ((*after)[0].key, key);
  ASSERT_EQ((*after)[0].entries.size(), 1u);
  EXPECT_EQ((*after)[0].entries[0].id, *id2);

  // Nothing new: times out with an empty result after ~block.
  absl::Time begin = absl::Now();
  auto idle = StreamReadBlocking(*client_, {{key, *id2}}, absl::Milliseconds(300));
  ASSERT_TRUE(idle.ok()) << idle.status();
  EXPECT_TRUE(idle->empty());
  EXPECT_GE(absl::Now() - begin, absl::Milliseconds(280));

  // A writer on another connection wakes a blocked reader.
  std::thread writer([&] {
    absl::SleepFor(absl::Milliseconds(200));
    RedisClient other(options_);
    StreamAdd(other, key, {{"type", "ended"}}).IgnoreError();
  });
  auto woken = StreamReadBlocking(*client_, {{key, "$"}}, absl::Seconds(5));
  writer.join();
  ASSERT_TRUE(woken.ok()) << woken.status();
  ASSERT_EQ(woken->size(), 1u);
  EXPECT_EQ((*woken)[0].entries[0].fields, (StreamFields{{"type", "ended"}}));
  client_->Command({"DEL", key}).IgnoreError();
}

TEST_F(RedisTest, BlockingLongerThanTheBlockTimeIsNotCutByTheCommandTimeout) {
  RedisOptions options = options_;
  options.command_timeout = absl::Milliseconds(200);
  RedisClient client(options);
  auto idle = StreamReadBlocking(client, {{TestKey("quiet"), "$"}}, absl::Milliseconds(600));
  ASSERT_TRUE(idle.ok()) << idle.status();
  EXPECT_TRUE(idle->empty());
  // The normal timeout is back for the next command.
  EXPECT_TRUE(client.Command({"PING"}).ok());
}

TEST_F(RedisTest, CommandTimeoutIsUnavailableAndTheClientRecovers) {
  RedisOptions options = options_;
  options.command_timeout = absl::Milliseconds(200);
  RedisClient client(options);
  // BLPOP for 2 s with a 200 ms socket timeout: the reply never comes in time.
  auto slow = client.Command({"BLPOP", TestKey("never"), "2"});
  EXPECT_EQ(slow.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(slow.status().message()), HasSubstr("may or may not have been applied"));
  EXPECT_FALSE(client.connected());
  auto ping = client.Command({"PING"});
  ASSERT_TRUE(ping.ok()) << ping.status();
  EXPECT_EQ(ping->AsString().value(), "PONG");
}

TEST_F(RedisTest, DatabaseSelectionIsAppliedOnConnect) {
  RedisOptions options = options_;
  options.database = 3;
  RedisClient db3(options);
  std::string key = TestKey("db");
  ASSERT_TRUE(db3.Command({"SET", key, "in-3"}).ok());
  EXPECT_EQ(client_->Command({"EXISTS", key})->AsInteger().value(), 0);
  EXPECT_EQ(db3.Command({"GET", key})->AsString().value(), "in-3");
  db3.Command({"DEL", key}).IgnoreError();
}

TEST_F(RedisTest, PoolServesManyThreads) {
  RedisPool pool(options_, 4);
  std::string key = TestKey("shared");
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        auto lease = pool.Borrow();
        if (!lease.ok() || !(*lease)->Command({"INCR", key}).ok()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  auto lease = pool.Borrow();
  ASSERT_TRUE(lease.ok());
  EXPECT_EQ((*lease)->Command({"GET", key})->AsInteger().value(), 400);
  (*lease)->Command({"DEL", key}).IgnoreError();
}

// --- a private server we can break ---

class PrivateRedisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto binary = RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
    ASSERT_TRUE(binary.ok()) << binary.status().message();
    auto server = RedisServerProcess::Start(*binary);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(server).value();
    options_.port = server_->port();
    options_.connect_attempts = 3;
    options_.initial_backoff = absl::Milliseconds(20);
  }

  std::unique_ptr<RedisServerProcess> server_;
  RedisOptions options_;
};

TEST_F(PrivateRedisTest, ServerGoesAwayIsUnavailableThenClientRecoversOnRestart) {
  RedisClient client(options_);
  ASSERT_TRUE(client.Command({"SET", "k", "before"}).ok());

  server_->Kill();
  auto down = client.Command({"GET", "k"});
  EXPECT_EQ(down.status().code(), absl::StatusCode::kUnavailable) << down.status();
  auto still_down = client.Command({"PING"});
  EXPECT_EQ(still_down.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(still_down.status().message()), HasSubstr("attempts"));

  ASSERT_TRUE(server_->Restart().ok());
  // The first command after the restart already works: the dead socket is
  // noticed before sending, so nothing is lost or doubled.
  auto after = client.Command({"SET", "k", "after"});
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(client.Command({"GET", "k"})->AsString().value(), "after");
}

TEST_F(PrivateRedisTest, IdleConnectionToARestartedServerReconnectsTransparently) {
  RedisClient client(options_);
  ASSERT_TRUE(client.Command({"PING"}).ok());
  ASSERT_TRUE(server_->Restart().ok());
  auto reply = client.Command({"INCR", "n"});
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->AsInteger().value(), 1);  // applied exactly once
}

TEST_F(PrivateRedisTest, ScriptReloadsAfterScriptFlush) {
  RedisClient client(options_);
  RedisScript script("return redis.call('INCRBY', KEYS[1], ARGV[1])");
  ASSERT_EQ(EvalScript(client, script, {"c"}, {"2"})->AsInteger().value(), 2);
  std::string sha = script.sha();
  ASSERT_TRUE(client.Command({"SCRIPT", "FLUSH"}).ok());
  auto raw = client.Command({"EVALSHA", sha, "1", "c", "1"});
  ASSERT_EQ(raw.status().code(), absl::StatusCode::kNotFound);  // NOSCRIPT, really gone
  auto again = EvalScript(client, script, {"c"}, {"3"});
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->AsInteger().value(), 5);  // ran exactly once
  EXPECT_EQ(script.sha(), sha);
}

TEST_F(PrivateRedisTest, PipelinedScriptsRunInOrderKeepTheirErrorsAndReloadAfterAFlush) {
  RedisClient client(options_);
  RedisScript add("return redis.call('INCRBY', KEYS[1], ARGV[1])");
  RedisScript append("return redis.call('APPEND', KEYS[1], ARGV[1])");
  RedisScript refuse("return redis.error_reply('ABORTED ' .. ARGV[1])");
  auto first = PipelineScripts(client, {{&add, {"n"}, {"2"}},
                                        {&append, {"log"}, {"a"}},
                                        {&refuse, {}, {"stale"}},
                                        {&add, {"n"}, {"3"}},
                                        {&append, {"log"}, {"b"}}});
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->size(), 5u);
  EXPECT_EQ((*first)[0].AsInteger().value(), 2);
  EXPECT_EQ((*first)[3].AsInteger().value(), 5);
  EXPECT_EQ((*first)[4].AsInteger().value(), 2);
  const absl::Status refused = (*first)[2].ToStatus();
  EXPECT_EQ(refused.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(refused.message(), "stale");
  EXPECT_EQ(client.Command({"GET", "log"})->AsString().value(), "ab");

  // The server loses its scripts: every call still runs, exactly once.
  ASSERT_TRUE(client.Command({"SCRIPT", "FLUSH"}).ok());
  auto again = PipelineScripts(client, {{&add, {"n"}, {"10"}}, {&append, {"log"}, {"c"}}});
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)[0].AsInteger().value(), 15);
  EXPECT_EQ((*again)[1].AsInteger().value(), 3);
  EXPECT_EQ(client.Command({"GET", "n"})->AsString().value(), "15");

  server_->Kill();
  auto down = PipelineScripts(client, {{&add, {"n"}, {"1"}}});
  EXPECT_EQ(down.status().code(), absl::StatusCode::kUnavailable) << down.status();
}

TEST_F(PrivateRedisTest, ScriptSurvivesAServerRestart) {
  RedisClient client(options_);
  RedisScript script("return ARGV[1] .. '!'");
  ASSERT_EQ(EvalScript(client, script, {}, {"a"})->AsString().value(), "a!");
  ASSERT_TRUE(server_->Restart().ok());
  auto reply = EvalScript(client, script, {}, {"b"});
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->AsString().value(), "b!");
}

TEST_F(PrivateRedisTest, PipelineOnADeadServerIsUnavailable) {
  RedisClient client(options_);
  ASSERT_TRUE(client.Command({"PING"}).ok());
  server_->Kill();
  auto replies = client.Pipeline({{"INCR", "x"}, {"INCR", "x"}});
  EXPECT_EQ(replies.status().code(), absl::StatusCode::kUnavailable);
  ASSERT_TRUE(server_->Restart().ok());
  auto ok = client.Pipeline({{"INCR", "x"}, {"INCR", "x"}});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[1], RedisReply::Integer(2));
}

TEST_F(PrivateRedisTest, WrongPasswordFailsFastWithoutRetrying) {
  ASSERT_TRUE(RedisClient(options_).Command({"CONFIG", "SET", "requirepass", "s3cret"}).ok());
  RedisOptions wrong = options_;
  wrong.password = "nope";
  wrong.connect_attempts = 5;
  wrong.initial_backoff = absl::Milliseconds(200);
  RedisClient client(wrong);
  absl::Time begin = absl::Now();
  auto reply = client.Command({"PING"});
  EXPECT_FALSE(reply.ok());
  EXPECT_NE(reply.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_LT(absl::Now() - begin, absl::Milliseconds(200));

  RedisOptions right = options_;
  right.password = "s3cret";
  RedisClient authed(right);
  EXPECT_EQ(authed.Command({"PING"})->AsString().value(), "PONG");
}

}  // namespace
}  // namespace draughts::platform
