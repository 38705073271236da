// Idempotency-Key on POST /api/games against the real stack: a retried
// create returns the first game and makes no second one, on another
// gateway replica too, and even when the first answer was never remembered.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "draughts/v1/game.grpc.pb.h"
#include "gateway/proto_json.h"
#include "gateway_env.h"
#include "test_client.h"

namespace draughts::gateway::testing {
namespace {

constexpr char kHotseat[] = R"({"variant":"international","mode":"hotseat"})";

class IdempotencyKeysTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    env_ = new GatewayEnv();
    status_ = env_->Start();
  }
  static void TearDownTestSuite() {
    delete env_;
    env_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(status_.ok()) << status_;
    absl::StatusOr<HttpReply> session = HttpCall(env_->port(), "POST", "/api/session");
    ASSERT_TRUE(session.ok()) << session.status();
    cookie_ = session->set_cookie.substr(0, session->set_cookie.find(';'));
    player_id_ = StringAt(ParseJsonObject(session->body).value(), "playerId");
    ASSERT_FALSE(player_id_.empty()) << session->body;
  }

  absl::StatusOr<HttpReply> Create(const std::string& key, const std::string& body = kHotseat,
                                   int port = 0) {
    HeaderList headers;
    if (key != "<none>") headers.emplace_back("Idempotency-Key", key);
    return HttpCall(port == 0 ? env_->port() : port, "POST", "/api/games", body, cookie_, headers);
  }

  // The games this session's player holds a seat in, as game_state lists them.
  int GamesOfPlayer() {
    auto stub = v1::GameService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", env_->game_state_port()), grpc::InsecureChannelCredentials()));
    v1::ListGamesRequest request;
    request.set_player_id(player_id_);
    request.set_include_finished(true);
    request.set_page_size(100);
    v1::ListGamesResponse response;
    grpc::ClientContext context;
    const grpc::Status status = stub->ListGames(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.games_size();
  }

  static GatewayEnv* env_;
  static absl::Status status_;
  std::string cookie_;
  std::string player_id_;
};

GatewayEnv* IdempotencyKeysTest::env_ = nullptr;
absl::Status IdempotencyKeysTest::status_;

std::string GameId(const HttpReply& reply) {
  return StringAt(ParseJsonObject(reply.body).value(), "gameId");
}

std::string ErrorCode(const HttpReply& reply) {
  return StringAt(ParseJsonObject(reply.body).value(), "error.code");
}

bool Replayed(const HttpReply& reply) {
  return absl::StrContains(reply.headers, "Idempotent-Replayed: true");
}

TEST_F(IdempotencyKeysTest, ARetryReturnsTheFirstGameAndMakesNoOther) {
  absl::StatusOr<HttpReply> first = Create("550e8400-e29b-41d4-a716-446655440000");
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->status, 200) << first->body;
  EXPECT_FALSE(Replayed(*first));
  absl::StatusOr<HttpReply> retry = Create("550e8400-e29b-41d4-a716-446655440000");
  ASSERT_TRUE(retry.ok()) << retry.status();
  ASSERT_EQ(retry->status, 200) << retry->body;
  EXPECT_TRUE(Replayed(*retry));
  // The very same answer: same game, same seat tokens.
  EXPECT_EQ(retry->body, first->body);
  EXPECT_EQ(GamesOfPlayer(), 1);
  // A new key is a new game.
  absl::StatusOr<HttpReply> other = Create("another-key");
  ASSERT_TRUE(other.ok());
  EXPECT_NE(GameId(*other), GameId(*first));
  EXPECT_EQ(GamesOfPlayer(), 2);
}

TEST_F(IdempotencyKeysTest, AnyReplicaAnswersTheRetry) {
  absl::Status started;
  std::unique_ptr<GatewayServer> replica = env_->NewGateway(&started);
  ASSERT_TRUE(started.ok()) << started;
  absl::StatusOr<HttpReply> first = Create("k-replicas");
  ASSERT_TRUE(first.ok() && first->status == 200) << first->body;
  absl::StatusOr<HttpReply> retry = Create("k-replicas", kHotseat, replica->port());
  ASSERT_TRUE(retry.ok());
  ASSERT_EQ(retry->status, 200) << retry->body;
  EXPECT_EQ(retry->body, first->body);
  EXPECT_EQ(GamesOfPlayer(), 1);
}

