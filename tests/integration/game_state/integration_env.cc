#include "integration_env.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "game_state/player_tokens.h"
#include "platform/testing/test_env.h"

namespace draughts::game_state::testing {

absl::StatusOr<std::string> TestRedisAddress() {
  return platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
}

bool WaitUntilForwarded(platform::RedisClient& redis, const std::string& prefix,
                        const std::string& game_id, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    absl::StatusOr<platform::RedisReply> left =
        redis.Command({"XLEN", absl::StrCat(prefix, "game:{", game_id, "}:outbox")});
    absl::StatusOr<platform::RedisReply> mark =
        redis.Command({"ZSCORE", absl::StrCat(prefix, "game-state:outbox-pending"), game_id});
    if (left.ok() && left->integer() == 0 && mark.ok() && mark->is_nil()) return true;
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(10));
  }
}

std::string UniquePrefix() {
  // Random, so reruns against the same Redis never collide either.
  std::string random = platform::RandomUrlSafeString(6);
  for (char& c : random) {
    if (c == '-' || c == '_') c = 'x';
  }
  return absl::StrCat("it-", getpid(), "-", random, ":");
}

absl::StatusOr<std::unique_ptr<ReplicaProcess>> StartReplica(
    const std::string& redis, const std::string& prefix,
    const std::vector<std::string>& extra_args) {
  std::vector<std::string> args = {absl::StrCat("--redis=", redis),
                                   absl::StrCat("--key-prefix=", prefix),
                                   "--metrics-port=-1",
                                   "--token-secret=integration-test-shared-secret",
                                   "--drain=100ms",
                                   "--shutdown-timeout=2s",
                                   "--log-level=warn"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return ReplicaProcess::Start(GAME_STATE_BINARY, args);
}

std::unique_ptr<v1::GameService::Stub> StubFor(const std::string& address) {
  return v1::GameService::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
}

std::string StatusText(const grpc::Status& status) {
  return absl::StrCat(static_cast<int>(status.error_code()), " ", status.error_message());
}

v1::CreateGameRequest PeopleGameRequest(const std::string& variant, const std::string& fen) {
  v1::CreateGameRequest request;
  request.set_idempotency_key(absl::StrCat("it-", platform::RandomUrlSafeString(12)));
  request.set_variant(variant);
  request.set_initial_fen(fen);
  request.mutable_white()->set_kind(v1::SEAT_KIND_PERSON);
  request.mutable_white()->set_player_id("ann");
  request.mutable_white()->set_display_name("Ann");
  request.mutable_black()->set_kind(v1::SEAT_KIND_PERSON);
  request.mutable_black()->set_player_id("ben");
  request.mutable_black()->set_display_name("Ben");
  return request;
}

namespace {
std::unique_ptr<grpc::ClientContext> Context() {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  return context;
}
}  // namespace

grpc::Status CreateGame(v1::GameService::Stub& stub, const v1::CreateGameRequest& request,
                        v1::CreateGameResponse* response) {
  return stub.CreateGame(Context().get(), request, response);
}

grpc::Status GetGame(v1::GameService::Stub& stub, const std::string& game_id, v1::GameState* game) {
  v1::GetGameRequest request;
  request.set_game_id(game_id);
  v1::GetGameResponse response;
  grpc::Status status = stub.GetGame(Context().get(), request, &response);
  *game = response.game();
  return status;
}

grpc::Status SubmitMove(v1::GameService::Stub& stub, const std::string& game_id,
                        const std::string& token, const std::string& move, int expected_ply,
                        v1::SubmitMoveResponse* response) {
  v1::SubmitMoveRequest request;
  request.set_game_id(game_id);
  request.set_player_token(token);
  request.set_move(move);
  request.set_expected_ply(expected_ply);
  v1::SubmitMoveResponse ignored;
  return stub.SubmitMove(Context().get(), request, response != nullptr ? response : &ignored);
}

grpc::Status ListMoves(v1::GameService::Stub& stub, const std::string& game_id,
                       v1::ListLegalMovesResponse* response) {
  v1::ListLegalMovesRequest request;
  request.set_game_id(game_id);
  return stub.ListLegalMoves(Context().get(), request, response);
}

}  // namespace draughts::game_state::testing
