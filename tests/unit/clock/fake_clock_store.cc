#include "fake_clock_store.h"

#include "absl/strings/str_cat.h"

namespace draughts::clock::testing {

absl::StatusOr<ArmOutcome> FakeClockStore::Arm(const ArmCommand& command, absl::Time now) {
  if (!failure.ok()) return failure;
  auto known = games.find(command.game_id);
  int64_t version = -1;
  if (known != games.end()) version = known->second.game_version;
  if (auto ended = over.find(command.game_id); ended != over.end()) version = ended->second;
  if (version > command.game_version) {
    return absl::AbortedError(absl::StrCat("game_version ", command.game_version, " is older"));
  }
  if (version == command.game_version) return ArmOutcome::kRepeated;
  over.erase(command.game_id);
  GameClock& game = games[command.game_id];
  const bool first = game.game_id.empty();
  game.game_id = command.game_id;
  game.game_version = command.game_version;
  game.expected_ply = command.expected_ply;
  game.color = command.color;
  game.deadline = command.deadline;
  if (first) {
    for (v1::Color color : command.human_seats) {
      SeatPresenceState seat;
      seat.color = color;
      seat.away_since = now;
      game.seats.push_back(seat);
    }
  }
  return ArmOutcome::kArmed;
}

absl::Status FakeClockStore::Cancel(const std::string& game_id,
                                    std::optional<int64_t> game_version) {
  if (!failure.ok()) return failure;
  auto known = games.find(game_id);
  int64_t version = known == games.end() ? 0 : known->second.game_version;
  if (game_version.has_value()) {
    if (*game_version < version) return absl::OkStatus();
    version = *game_version;
  }
  games.erase(game_id);
  over[game_id] = version;
  return absl::OkStatus();
}

absl::StatusOr<std::optional<GameClock>> FakeClockStore::Load(const std::string& game_id) {
  if (!failure.ok()) return failure;
  auto known = games.find(game_id);
  if (known == games.end()) return std::nullopt;
  return known->second;
}

absl::StatusOr<bool> FakeClockStore::Beat(const BeatCommand& command) {
  if (!failure.ok()) return failure;
  auto known = games.find(command.game_id);
  if (known == games.end()) return absl::NotFoundError("not tracking the game");
  GameClock& game = known->second;
  SeatPresenceState* seat = nullptr;
  for (SeatPresenceState& s : game.seats) {
    if (s.color == command.color) seat = &s;
  }
  if (seat == nullptr) return absl::FailedPreconditionError("a bot's seat");
  std::erase_if(game.connections, [&](const Connection& c) {
    return c.color == command.color &&
           (c.id == command.connection_id || c.last_beat + command.live_window <= command.now);
  });
  if (!command.closing) {
    game.connections.push_back({command.color, command.connection_id, command.now});
  }
  seat->last_seen = command.now;
  for (const Connection& c : game.connections) {
    if (c.color == command.color) return true;
  }
  return false;
}

absl::StatusOr<std::vector<DueTimer>> FakeClockStore::ClaimDue(absl::Time, absl::Time, int) {
  if (!failure.ok()) return failure;
  return std::vector<DueTimer>();
}

absl::Status FakeClockStore::FinishMove(const DueTimer& timer, std::optional<absl::Time> retry_at) {
  if (!failure.ok()) return failure;
  finished_moves.emplace_back(timer.game_id, retry_at);
  return absl::OkStatus();
}

absl::Status FakeClockStore::SavePresence(const DueTimer& timer, const PresenceUpdate& update) {
  if (!failure.ok()) return failure;
  saved.push_back(update);
  auto known = games.find(timer.game_id);
  if (known != games.end()) known->second.seats = update.seats;
  return absl::OkStatus();
}

absl::Status FakeClockStore::Forget(const std::string& game_id) {
  if (!failure.ok()) return failure;
  games.erase(game_id);
  forgotten.push_back(game_id);
  return absl::OkStatus();
}

}  // namespace draughts::clock::testing