TEST_F(IdempotencyKeysTest, ALostAnswerIsStillTheSameGame) {
  // The gateway died after CreateGame and before remembering the answer:
  // the derived key makes game_state recognise the retry.
  absl::StatusOr<HttpReply> first = Create("k-lost");
  ASSERT_TRUE(first.ok() && first->status == 200) << first->body;
  absl::StatusOr<platform::RedisPool::Lease> redis = env_->redis().Borrow();
  ASSERT_TRUE(redis.ok());
  absl::StatusOr<platform::RedisReply> deleted =
      (*redis)->Command({"DEL", env_->idempotency().KeyFor(player_id_, "k-lost")});
  ASSERT_TRUE(deleted.ok());
  ASSERT_EQ(deleted->integer(), 1);  // it was remembered under that key
  absl::StatusOr<HttpReply> retry = Create("k-lost");
  ASSERT_TRUE(retry.ok());
  ASSERT_EQ(retry->status, 200) << retry->body;
  EXPECT_FALSE(Replayed(*retry));
  const google::protobuf::Struct a = ParseJsonObject(first->body).value();
  const google::protobuf::Struct b = ParseJsonObject(retry->body).value();
  EXPECT_EQ(StringAt(b, "gameId"), StringAt(a, "gameId"));
  EXPECT_EQ(StringAt(b, "seats.white"), StringAt(a, "seats.white"));
  EXPECT_EQ(StringAt(b, "seats.black"), StringAt(a, "seats.black"));
  EXPECT_EQ(GamesOfPlayer(), 1);
  // Remembered for a day.
  absl::StatusOr<platform::RedisReply> ttl =
      (*redis)->Command({"TTL", env_->idempotency().KeyFor(player_id_, "k-lost")});
  ASSERT_TRUE(ttl.ok());
  EXPECT_GT(ttl->integer(), 23 * 3600);
  EXPECT_LE(ttl->integer(), 24 * 3600);
}

TEST_F(IdempotencyKeysTest, TheSameKeyWithAnotherBodyIsRefused) {
  absl::StatusOr<HttpReply> first = Create("k-body");
  ASSERT_TRUE(first.ok() && first->status == 200) << first->body;
  absl::StatusOr<HttpReply> other = Create("k-body", R"({"variant":"english","mode":"hotseat"})");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->status, 400) << other->body;
  EXPECT_EQ(ErrorCode(*other), "INVALID_ARGUMENT");
  EXPECT_EQ(GamesOfPlayer(), 1);
  // The same request with its fields in another order is the same request.
  absl::StatusOr<HttpReply> reordered =
      Create("k-body", R"({"mode":"hotseat", "variant":"international"})");
  ASSERT_TRUE(reordered.ok());
  EXPECT_EQ(reordered->status, 200) << reordered->body;
  EXPECT_EQ(GameId(*reordered), GameId(*first));
}

TEST_F(IdempotencyKeysTest, KeysAreEachSessionsOwn) {
  absl::StatusOr<HttpReply> mine = Create("k-shared");
  ASSERT_TRUE(mine.ok() && mine->status == 200);
  const std::string my_cookie = cookie_;
  SetUp();  // another browser
  ASSERT_NE(cookie_, my_cookie);
  absl::StatusOr<HttpReply> theirs = Create("k-shared");
  ASSERT_TRUE(theirs.ok());
  ASSERT_EQ(theirs->status, 200) << theirs->body;
  EXPECT_NE(GameId(*theirs), GameId(*mine));
  EXPECT_FALSE(Replayed(*theirs));
}

TEST_F(IdempotencyKeysTest, MalformedKeysAreRefusedAndChangeNothing) {
  for (const std::string& key : {std::string(), std::string(65, 'k'), std::string("a b"),
                                 std::string("a/b"), std::string("{x}")}) {
    absl::StatusOr<HttpReply> reply = Create(key);
    ASSERT_TRUE(reply.ok()) << key;
    EXPECT_EQ(reply->status, 400) << key << " -> " << reply->body;
    EXPECT_EQ(ErrorCode(*reply), "INVALID_ARGUMENT") << key;
    absl::StatusOr<HttpReply> session =
        HttpCall(env_->port(), "POST", "/api/session", "", cookie_, {{"Idempotency-Key", key}});
    ASSERT_TRUE(session.ok());
    EXPECT_EQ(session->status, 400) << key;
  }
  EXPECT_EQ(GamesOfPlayer(), 0);
}

TEST_F(IdempotencyKeysTest, WithoutAKeyEveryRequestIsANewGame) {
  absl::StatusOr<HttpReply> a = Create("<none>");
  absl::StatusOr<HttpReply> b = Create("<none>");
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->status, 200) << a->body;
  ASSERT_EQ(b->status, 200) << b->body;
  EXPECT_NE(GameId(*a), GameId(*b));
  EXPECT_EQ(GamesOfPlayer(), 2);
}

TEST_F(IdempotencyKeysTest, RefusedRequestsAreNotRemembered) {
  absl::StatusOr<HttpReply> bad =
      Create("k-retry-fixed", R"({"variant":"chess","mode":"hotseat"})");
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->status, 400);
  // The client fixes the body and retries with the same key: a refused
  // request created nothing, so it is not a misuse of the key.
  absl::StatusOr<HttpReply> fixed = Create("k-retry-fixed");
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(fixed->status, 200) << fixed->body;
  EXPECT_EQ(GamesOfPlayer(), 1);
}

}  // namespace
}  // namespace draughts::gateway::testing
