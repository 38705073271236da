#include "bot/bot_service.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "bot/position_request.h"
#include "platform/page_token.h"
#include "platform/proto_time.h"
#include "platform/status.h"
#include "rules/variant.h"

namespace draughts::bot {
namespace {

constexpr int kDefaultPageSize = 50;
constexpr int kMaxPageSize = 100;
constexpr absl::Duration kMaxTimeBudget = absl::Seconds(60);
constexpr std::string_view kEnginesTokenKind = "e1";

}  // namespace

BotServiceImpl::BotServiceImpl(const EngineCatalog* catalog, const MoveChooser* chooser,
                               BotServiceOptions options)
    : catalog_(catalog), chooser_(chooser) {
  std::random_device seeds;
  for (int i = 0; i < std::max(1, options.search_threads); ++i) {
    free_slots_.push_back(std::make_unique<SearchSlot>(
        options.table_megabytes, (static_cast<uint64_t>(seeds()) << 32) | seeds()));
  }
}

std::unique_ptr<BotServiceImpl::SearchSlot> BotServiceImpl::TakeSlot() {
  std::lock_guard<std::mutex> lock(mu_);
  if (free_slots_.empty()) return nullptr;
  std::unique_ptr<SearchSlot> slot = std::move(free_slots_.back());
  free_slots_.pop_back();
  return slot;
}

void BotServiceImpl::ReturnSlot(std::unique_ptr<SearchSlot> slot) {
  std::lock_guard<std::mutex> lock(mu_);
  free_slots_.push_back(std::move(slot));
}

grpc::Status BotServiceImpl::ChooseMove(grpc::ServerContext*, const v1::ChooseMoveRequest* request,
                                        v1::ChooseMoveResponse* response) {
  return platform::ToGrpcStatus(DoChooseMove(*request, *response));
}

grpc::Status BotServiceImpl::ListEngines(grpc::ServerContext*,
                                         const v1::ListEnginesRequest* request,
                                         v1::ListEnginesResponse* response) {
  return platform::ToGrpcStatus(DoListEngines(*request, *response));
}

absl::Status BotServiceImpl::DoChooseMove(const v1::ChooseMoveRequest& request,
                                          v1::ChooseMoveResponse& response) {
  absl::Duration budget;
  if (request.has_time_budget()) {
    absl::StatusOr<absl::Duration> given =
        platform::CheckProtoDuration(request.time_budget(), "time_budget");
    if (!given.ok()) return given.status();
    budget = *given;
    if (budget < absl::ZeroDuration()) {
      return absl::InvalidArgumentError("time_budget must not be negative");
    }
    if (budget > kMaxTimeBudget) {
      return absl::InvalidArgumentError("time_budget must be at most 60s");
    }
  }
  if (request.engine_id().empty() && !ToEngineLevel(request.level()).has_value()) {
    return absl::InvalidArgumentError(
        "level must be EASY, MEDIUM or HARD when no engine_id is given");
  }
  absl::StatusOr<rules::GameRecord> record =
      BuildGameRecord(request.variant(), request.options(), request.fen(), request.moves());
  if (!record.ok() && record.status().code() != absl::StatusCode::kFailedPrecondition) {
    return record.status();
  }
  if (!request.engine_id().empty() && !EngineCatalog::BuiltinLevel(request.engine_id()) &&
      catalog_->External(request.engine_id()) == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("unknown engine_id \"", request.engine_id(), "\" (see ListEngines)"));
  }
  if (!record.ok()) return record.status();

  std::unique_ptr<SearchSlot> slot = TakeSlot();
  if (slot == nullptr) {
    return absl::ResourceExhaustedError("every search thread is busy: retry after a pause");
  }
  MoveQuestion question;
  question.record = &*record;
  question.level = request.level();
  question.engine_id = request.engine_id();
  question.time_budget = budget;
  question.seed = request.seed();
  absl::StatusOr<Choice> choice = chooser_->Choose(slot->engine, slot->rng, question);
  ReturnSlot(std::move(slot));
  if (!choice.ok()) return choice.status();

  response.set_move(choice->move);
  response.set_depth(choice->depth);
  response.set_nodes(choice->nodes);
  response.set_eval(choice->eval);
  for (const std::string& move : choice->principal_variation) {
    response.add_principal_variation(move);
  }
  const int64_t elapsed_ns = absl::ToInt64Nanoseconds(choice->elapsed);
  response.mutable_elapsed()->set_seconds(elapsed_ns / 1000000000);
  response.mutable_elapsed()->set_nanos(static_cast<int32_t>(elapsed_ns % 1000000000));
  return absl::OkStatus();
}

absl::Status BotServiceImpl::DoListEngines(const v1::ListEnginesRequest& request,
                                           v1::ListEnginesResponse& response) const {
  if (request.page_size() < 0) return absl::InvalidArgumentError("page_size must not be negative");
  const int page_size =
      request.page_size() == 0 ? kDefaultPageSize : std::min(request.page_size(), kMaxPageSize);
  std::size_t offset = 0;
  if (!request.page_token().empty()) {
    absl::StatusOr<std::vector<std::string>> fields =
        platform::DecodePageToken(request.page_token(), kEnginesTokenKind, 2);
    if (!fields.ok()) return fields.status();
    if (!absl::SimpleAtoi((*fields)[0], &offset) || (*fields)[1] != request.variant()) {
      return absl::InvalidArgumentError(
          "page_token is malformed or was issued for another variant filter");
    }
  }
  std::vector<const v1::Engine*> matching;
  for (const v1::Engine& engine : catalog_->engines()) {
    const bool plays =
        request.variant().empty() || std::find(engine.variants().begin(), engine.variants().end(),
                                               request.variant()) != engine.variants().end();
    if (plays) matching.push_back(&engine);
  }
  for (std::size_t i = offset; i < matching.size() && response.engines_size() < page_size; ++i) {
    *response.add_engines() = *matching[i];
  }
  const std::size_t next = offset + static_cast<std::size_t>(response.engines_size());
  if (next < matching.size()) {
    response.set_next_page_token(
        platform::EncodePageToken(kEnginesTokenKind, {absl::StrCat(next), request.variant()}));
  }
  return absl::OkStatus();
}

}  // namespace draughts::bot
