#include "gateway/idempotency.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "draughts/v1/game.pb.h"

namespace draughts::gateway {
namespace {

TEST(IdempotencyKeyTest, AcceptsTheDocumentedShapeOnly) {
  for (const std::string& key :
       {std::string("a"), std::string("550e8400-e29b-41d4-a716-446655440000"),
        std::string("x.y:z_w-1"), std::string(64, 'k')}) {
    EXPECT_TRUE(ValidateIdempotencyKey(key).ok()) << key;
  }
  for (const std::string& key :
       {std::string(), std::string(65, 'k'), std::string("a b"), std::string("a/b"),
        std::string("{tag}"), std::string("caf\xC3\xA9"), std::string("a\nb", 3)}) {
    const absl::Status status = ValidateIdempotencyKey(key);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << key;
    EXPECT_TRUE(absl::StrContains(status.message(), "Idempotency-Key")) << status;
  }
}

TEST(BackendIdempotencyKeyTest, SameForARetryDifferentForAnythingElse) {
  const std::string key = BackendIdempotencyKey("CreateGame", "g_player", "k1");
  EXPECT_EQ(key, BackendIdempotencyKey("CreateGame", "g_player", "k1"));
  // Within game_state's rules for idempotency_key.
  EXPECT_TRUE(ValidateIdempotencyKey(key).ok()) << key;
  std::set<std::string> keys = {key};
  keys.insert(BackendIdempotencyKey("CreateGame", "g_other", "k1"));
  keys.insert(BackendIdempotencyKey("CreateGame", "g_player", "k2"));
  keys.insert(BackendIdempotencyKey("CreateTable", "g_player", "k1"));
  // Length-prefixed parts: moving a character across the boundary changes it.
  keys.insert(BackendIdempotencyKey("CreateGame", "g_playerk", "1"));
  EXPECT_EQ(keys.size(), 5u);
  // The client key cannot be read back from it.
  const std::string long_key(64, 'q');
  EXPECT_FALSE(absl::StrContains(BackendIdempotencyKey("CreateGame", "g_p", long_key), "qqqq"));
  EXPECT_LE(BackendIdempotencyKey("CreateGame", std::string(24, 'g'), long_key).size(), 64u);
}

TEST(RequestFingerprintTest, FollowsWhatTheRequestAsks) {
  v1::CreateGameRequest request;
  request.set_variant("english");
  request.mutable_white()->set_player_id("g_a");
  const std::string fingerprint = RequestFingerprint("CreateGame", request);
  EXPECT_EQ(fingerprint, RequestFingerprint("CreateGame", request));
  EXPECT_NE(fingerprint, RequestFingerprint("CreateTable", request));
  v1::CreateGameRequest other = request;
  other.set_variant("russian");
  EXPECT_NE(fingerprint, RequestFingerprint("CreateGame", other));
  // Hex, no newline (the Redis encoding relies on it).
  EXPECT_EQ(fingerprint.find_first_not_of("0123456789abcdef"), std::string::npos);
}

// Remembers answers in memory; can be made to fail.
class FakeStore : public IdempotencyStore {
 public:
  absl::StatusOr<std::optional<RememberedResponse>> Find(std::string_view player_id,
                                                         std::string_view key) override {
    if (!find_status.ok()) return find_status;
    auto it = kept.find({std::string(player_id), std::string(key)});
    if (it == kept.end()) return std::nullopt;
    return it->second;
  }
  absl::StatusOr<RememberedResponse> Remember(std::string_view player_id, std::string_view key,
                                              const RememberedResponse& response) override {
    if (!remember_status.ok()) return remember_status;
    // emplace keeps what is there: first writer wins.
    return kept.emplace(std::make_pair(std::string(player_id), std::string(key)), response)
        .first->second;
  }

