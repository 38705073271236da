#include "gateway/matchmaking_backend.h"

#include <utility>

namespace draughts::gateway {
namespace {

// Reads change nothing, and every write carries an idempotency key: all
// matchmaking calls may be repeated after an UNAVAILABLE.
platform::CallOptions Repeatable() {
  platform::CallOptions options;
  options.safe_to_retry = true;
  return options;
}

}  // namespace

MatchmakingBackend::MatchmakingBackend(std::unique_ptr<MatchmakingClient> client)
    : client_(std::move(client)) {}

absl::StatusOr<v1::CreateTableResponse> MatchmakingBackend::CreateTable(
    const v1::CreateTableRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::CreateTable, request, Repeatable());
}

absl::StatusOr<v1::GetTableResponse> MatchmakingBackend::GetTable(
    const v1::GetTableRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::GetTable, request, Repeatable());
}

absl::StatusOr<v1::ListTablesResponse> MatchmakingBackend::ListTables(
    const v1::ListTablesRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::ListTables, request, Repeatable());
}

absl::StatusOr<v1::JoinTableResponse> MatchmakingBackend::JoinTable(
    const v1::JoinTableRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::JoinTable, request, Repeatable());
}

absl::StatusOr<v1::LeaveTableResponse> MatchmakingBackend::LeaveTable(
    const v1::LeaveTableRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::LeaveTable, request, Repeatable());
}

absl::StatusOr<v1::FillSeatsWithBotsResponse> MatchmakingBackend::FillSeatsWithBots(
    const v1::FillSeatsWithBotsRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::FillSeatsWithBots, request, Repeatable());
}

absl::StatusOr<v1::QuickPairResponse> MatchmakingBackend::QuickPair(
    const v1::QuickPairRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::QuickPair, request, Repeatable());
}

absl::StatusOr<v1::StartGameResponse> MatchmakingBackend::StartGame(
    const v1::StartGameRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::StartGame, request, Repeatable());
}

absl::StatusOr<v1::VoteRematchResponse> MatchmakingBackend::VoteRematch(
    const v1::VoteRematchRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::VoteRematch, request, Repeatable());
}

absl::StatusOr<v1::GetInviteLinkResponse> MatchmakingBackend::GetInviteLink(
    const v1::GetInviteLinkRequest& request) {
  return client_->Call(&MatchmakingClient::Stub::GetInviteLink, request, Repeatable());
}

std::unique_ptr<grpc::ClientReaderInterface<v1::TableEvent>> MatchmakingBackend::Watch(
    grpc::ClientContext* context, const std::string& table_id, const std::string& from_event_id) {
  v1::WatchTableRequest request;
  request.set_table_id(table_id);
  request.set_from_event_id(from_event_id);
  return client_->stub().WatchTable(context, request);
}

}  // namespace draughts::gateway
