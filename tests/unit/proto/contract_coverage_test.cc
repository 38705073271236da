// Every contract of the design is there, with the calls other services
// implement and call, and the generated code registers every file.

#include <gmock/gmock.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "contract_set.h"

namespace draughts::proto_test {
namespace {

namespace pb = google::protobuf;

const ContractSet& Contracts() {
  return CachedContractSet(DRAUGHTS_DESCRIPTOR_SET, "draughts/");
}

std::vector<std::string> FileNames() {
  std::vector<std::string> names;
  for (const auto* file : Contracts().files()) names.push_back(file->name());
  return names;
}

TEST(Contracts, HaveOneFilePerConcern) {
  EXPECT_THAT(FileNames(),
              ::testing::IsSupersetOf({"draughts/v1/common.proto", "draughts/v1/game.proto",
                                       "draughts/v1/matchmaking.proto", "draughts/v1/clock.proto",
                                       "draughts/v1/bot.proto", "draughts/v1/rating.proto",
                                       "draughts/v1/chat.proto", "draughts/v1/events.proto"}));
}

struct ServiceCalls {
  std::string service;
  std::vector<std::string> calls;
};

// The calls the design and the other services rely on. Removing or renaming
// one breaks a caller, so it must fail here first.
const std::vector<ServiceCalls>& RequiredCalls() {
  static const std::vector<ServiceCalls> required = {
      {"draughts.v1.GameService",
       {"CreateGame", "GetGame", "ListGames", "ListLegalMoves", "SubmitMove", "Resign", "OfferDraw",
        "RespondDraw", "UndoMove", "PlayAutomaticMove", "WatchGame", "ResolvePlayerToken",
        "RecordPresence", "DeclareAbandoned"}},
      {"draughts.v1.MatchmakingService",
       {"CreateTable", "GetTable", "ListTables", "JoinTable", "LeaveTable", "FillSeatsWithBots",
        "QuickPair", "StartGame", "VoteRematch", "GetInviteLink"}},
      {"draughts.v1.ClockService", {"ArmDeadline", "CancelDeadline", "GetClock", "Heartbeat"}},
      {"draughts.v1.BotService", {"ChooseMove", "ListEngines"}},
      {"draughts.v1.RatingService", {"RecordResult", "GetRating", "GetLeaderboard", "GetHistory"}},
      {"draughts.v1.ChatService", {"PostMessage", "ListMessages", "WatchChat"}},
  };
  return required;
}

TEST(Contracts, OfferEveryCallOfTheDesign) {
  for (const auto& [service_name, calls] : RequiredCalls()) {
    const auto* service = Contracts().pool().FindServiceByName(service_name);
    ASSERT_NE(service, nullptr) << service_name;
    for (const auto& call : calls) {
      EXPECT_NE(service->FindMethodByName(call), nullptr) << service_name << "." << call;
    }
  }
}

TEST(Contracts, StreamExactlyTheWatchCalls) {
  for (const auto& [service_name, calls] : RequiredCalls()) {
    const auto* service = Contracts().pool().FindServiceByName(service_name);
    ASSERT_NE(service, nullptr) << service_name;
    for (int i = 0; i < service->method_count(); ++i) {
      const auto* method = service->method(i);
      const bool watch = method->name().rfind("Watch", 0) == 0;
      EXPECT_EQ(method->server_streaming(), watch) << method->full_name();
      EXPECT_FALSE(method->client_streaming()) << method->full_name();
    }
  }
  const auto* watch_game = Contracts().pool().FindMethodByName("draughts.v1.GameService.WatchGame");
  ASSERT_NE(watch_game, nullptr);
  EXPECT_EQ(watch_game->output_type()->full_name(), "draughts.v1.GameEvent");
}

// The library other services link must register every contract in the
// generated pool (server reflection and JSON mapping look there), identical
// to what protoc read.
TEST(Contracts, AreAllRegisteredByTheGeneratedCode) {
  for (const auto* file : Contracts().files()) {
    const auto* generated = pb::DescriptorPool::generated_pool()->FindFileByName(file->name());
    ASSERT_NE(generated, nullptr) << file->name() << " is not linked into draughts_proto";
    pb::FileDescriptorProto expected;
    pb::FileDescriptorProto actual;
    file->CopyTo(&expected);
    generated->CopyTo(&actual);
    // protoc records JSON names in descriptor sets, generated code does not.
    file->CopyJsonNameTo(&expected);
    generated->CopyJsonNameTo(&actual);
    std::string differences;
    pb::util::MessageDifferencer differencer;
    differencer.ReportDifferencesToString(&differences);
    EXPECT_TRUE(differencer.Compare(expected, actual)) << file->name() << ":\n" << differences;
  }
}

}  // namespace
}  // namespace draughts::proto_test