  std::map<std::pair<std::string, std::string>, RememberedResponse> kept;
  absl::Status find_status;
  absl::Status remember_status;
};

HttpResponse Created(int* calls, int status = 200) {
  ++*calls;
  HttpResponse response;
  response.status = status;
  response.body = absl::StrCat("{\"game\":", *calls, "}");
  return response;
}

bool Replayed(const HttpResponse& response) {
  for (const auto& [name, value] : response.headers) {
    if (name == kIdempotentReplayedHeader && value == "true") return true;
  }
  return false;
}

TEST(RespondOnceTest, ARetryGetsTheFirstAnswerWithoutRunningAgain) {
  FakeStore store;
  int calls = 0;
  const HttpResponse first = RespondOnce(store, "g_a", "k", "fp", [&] { return Created(&calls); });
  const HttpResponse retry = RespondOnce(store, "g_a", "k", "fp", [&] { return Created(&calls); });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(retry.status, 200);
  EXPECT_EQ(retry.body, first.body);
  EXPECT_FALSE(Replayed(first));
  EXPECT_TRUE(Replayed(retry));
}

TEST(RespondOnceTest, KeysBelongToOnePlayer) {
  FakeStore store;
  int calls = 0;
  const HttpResponse a = RespondOnce(store, "g_a", "k", "fp", [&] { return Created(&calls); });
  const HttpResponse b = RespondOnce(store, "g_b", "k", "fp", [&] { return Created(&calls); });
  EXPECT_EQ(calls, 2);
  EXPECT_NE(a.body, b.body);
  EXPECT_FALSE(Replayed(b));
}

TEST(RespondOnceTest, TheSameKeyForAnotherRequestIsRefused) {
  FakeStore store;
  int calls = 0;
  (void)RespondOnce(store, "g_a", "k", "fp1", [&] { return Created(&calls); });
  const HttpResponse other = RespondOnce(store, "g_a", "k", "fp2", [&] { return Created(&calls); });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(other.status, 400);
  EXPECT_TRUE(absl::StrContains(other.body, "INVALID_ARGUMENT")) << other.body;
  EXPECT_TRUE(absl::StrContains(other.body, "Idempotency-Key")) << other.body;
}

TEST(RespondOnceTest, FailuresAreNotRememberedSoARetryRunsAgain) {
  FakeStore store;
  int calls = 0;
  const HttpResponse failed =
      RespondOnce(store, "g_a", "k", "fp", [&] { return Created(&calls, 503); });
  EXPECT_EQ(failed.status, 503);
  const HttpResponse retry = RespondOnce(store, "g_a", "k", "fp", [&] { return Created(&calls); });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(retry.status, 200);
  EXPECT_FALSE(Replayed(retry));
}

TEST(RespondOnceTest, AnUnreachableStoreFailsBeforeRunningOrStillAnswers) {
  FakeStore store;
  int calls = 0;
  store.find_status = absl::UnavailableError("redis down");
  const HttpResponse refused =
      RespondOnce(store, "g_a", "k", "fp", [&] { return Created(&calls); });
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(calls, 0);
  // Found nothing, ran, could not remember: the caller still gets its game
  // (the backend key makes the retry safe).
  store.find_status = absl::OkStatus();
  store.remember_status = absl::UnavailableError("redis down");
  const HttpResponse answered =
      RespondOnce(store, "g_a", "k", "fp", [&] { return Created(&calls); });
  EXPECT_EQ(answered.status, 200);
  EXPECT_EQ(calls, 1);
}

TEST(RespondOnceTest, ALostRaceAnswersWithWhatTheWinnerKept) {
  FakeStore store;
  int calls = 0;
  // Another replica remembers its answer while this one runs.
  const HttpResponse response = RespondOnce(store, "g_a", "k", "fp", [&] {
    store.kept[{"g_a", "k"}] = RememberedResponse{"fp", 200, "{\"game\":\"theirs\"}"};
    return Created(&calls);
  });
  EXPECT_EQ(response.body, "{\"game\":\"theirs\"}");
  EXPECT_TRUE(Replayed(response));
  // And a different request that won the race makes this one a misuse.
  const HttpResponse misuse = RespondOnce(store, "g_a", "k2", "fp", [&] {
    store.kept[{"g_a", "k2"}] = RememberedResponse{"other", 200, "{}"};
    return Created(&calls);
  });
  EXPECT_EQ(misuse.status, 400);
}

}  // namespace
}  // namespace draughts::gateway
