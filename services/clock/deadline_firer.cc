#include "clock/deadline_firer.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"

namespace draughts::clock {
namespace {

// Codes that say "not now": the same call may succeed later.
bool Transient(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kDeadlineExceeded:
    case absl::StatusCode::kResourceExhausted:
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown:
    case absl::StatusCode::kCancelled:
      return true;
    default:
      return false;
  }
}

// The earliest a presence check may come again: a timer due in the past
// would be claimed again at once.
constexpr absl::Duration kMinimumRecheck = absl::Milliseconds(50);

}  // namespace

DeadlineFirer::DeadlineFirer(ClockStore* store, GameCalls* game, ClockMetrics* metrics,
                             FirerOptions options, std::function<absl::Time()> now)
    : store_(store),
      game_(game),
      metrics_(metrics),
      options_(std::move(options)),
      now_(std::move(now)) {
  if (!now_) now_ = [] { return absl::Now(); };
}

absl::Status DeadlineFirer::Fire(const DueTimer& timer) {
  if (metrics_ != nullptr) metrics_->Fired(timer.kind, now_() - timer.due);
  absl::Status status = timer.kind == DueTimer::Kind::kMove ? FireMove(timer) : FirePresence(timer);
  if (!status.ok()) {
    if (metrics_ != nullptr) metrics_->Error("fire");
    platform::LogWarn("timer not handled: due again when its claim ends",
                      {{"game", timer.game_id}, {"status", status}});
  }
  return status;
}

absl::Status DeadlineFirer::FireMove(const DueTimer& timer) {
  if (timer.color == v1::COLOR_UNSPECIFIED) {
    // The game's record vanished after the claim (forgotten): nothing to play.
    return store_->FinishMove(timer, std::nullopt);
  }
  v1::PlayAutomaticMoveRequest request;
  request.set_game_id(timer.game_id);
  request.set_expected_ply(timer.expected_ply);
  request.set_color(timer.color);
  absl::StatusOr<v1::PlayAutomaticMoveResponse> answer = game_->PlayAutomaticMove(request);
  auto count = [&](const char* outcome) {
    if (metrics_ != nullptr) metrics_->AutomaticMove(outcome);
  };
  if (answer.ok()) {
    count(answer->played() ? "played" : "not_played");
    std::optional<absl::Time> again;
    const v1::GameState& game = answer->game();
    // Not played although the game still waits at this ply: its deadline
    // is still ahead by game-state's clock (an undo re-armed it, or the two
    // clocks differ). Fire again then, unless a newer arming replaces it.
    if (!answer->played() && game.ply() == timer.expected_ply &&
        game.side_to_move() == timer.color && game.has_move_deadline()) {
      again =
          std::max(platform::FromProtoTime(game.move_deadline()), now_() + absl::Milliseconds(100));
    }
    return store_->FinishMove(timer, again);
  }
  const absl::Status& status = answer.status();
  if (status.code() == absl::StatusCode::kNotFound) {
    count("unknown_game");
    return store_->Forget(timer.game_id);
  }
  if (status.code() == absl::StatusCode::kFailedPrecondition) {
    // Over, or not that side's turn: the deadlines stream brings the truth.
    count("game_over");
    return store_->FinishMove(timer, std::nullopt);
  }
  if (Transient(status)) {
    count("retry");
    platform::LogWarn("automatic move not played yet: retrying",
                      {{"game", timer.game_id}, {"status", status}});
    return store_->FinishMove(timer, now_() + options_.retry_delay);
  }
  count("refused");
  platform::LogError("automatic move refused", {{"game", timer.game_id}, {"status", status}});
  return store_->FinishMove(timer, std::nullopt);
}

absl::Status DeadlineFirer::FirePresence(const DueTimer& timer) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<GameClock> loaded, store_->Load(timer.game_id));
  if (!loaded.has_value()) return store_->Forget(timer.game_id);
  GameClock& game = *loaded;
  const absl::Time now = now_();
  const PresenceSettings& settings = options_.presence;
  PresenceUpdate update;
  update.now = now;
  update.live_window = settings.LiveWindow();
  bool retry_soon = false;
  for (SeatPresenceState& seat : game.seats) {
    const bool connected = SeatConnected(game, seat.color, now, settings);
    update.observed_connected.push_back(connected);
    if (connected != seat.reported.value_or(false)) {
      const absl::Time since =
          connected ? seat.last_seen.value_or(now)
                    : std::min(now, seat.last_seen.value_or(now) + settings.LiveWindow());
      v1::RecordPresenceRequest request;
      request.set_game_id(game.game_id);
      request.set_color(seat.color);
      request.set_connected(connected);
      // One key per observed change, unique within the game.
      request.set_idempotency_key(absl::StrCat("clock:", static_cast<int>(seat.color), ":",
                                               connected ? 1 : 0, ":", absl::ToUnixMillis(since)));
      absl::StatusOr<v1::RecordPresenceResponse> answer = game_->RecordPresence(request);
      const absl::StatusCode code = answer.status().code();
      if (code == absl::StatusCode::kNotFound) return store_->Forget(game.game_id);
      if (answer.ok() || code == absl::StatusCode::kFailedPrecondition) {
        // FAILED_PRECONDITION: over, or a bot's seat; either way nothing
        // more to report.
        if (answer.ok() && metrics_ != nullptr) metrics_->PresenceReported(connected);
        seat.reported = connected;
        seat.abandoned = false;
        if (!connected) seat.away_since = since;
      } else {
        retry_soon = true;
        platform::LogWarn("presence not reported yet: retrying",
                          {{"game", game.game_id}, {"status", answer.status()}});
      }
    }
    if (connected || seat.reported.value_or(false) || seat.abandoned) continue;
    const absl::Time away = seat.away_since == absl::InfinitePast() ? now : seat.away_since;
    if (now < away + settings.abandon_after) continue;
    v1::DeclareAbandonedRequest request;
    request.set_game_id(game.game_id);
    request.set_color(seat.color);
    request.set_expected_ply(game.expected_ply);
    absl::StatusOr<v1::DeclareAbandonedResponse> answer = game_->DeclareAbandoned(request);
    const absl::StatusCode code = answer.status().code();
    if (code == absl::StatusCode::kNotFound) return store_->Forget(game.game_id);
    if (answer.ok() || code == absl::StatusCode::kFailedPrecondition) {
      if (answer.ok()) {
        if (metrics_ != nullptr) metrics_->AbandonDeclared();
        platform::LogInfo("seat abandoned",
                          {{"game", game.game_id}, {"color", v1::Color_Name(seat.color)}});
      }
      seat.abandoned = true;
    } else {
      // ABORTED: our ply is behind the game's; the stream brings the new one.
      retry_soon = true;
      if (code != absl::StatusCode::kAborted) {
        platform::LogWarn("abandon not declared yet: retrying",
                          {{"game", game.game_id}, {"status", answer.status()}});
      }
    }
  }
  std::optional<absl::Time> next = NextPresenceCheck(game, now, settings);
  if (next.has_value()) {
    next = std::max(*next, now + (retry_soon ? options_.retry_delay : kMinimumRecheck));
  } else if (retry_soon) {
    next = now + options_.retry_delay;
  }
  update.next_check = next;
  update.seats = game.seats;
  absl::Status saved = store_->SavePresence(timer, update);
  if (!saved.ok() && metrics_ != nullptr) metrics_->Error("save");
  return saved;
}

}  // namespace draughts::clock
