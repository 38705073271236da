// Quick pairing (QuickPair, and the sweep any replica runs): the queue
// itself is lua/quick_pair.lua, atomic per queue; this file turns a pair
// into a seated table and a started game.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "matchmaking/matchmaking_service.h"
#include "matchmaking/table_ids.h"
#include "platform/idempotency.h"
#include "platform/logging.h"
#include "platform/page_token.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"
#include "platform/variant_config.h"

namespace draughts::matchmaking {
namespace {

constexpr int kDefaultRating = 1500;
// How long a joiner waits for the host's table to be written by the host's
// replica (it is written right after the host was queued).
constexpr absl::Duration kHostTableWait = absl::Seconds(3);

std::string DeterministicBytes(const google::protobuf::Message& message) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream out(&stream);
  out.SetSerializationDeterministic(true);
  message.SerializeToCodedStream(&out);
  out.Trim();
  return bytes;
}

}  // namespace

std::string MatchmakingServiceImpl::QueueName(const std::string& variant,
                                              const v1::VariantOptions& options,
                                              absl::Duration time_per_move, bool rated) const {
  return absl::StrCat(variant, ".", absl::ToInt64Seconds(time_per_move), ".", rated ? "r" : "u",
                      ".", platform::PageFilterDigest(DeterministicBytes(options)));
}

absl::StatusOr<v1::QuickPairResponse> MatchmakingServiceImpl::DoQuickPair(
    const v1::QuickPairRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(platform::ValidateIdempotencyKey(request.idempotency_key()));
  DRAUGHTS_RETURN_IF_ERROR(CheckRequester(request.requester()));
  DRAUGHTS_RETURN_IF_ERROR(
      platform::ConfigureVariant(request.variant(), request.options()).status());
  DRAUGHTS_ASSIGN_OR_RETURN(
      absl::Duration time_per_move,
      ChooseTimePerMove(request.variant(), request.options(),
                        request.has_time_per_move() ? &request.time_per_move() : nullptr,
                        options_.allow_one_second));
  if (request.rated() && request.requester().kind() == v1::SEAT_KIND_GUEST) {
    return absl::InvalidArgumentError("guests play unrated games only");
  }
  if (request.rating() < 0) return absl::InvalidArgumentError("rating is negative");
  const v1::Seat& requester = request.requester();
  const int rating = request.rating() == 0 ? kDefaultRating : request.rating();
  const std::string queue =
      QueueName(request.variant(), request.options(), time_per_move, request.rated());
  DRAUGHTS_ASSIGN_OR_RETURN(
      KeyClaim claim,
      deps_.store->ClaimKey("quick", requester.player_id(), request.idempotency_key(),
                            platform::RequestFingerprint(request), NewTableId()));
  const std::string ticket = claim.table_id;
  v1::QuickPairResponse response;
  if (claim.kind == KeyClaim::Kind::kRepeat) {
    // A retry: the ticket's table, if it was opened, tells where we are.
    absl::StatusOr<StoredTable> mine = deps_.store->Load(ticket);
    if (mine.ok() && mine->table.status() != v1::TABLE_STATUS_WAITING &&
        mine->table.status() != v1::TABLE_STATUS_CLOSED) {
      response.set_created(true);
      Show(*mine, &requester, response.mutable_table(), response.mutable_your_tokens());
      return response;
    }
  }
  DRAUGHTS_ASSIGN_OR_RETURN(RedisTableStore::JoinOutcome outcome,
                            deps_.store->JoinQueue(queue, Now(), requester.player_id(), rating,
                                                   ticket, requester, options_.pairing.base));
  if (outcome.kind == RedisTableStore::JoinOutcome::Kind::kPaired) {
    StoredTable host;  // version 0 until read or written
    if (!outcome.pending.empty()) {
      DRAUGHTS_RETURN_IF_ERROR(ApplyPair(queue, outcome.pending, &requester, &host));
    }
    if (host.version == 0) {
      // A retry of a request already paired, or a pair that did not start:
      // the host table as it stands now.
      DRAUGHTS_ASSIGN_OR_RETURN(host, deps_.store->Load(outcome.table_id));
    }
    if (SeatsOf(host.table, requester.player_id()).empty() ||
        host.table.status() != v1::TABLE_STATUS_PLAYING) {
      // Another replica is seating this pair (it claimed it): retry.
      return absl::UnavailableError("the pairing is being seated; retry with the same key");
    }
    Show(host, &requester, response.mutable_table(), response.mutable_your_tokens());
    return response;
  }
  // Queued now, or already waiting from an earlier request: that table.
  v1::Table table;
  table.set_table_id(outcome.table_id);
  table.set_variant(request.variant());
  *table.mutable_options() = request.options();
  table.mutable_time_per_move()->set_seconds(absl::ToInt64Seconds(time_per_move));
  table.set_rated(request.rated());
  table.set_creator_player_id(requester.player_id());
  for (int i = 0; i < 2; ++i) table.add_seats()->set_index(i);
  *table.mutable_seats(0)->mutable_occupant() = requester;
  table.set_status(v1::TABLE_STATUS_WAITING);
  // A ticket drawn for this very request cannot have a table yet.
  const bool fresh_id = claim.kind == KeyClaim::Kind::kNew && outcome.table_id == ticket;
  DRAUGHTS_ASSIGN_OR_RETURN(
      StoredTable stored, OpenTable(std::move(table), "", v1::COLOR_UNSPECIFIED, queue, fresh_id));
  response.set_created(true);
  Show(stored, &requester, response.mutable_table(), response.mutable_your_tokens());
  return response;
}

