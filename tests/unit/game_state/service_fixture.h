// An in-process GameService over the in-memory store, reached through a
// real gRPC channel (ServerBuilder + InProcessChannel), with a clock and a
// random source the test controls.
#ifndef DRAUGHTS_TESTS_UNIT_GAME_STATE_SERVICE_FIXTURE_H_
#define DRAUGHTS_TESTS_UNIT_GAME_STATE_SERVICE_FIXTURE_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "draughts/v1/game.grpc.pb.h"
#include "fake_game_store.h"
#include "game_state/game_service.h"
#include "game_state/player_tokens.h"
#include "metrics_test_util.h"
#include "prometheus/registry.h"

namespace draughts::game_state::testing {

class GameServiceTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A game between two people (or the given seats) with a fresh key.
  v1::CreateGameRequest PeopleGame(const std::string& variant = "international");
  v1::CreateGameRequest BotGame(const std::string& variant, v1::Color bot_color);
  // Creates and returns the response; fails the test on error.
  v1::CreateGameResponse Create(const v1::CreateGameRequest& request);
  v1::GameState Get(const std::string& game_id);
  // The token of the side to move in `created` (by colour).
  static const std::string& TokenOf(const v1::CreateGameResponse& created, v1::Color color);

  grpc::Status Move(const std::string& game_id, const std::string& token, const std::string& move,
                    int expected_ply, v1::SubmitMoveResponse* response = nullptr);
  // Plays `move` for whoever is to move; fails the test on error.
  v1::SubmitMoveResponse Play(const v1::CreateGameResponse& created, const std::string& move);

  // The call failed with `code`, its message contains `text`, and the game
  // did not change (same version, moves and result).
  void ExpectRefused(const grpc::Status& status, grpc::StatusCode code, const std::string& text,
                     const std::string& game_id, const v1::GameState& before);

  FakeGameStore store_;
  TokenSealer sealer_ = TokenSealer::Ephemeral();
  absl::Time now_ = absl::FromUnixSeconds(1767225600);  // 2026-01-01
  std::size_t next_random_ = 0;
  GameServiceOptions options_;
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  std::unique_ptr<GameMetrics> metrics_;
  std::unique_ptr<GameServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::GameService::Stub> stub_;
  int keys_ = 0;
};

std::string StatusText(const grpc::Status& status);
using platform::testing::MetricValue;

}  // namespace draughts::game_state::testing

#endif  // DRAUGHTS_TESTS_UNIT_GAME_STATE_SERVICE_FIXTURE_H_
