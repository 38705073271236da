// Template definitions of integration_env.h.
#ifndef DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_INTEGRATION_ENV_INL_H_
#define DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_INTEGRATION_ENV_INL_H_

#include "platform/redis_streams.h"

namespace draughts::game_state::testing {

template <typename T>
std::vector<T> ReadStream(platform::RedisClient& redis, const std::string& key) {
  std::vector<T> out;
  absl::StatusOr<std::vector<platform::StreamEntry>> entries = platform::StreamRange(redis, key);
  if (!entries.ok()) return out;
  for (const platform::StreamEntry& entry : *entries) {
    for (const auto& [field, value] : entry.fields) {
      if (field != "data") continue;
      T message;
      if (message.ParseFromString(value)) out.push_back(std::move(message));
    }
  }
  return out;
}

}  // namespace draughts::game_state::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_INTEGRATION_ENV_INL_H_