absl::Status MatchmakingServiceImpl::ApplyPair(const std::string& queue, const std::string& pending,
                                               const v1::Seat* joiner, StoredTable* started) {
  std::vector<std::string> parts = absl::StrSplit(pending, '|');
  if (parts.size() != 3) {
    platform::LogWarn("a malformed pending pair was dropped", {{"queue", queue}});
    return deps_.store->FinishPair(queue, pending, {});
  }
  const std::string& host_id = parts[0];
  const std::string& ticket = parts[1];
  const bool close_ticket = parts[2] == "1";
  v1::Seat queued_seat;
  if (joiner == nullptr) {
    absl::StatusOr<v1::Seat> seat = deps_.store->TicketSeat(queue, ticket);
    if (absl::IsNotFound(seat.status())) return deps_.store->FinishPair(queue, pending, {});
    DRAUGHTS_RETURN_IF_ERROR(seat.status());
    queued_seat = *std::move(seat);
    joiner = &queued_seat;
  }
  // Seating the joiner also fixes the colours of the first game (as
  // StartNextGame would in a write of its own), so every replica that
  // seats this pair asks game_state for the same game.
  auto seat_and_draw =
      [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
    if (!SeatsOf(current.table, joiner->player_id()).empty()) return std::nullopt;
    if (current.table.status() != v1::TABLE_STATUS_WAITING || !HasOpenSeat(current.table)) {
      return std::nullopt;
    }
    TableWrite write;
    write.table = current.table;
    *write.table.mutable_seats(1)->mutable_occupant() = *joiner;
    write.table.set_status(v1::TABLE_STATUS_READY);
    v1::TableEvent& taken = write.events.emplace_back();
    taken.mutable_seat_taken()->set_index(1);
    *taken.mutable_seat_taken()->mutable_occupant() = *joiner;
    // Watchers see the seat taken, colours still to come with the game.
    *taken.mutable_table() = write.table;
    const v1::Color first = SeatZeroColor(current.table, current.creator_color, deps_.coin);
    write.table.mutable_seats(0)->set_color(first);
    write.table.mutable_seats(1)->set_color(first == v1::COLOR_WHITE ? v1::COLOR_BLACK
                                                                     : v1::COLOR_WHITE);
    // Seated: no longer a table waiting in a queue.
    write.fields.emplace_back(kFieldQuickQueue, "");
    write.fields.emplace_back(kFieldPendingStart, absl::StrCat(current.table.games_played() + 1));
    return write;
  };
  // The host's replica writes the host's table right after queueing it: a
  // joiner's replica may get here first and wait for it.
  const absl::Time give_up = absl::Now() + kHostTableWait;
  absl::StatusOr<StoredTable> seated = Mutate(host_id, seat_and_draw);
  while (absl::IsNotFound(seated.status()) && absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(5));
    seated = Mutate(host_id, seat_and_draw);
  }
  DRAUGHTS_RETURN_IF_ERROR(seated.status());
  if (SeatsOf(seated->table, joiner->player_id()).empty()) {
    // The host left before the pair was seated: nothing to start.
    platform::LogWarn("a quick pair's host table was gone", {{"table", host_id}});
    return deps_.store->FinishPair(queue, pending, {ticket});
  }
  DRAUGHTS_ASSIGN_OR_RETURN(StoredTable playing, StartNextGame(host_id, &*seated));
  if (close_ticket) {
    DRAUGHTS_RETURN_IF_ERROR(
        Mutate(ticket,
               [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
                 if (current.table.status() == v1::TABLE_STATUS_CLOSED) return std::nullopt;
                 TableWrite write;
                 write.table = current.table;
                 write.table.set_status(v1::TABLE_STATUS_CLOSED);
                 v1::TableEvent& closed = write.events.emplace_back();
                 closed.mutable_table_closed()->set_reason(v1::TableClosed::REASON_PAIRED);
                 closed.mutable_table_closed()->set_paired_table_id(host_id);
                 return write;
               })
            .status());
  }
  DRAUGHTS_RETURN_IF_ERROR(deps_.store->FinishPair(queue, pending, {ticket, host_id}));
  if (deps_.metrics != nullptr) {
    deps_.metrics->Paired(Now() - platform::FromProtoTime(playing.table.created_at()));
  }
  if (started != nullptr) *started = std::move(playing);
  return absl::OkStatus();
}

absl::Status MatchmakingServiceImpl::SweepQueues() {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::string> queues, deps_.store->Queues());
  RedisTableStore::SweepParams params;
  params.base = options_.pairing.base;
  params.widen_by = options_.pairing.widen_by;
  params.widen_every = options_.pairing.widen_every;
  params.max = options_.pairing.max;
  params.lease = options_.claim_lease;
  absl::Status status;
  for (const std::string& queue : queues) {
    absl::StatusOr<std::vector<std::string>> pairs = deps_.store->SweepQueue(queue, Now(), params);
    if (!pairs.ok()) {
      status.Update(pairs.status());
      continue;
    }
    for (const std::string& pending : *pairs) status.Update(ApplyPair(queue, pending));
  }
  return status;
}

void MatchmakingServiceImpl::SampleGauges() {
  if (deps_.metrics == nullptr) return;
  absl::StatusOr<std::vector<std::string>> queues = deps_.store->Queues();
  if (!queues.ok()) return;
  int64_t waiting = 0;
  for (const std::string& queue : *queues) {
    absl::StatusOr<int64_t> size = deps_.store->QueueSize(queue);
    if (size.ok()) waiting += *size;
  }
  deps_.metrics->SetQueued(static_cast<double>(waiting));
  absl::StatusOr<int64_t> listed = deps_.store->LobbySize();
  if (listed.ok()) deps_.metrics->SetListed(static_cast<double>(*listed));
}

}  // namespace draughts::matchmaking
