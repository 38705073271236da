// The "play again" window: a finished game (from the results stream) opens
// it for --rematch-window, bots voting yes at once; when it runs out
// without both votes the table closes. Window ends are a sorted set any
// replica sweeps, each end claimed atomically (lua/claim_due.lua).
#include "absl/strings/str_cat.h"
#include "matchmaking/matchmaking_service.h"
#include "platform/logging.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"

namespace draughts::matchmaking {
namespace {

constexpr int kEndsPerSweep = 100;

}  // namespace

absl::Status MatchmakingServiceImpl::OnGameFinished(const v1::ResultRecord& record) {
  if (record.table_id().empty()) return absl::OkStatus();  // not a table's game
  const absl::Time now = Now();
  absl::StatusOr<StoredTable> stored = Mutate(
      record.table_id(),
      [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
        // A repeat delivery, or the game of an earlier start: nothing to do.
        if (current.table.game_id() != record.game_id() ||
            current.table.status() != v1::TABLE_STATUS_PLAYING) {
          return std::nullopt;
        }
        TableWrite write;
        write.table = current.table;
        write.table.set_status(v1::TABLE_STATUS_FINISHED);
        const absl::Time deadline = now + options_.rematch_window;
        *write.table.mutable_rematch_deadline() = platform::ToProtoTime(deadline);
        for (v1::TableSeat& seat : *write.table.mutable_seats()) {
          seat.set_rematch_vote(seat.has_occupant() && seat.occupant().kind() == v1::SEAT_KIND_BOT);
        }
        v1::TableEvent& finished = write.events.emplace_back();
        finished.mutable_game_finished()->set_game_id(record.game_id());
        finished.mutable_game_finished()->set_result(record.result());
        finished.mutable_game_finished()->set_reason(record.reason());
        *finished.mutable_game_finished()->mutable_rematch_deadline() =
            platform::ToProtoTime(deadline);
        return write;
      });
  if (absl::IsNotFound(stored.status())) return absl::OkStatus();  // the table is gone
  return stored.status();
}

absl::Status MatchmakingServiceImpl::CloseExpiredRematchWindows() {
  const absl::Time now = Now();
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<std::string> due,
      deps_.store->ClaimDueRematchEnds(now, options_.claim_lease, kEndsPerSweep));
  absl::Status status;
  for (const std::string& table_id : due) {
    absl::StatusOr<StoredTable> closed = Mutate(
        table_id, [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
          if (current.table.status() != v1::TABLE_STATUS_FINISHED ||
              now < platform::FromProtoTime(current.table.rematch_deadline())) {
            return std::nullopt;
          }
          TableWrite write;
          write.table = current.table;
          write.table.set_status(v1::TABLE_STATUS_CLOSED);
          write.events.emplace_back().mutable_table_closed()->set_reason(
              v1::TableClosed::REASON_REMATCH_WINDOW_CLOSED);
          return write;
        });
    if (!closed.ok() && !absl::IsNotFound(closed.status())) {
      status.Update(closed.status());
      continue;  // claimed again after the lease
    }
    if (closed.ok() && closed->table.status() == v1::TABLE_STATUS_FINISHED) {
      // Not due yet (a later game's window): back to its own end.
      status.Update(deps_.store->ScheduleRematchEnd(
          table_id, platform::FromProtoTime(closed->table.rematch_deadline())));
      continue;
    }
    status.Update(deps_.store->UnscheduleRematchEnd(table_id));
  }
  return status;
}

}  // namespace draughts::matchmaking
