#include "bot/engine_catalog.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "rules/variant.h"

namespace draughts::bot {
namespace {

constexpr engine::Level kLevels[] = {engine::Level::kEasy, engine::Level::kMedium,
                                     engine::Level::kHard};

std::string BuiltinId(engine::Level level) {
  return "builtin-" + std::string(engine::LevelName(level));
}

std::string BuiltinName(engine::Level level) {
  switch (level) {
    case engine::Level::kEasy:
      return "Easy";
    case engine::Level::kMedium:
      return "Medium";
    case engine::Level::kHard:
      return "Hard";
  }
  return "";
}

}  // namespace

std::optional<engine::Level> ToEngineLevel(v1::BotLevel level) {
  switch (level) {
    case v1::BOT_LEVEL_EASY:
      return engine::Level::kEasy;
    case v1::BOT_LEVEL_MEDIUM:
      return engine::Level::kMedium;
    case v1::BOT_LEVEL_HARD:
      return engine::Level::kHard;
    default:
      return std::nullopt;
  }
}

v1::BotLevel ToProtoLevel(engine::Level level) {
  switch (level) {
    case engine::Level::kEasy:
      return v1::BOT_LEVEL_EASY;
    case engine::Level::kMedium:
      return v1::BOT_LEVEL_MEDIUM;
    case engine::Level::kHard:
      return v1::BOT_LEVEL_HARD;
  }
  return v1::BOT_LEVEL_UNSPECIFIED;
}

EngineCatalog::EngineCatalog(std::vector<HubEngineConfig> externals, BotMetrics* metrics) {
  for (engine::Level level : kLevels) {
    v1::Engine& entry = engines_.emplace_back();
    entry.set_engine_id(BuiltinId(level));
    entry.set_display_name(BuiltinName(level));
    entry.set_kind(v1::ENGINE_KIND_BUILTIN);
    entry.set_level(ToProtoLevel(level));
    for (const rules::Variant& variant : rules::AllVariants()) {
      entry.add_variants(std::string(variant.id));
    }
  }
  for (HubEngineConfig& config : externals) {
    v1::Engine& entry = engines_.emplace_back();
    entry.set_engine_id(config.id);
    entry.set_display_name(config.display_name);
    entry.set_kind(v1::ENGINE_KIND_HUB);
    for (const std::string& variant : config.variants) entry.add_variants(variant);
    pools_.push_back(std::make_unique<HubEnginePool>(std::move(config), metrics));
  }
}

std::optional<engine::Level> EngineCatalog::BuiltinLevel(std::string_view engine_id) {
  for (engine::Level level : kLevels) {
    if (engine_id == BuiltinId(level)) return level;
  }
  return std::nullopt;
}

HubEnginePool* EngineCatalog::External(std::string_view engine_id) const {
  for (const auto& pool : pools_) {
    if (pool->config().id == engine_id) return pool.get();
  }
  return nullptr;
}

}  // namespace draughts::bot
