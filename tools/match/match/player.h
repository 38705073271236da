#pragma once

// What a game needs from an engine: a fresh start and a move per position.
// HubEngine is the real one; tests use scripted players.

#include <chrono>

#include "hub/commands.h"
#include "match/hub_engine.h"
#include "rules/result.h"

namespace draughts::match {

class Player {
 public:
  virtual ~Player() = default;
  virtual std::optional<rules::Error> NewGame() = 0;
  virtual rules::Result<ThinkResult> Think(const hub::PosCommand& pos,
                                           const hub::LevelCommand& level,
                                           std::chrono::milliseconds timeout) = 0;
};

class HubPlayer : public Player {
 public:
  explicit HubPlayer(HubEngine& engine) : engine_(engine) {}
  std::optional<rules::Error> NewGame() override { return engine_.NewGame(); }
  rules::Result<ThinkResult> Think(const hub::PosCommand& pos, const hub::LevelCommand& level,
                                   std::chrono::milliseconds timeout) override {
    return engine_.Think(pos, level, timeout);
  }

 private:
  HubEngine& engine_;
};

}  // namespace draughts::match
