// The gateway's calls to matchmaking (draughts.v1.MatchmakingService)
// through the platform's typed client (deadline, retries of UNAVAILABLE,
// draughts_rpc_client_* metrics), with its status kept as an absl::Status of
// the same code, so handlers map it once (error_mapping.h). Thread-safe (the
// client is).
#ifndef DRAUGHTS_GATEWAY_MATCHMAKING_BACKEND_H_
#define DRAUGHTS_GATEWAY_MATCHMAKING_BACKEND_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "draughts/v1/matchmaking.grpc.pb.h"
#include "platform/grpc_client.h"

namespace draughts::gateway {

using MatchmakingClient = platform::GrpcClient<v1::MatchmakingService>;

class MatchmakingBackend {
 public:
  explicit MatchmakingBackend(std::unique_ptr<MatchmakingClient> client);

  // Every mutating call carries an idempotency_key (matchmaking refuses one
  // without), so an UNAVAILABLE attempt is retried with the same request:
  // a repeat of an applied call answers the first result, never applies
  // twice.
  absl::StatusOr<v1::CreateTableResponse> CreateTable(const v1::CreateTableRequest& request);
  absl::StatusOr<v1::GetTableResponse> GetTable(const v1::GetTableRequest& request);
  absl::StatusOr<v1::ListTablesResponse> ListTables(const v1::ListTablesRequest& request);
  absl::StatusOr<v1::JoinTableResponse> JoinTable(const v1::JoinTableRequest& request);
  absl::StatusOr<v1::LeaveTableResponse> LeaveTable(const v1::LeaveTableRequest& request);
  absl::StatusOr<v1::FillSeatsWithBotsResponse> FillSeatsWithBots(
      const v1::FillSeatsWithBotsRequest& request);
  absl::StatusOr<v1::QuickPairResponse> QuickPair(const v1::QuickPairRequest& request);
  absl::StatusOr<v1::StartGameResponse> StartGame(const v1::StartGameRequest& request);
  absl::StatusOr<v1::VoteRematchResponse> VoteRematch(const v1::VoteRematchRequest& request);
  absl::StatusOr<v1::GetInviteLinkResponse> GetInviteLink(const v1::GetInviteLinkRequest& request);

  // Starts WatchTable; the caller owns `context` and may TryCancel it. Not
  // retried here: the reader resumes from its last event id.
  std::unique_ptr<grpc::ClientReaderInterface<v1::TableEvent>> Watch(
      grpc::ClientContext* context, const std::string& table_id, const std::string& from_event_id);

  // For streams read with the callback API (table sockets).
  MatchmakingClient& client() { return *client_; }

 private:
  std::unique_ptr<MatchmakingClient> client_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_MATCHMAKING_BACKEND_H_
