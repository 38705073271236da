#include "match/hub_engine.h"

#include <variant>

namespace draughts::match {

using Clock = std::chrono::steady_clock;

rules::Result<HubEngine> HubEngine::Start(const EngineSpec& spec, std::string_view variant) {
  auto process = EngineProcess::Start(spec.command);
  if (!process.ok()) return process.error();
  HubEngine engine(std::move(*process));

  if (auto e = engine.Send(hub::HubCommand{})) return *e;
  const auto handshake_deadline = Clock::now() + kHandshakeTimeout;
  while (true) {
    auto line = engine.process_.ReadLine(handshake_deadline);
    if (!line.ok()) return rules::MakeError("during hub/wait: " + line.error().message);
    auto answer = hub::ParseEngineAnswer(*line);
    if (!answer.ok()) continue;
    if (const auto* id = std::get_if<hub::IdAnswer>(&*answer)) {
      engine.name_ = id->name;
      if (!id->version.empty()) engine.name_ += " " + id->version;
    } else if (const auto* param = std::get_if<hub::ParamAnswer>(&*answer)) {
      engine.params_.push_back(*param);
    } else if (std::holds_alternative<hub::WaitAnswer>(*answer)) {
      break;
    }
  }
  if (!spec.display_name.empty()) engine.name_ = spec.display_name;
  if (engine.name_.empty()) engine.name_ = spec.command;

  bool sets_variant = false;
  for (const auto& [name, value] : spec.params) sets_variant = sets_variant || name == "variant";
  bool declares_variant = false;
  for (const hub::ParamAnswer& p : engine.params_) declares_variant |= p.name == "variant";
  if (declares_variant && !sets_variant) {
    if (auto e = engine.Send(hub::SetParamCommand{"variant", std::string(variant)})) return *e;
  }
  for (const auto& [name, value] : spec.params) {
    if (auto e = engine.Send(hub::SetParamCommand{name, value})) return *e;
  }
  if (auto e = engine.Send(hub::InitCommand{})) return *e;
  auto ready = engine.WaitFor<hub::ReadyAnswer>(Clock::now() + kInitTimeout);
  if (!ready.ok()) return rules::MakeError("during init/ready: " + ready.error().message);
  return engine;
}

std::optional<rules::Error> HubEngine::Send(const hub::GuiCommand& command) {
  return process_.WriteLine(hub::FormatGuiCommand(command));
}

template <typename T>
rules::Result<T> HubEngine::WaitFor(Clock::time_point deadline,
                                    std::optional<hub::InfoAnswer>* last_info) {
  while (true) {
    auto line = process_.ReadLine(deadline);
    if (!line.ok()) return line.error();
    auto answer = hub::ParseEngineAnswer(*line);
    if (!answer.ok()) continue;  // a malformed line is not worth a forfeit
    if (const auto* wanted = std::get_if<T>(&*answer)) return *wanted;
    if (last_info != nullptr) {
      if (const auto* info = std::get_if<hub::InfoAnswer>(&*answer)) *last_info = *info;
    }
  }
}

std::optional<rules::Error> HubEngine::NewGame() {
  return Send(hub::NewGameCommand{});
}

rules::Result<ThinkResult> HubEngine::Think(const hub::PosCommand& pos,
                                            const hub::LevelCommand& level,
                                            std::chrono::milliseconds timeout) {
  if (auto e = Send(pos)) return *e;
  if (!(level == hub::LevelCommand{})) {
    if (auto e = Send(level)) return *e;
  }
  ThinkResult result;
  const auto start = Clock::now();
  if (auto e = Send(hub::GoCommand{hub::GoMode::kThink})) return *e;

  const auto deadline = start + timeout;
  auto done = WaitFor<hub::DoneAnswer>(deadline, &result.last_info);
  if (!done.ok()) {
    // A dead or babbling engine gets no grace; only a slow one does.
    if (Clock::now() < deadline) return done.error();
    // Too slow: ask for the move now, but a move after the deadline still
    // loses on time (the caller sees the elapsed time).
    if (Send(hub::StopCommand{})) return done.error();
    done = WaitFor<hub::DoneAnswer>(Clock::now() + kStopGrace, &result.last_info);
    if (!done.ok()) return rules::MakeError("no move within the time limit");
  }
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  if (!done->move) return rules::MakeError("the engine answered without a move");
  result.move = *done->move;
  return result;
}

void HubEngine::Quit() {
  if (!process_.running()) return;
  (void)Send(hub::QuitCommand{});
  process_.Stop(std::chrono::milliseconds(2000));
}

}  // namespace draughts::match
