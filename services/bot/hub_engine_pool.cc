#include "bot/hub_engine_pool.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "hub/move_text.h"
#include "hub/position_text.h"
#include "platform/logging.h"
#include "rules/move_notation.h"

namespace draughts::bot {
namespace {

// Past its budget an engine gets this long to answer "stop" (HubEngine
// adds its own grace after that).
constexpr absl::Duration kLateAnswer = absl::Milliseconds(200);

hub::PosCommand PositionOf(const rules::GameRecord& record) {
  hub::PosCommand pos;
  pos.position = hub::FormatHubPosition(record.start());
  for (const rules::Move& move : record.moves()) pos.moves.push_back(hub::FormatHubMove(move));
  return pos;
}

}  // namespace

HubEnginePool::HubEnginePool(HubEngineConfig config, BotMetrics* metrics)
    : config_(std::move(config)), metrics_(metrics) {}

HubEnginePool::~HubEnginePool() {
  std::vector<Process> idle;
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle.swap(idle_);
  }
  for (Process& process : idle) process.engine->Quit();
}

bool HubEnginePool::Plays(std::string_view variant) const {
  return std::find(config_.variants.begin(), config_.variants.end(), variant) !=
         config_.variants.end();
}

int HubEnginePool::running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_;
}

absl::StatusOr<HubEnginePool::Process> HubEnginePool::StartProcess(const std::string& variant) {
  match::EngineSpec spec;
  spec.command = config_.command;
  spec.params = config_.params;
  spec.display_name = config_.display_name;
  rules::Result<match::HubEngine> started = match::HubEngine::Start(spec, variant);
  if (!started.ok()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      --running_;
    }
    freed_.notify_one();
    return absl::UnavailableError(absl::StrCat("external engine ", config_.id,
                                               " did not start: ", started.error().ToString()));
  }
  return Process{variant, std::make_unique<match::HubEngine>(std::move(*started))};
}

absl::StatusOr<HubEnginePool::Process> HubEnginePool::Acquire(const std::string& variant,
                                                              absl::Time deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    auto same = std::find_if(idle_.begin(), idle_.end(),
                             [&](const Process& p) { return p.variant == variant; });
    if (same != idle_.end()) {
      Process process = std::move(*same);
      idle_.erase(same);
      return process;
    }
    if (running_ < config_.processes) {
      ++running_;
      lock.unlock();
      return StartProcess(variant);
    }
    if (!idle_.empty()) {
      // Every place is taken and none plays this rule set: restart one.
      Process other = std::move(idle_.front());
      idle_.erase(idle_.begin());
      lock.unlock();
      other.engine->Quit();
      return StartProcess(variant);
    }
    if (freed_.wait_until(lock, absl::ToChronoTime(deadline)) == std::cv_status::timeout &&
        absl::Now() >= deadline) {
      return absl::UnavailableError(
          absl::StrCat("every process of external engine ", config_.id, " is busy"));
    }
  }
}

void HubEnginePool::Release(Process process) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(process));
  }
  freed_.notify_one();
}

void HubEnginePool::Discard(Process process, const std::string& why) {
  platform::LogWarn("external engine process replaced", {{"engine", config_.id}, {"why", why}});
  process.engine.reset();  // kills the process group at once
  {
    std::lock_guard<std::mutex> lock(mu_);
    --running_;
  }
  freed_.notify_one();
  if (metrics_ != nullptr) metrics_->EngineRestarted(config_.id);
}

absl::StatusOr<Choice> HubEnginePool::ThinkOn(Process& process, const rules::GameRecord& record,
                                              absl::Duration budget) {
  hub::LevelCommand level;
  level.move_time = absl::ToDoubleSeconds(budget);
  const auto timeout = std::chrono::milliseconds(absl::ToInt64Milliseconds(budget + kLateAnswer));
  rules::Result<match::ThinkResult> thought =
      process.engine->Think(PositionOf(record), level, timeout);
  if (!thought.ok()) return absl::UnavailableError(thought.error().ToString());
  rules::Result<rules::Move> move =
      hub::ParseHubMove(record.variant(), record.position(), thought->move);
  if (!move.ok()) {
    return absl::UnavailableError(
        absl::StrCat("answered \"", thought->move, "\": ", move.error().ToString()));
  }
  Choice choice;
  choice.move = rules::FormatMovePath(*move);
  choice.principal_variation = {choice.move};
  choice.elapsed = absl::FromChrono(thought->elapsed);
  choice.engine = config_.id;
  if (thought->last_info.has_value()) {
    const hub::InfoAnswer& info = *thought->last_info;
    choice.depth = info.depth.value_or(0);
    choice.nodes = info.nodes.value_or(0);
    if (info.score.has_value()) choice.eval = static_cast<int>(*info.score * 100.0);
  }
  return choice;
}

absl::StatusOr<Choice> HubEnginePool::Think(const rules::GameRecord& record, absl::Duration budget,
                                            absl::Duration wait) {
  const std::string variant(record.variant().id);
  if (!Plays(variant)) {
    return absl::FailedPreconditionError(
        absl::StrCat("external engine ", config_.id, " does not play ", variant));
  }
  if (budget <= absl::ZeroDuration()) budget = config_.move_time;
  absl::Status last = absl::UnavailableError("no attempt");
  // A process that fails is replaced and the move asked once more.
  for (int attempt = 0; attempt < 2; ++attempt) {
    absl::StatusOr<Process> process = Acquire(variant, absl::Now() + wait);
    if (!process.ok()) {
      last = process.status();
      continue;
    }
    absl::StatusOr<Choice> choice = ThinkOn(*process, record, budget);
    if (choice.ok()) {
      Release(*std::move(process));
      return choice;
    }
    last = choice.status();
    Discard(*std::move(process), std::string(last.message()));
  }
  return absl::UnavailableError(
      absl::StrCat("external engine ", config_.id, " is not answering: ", last.message()));
}

}  // namespace draughts::bot
