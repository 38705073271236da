// Every engine a bot seat can be given: the three built-in levels
// (engine ids "builtin-easy", "builtin-medium", "builtin-hard"; an empty
// engine id means the built-in engine at the seat's level) and the external
// Hub engines of the configuration, each with its process pool.
#ifndef DRAUGHTS_BOT_ENGINE_CATALOG_H_
#define DRAUGHTS_BOT_ENGINE_CATALOG_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bot/bot_metrics.h"
#include "bot/hub_engine_config.h"
#include "bot/hub_engine_pool.h"
#include "draughts/v1/bot.pb.h"
#include "engine/level.h"

namespace draughts::bot {

std::optional<engine::Level> ToEngineLevel(v1::BotLevel level);
v1::BotLevel ToProtoLevel(engine::Level level);

class EngineCatalog {
 public:
  // `metrics` may be null.
  EngineCatalog(std::vector<HubEngineConfig> externals, BotMetrics* metrics);

  // Built-in levels first (easy, medium, hard), then the external engines
  // in configuration order.
  const std::vector<v1::Engine>& engines() const { return engines_; }

  // The level of a built-in engine id ("builtin-medium"), nullopt otherwise.
  static std::optional<engine::Level> BuiltinLevel(std::string_view engine_id);
  // The pool of an external engine, null if the id is not configured.
  HubEnginePool* External(std::string_view engine_id) const;

 private:
  std::vector<v1::Engine> engines_;
  std::vector<std::unique_ptr<HubEnginePool>> pools_;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_ENGINE_CATALOG_H_
