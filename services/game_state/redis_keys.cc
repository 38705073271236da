#include "game_state/redis_keys.h"

#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"

namespace draughts::game_state {
namespace {

using platform::ToAbsl;

constexpr std::string_view kEventsSuffix = "}:events";

}  // namespace

std::string RedisKeys::State(std::string_view game_id) const {
  return absl::StrCat(prefix, "game:{", ToAbsl(game_id), "}:state");
}
std::string RedisKeys::Events(std::string_view game_id) const {
  return absl::StrCat(prefix, "game:{", ToAbsl(game_id), ToAbsl(kEventsSuffix));
}
std::string RedisKeys::Outbox(std::string_view game_id) const {
  return absl::StrCat(prefix, "game:{", ToAbsl(game_id), "}:outbox");
}
std::string RedisKeys::EventsChanged() const {
  return absl::StrCat(prefix, "game-events-changed");
}
std::string RedisKeys::LiveGames() const {
  return absl::StrCat(prefix, "games:live");
}
std::string RedisKeys::AllGames() const {
  return absl::StrCat(prefix, "games:all");
}
std::string RedisKeys::PlayerGames(std::string_view player_id) const {
  return absl::StrCat(prefix, "games:player:", ToAbsl(player_id));
}
std::string RedisKeys::OutboxPending() const {
  return absl::StrCat(prefix, "game-state:outbox-pending");
}
std::string RedisKeys::BotJobs() const {
  return absl::StrCat(prefix, bot_jobs_stream);
}
std::string RedisKeys::Results() const {
  return absl::StrCat(prefix, results_stream);
}
std::string RedisKeys::Deadlines() const {
  return absl::StrCat(prefix, deadlines_stream);
}

std::string RedisKeys::ChatNotices() const {
  return absl::StrCat(prefix, chat_notices_stream);
}

}  // namespace draughts::game_state
