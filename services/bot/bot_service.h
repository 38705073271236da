// draughts.v1.BotService: ChooseMove answers synchronously (tools, tests,
// analysis) with the same engines the workers use; ListEngines lists the
// built-in levels and the configured external engines. Searches run on the
// calling handler thread but at most `search_threads` at once (each with
// its own engine), so the server's other threads keep answering health
// checks; past that ChooseMove is RESOURCE_EXHAUSTED.
#ifndef DRAUGHTS_BOT_BOT_SERVICE_H_
#define DRAUGHTS_BOT_BOT_SERVICE_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "bot/engine_catalog.h"
#include "bot/move_chooser.h"
#include "draughts/v1/bot.grpc.pb.h"
#include "engine/engine.h"

namespace draughts::bot {

struct BotServiceOptions {
  int search_threads = 2;
  std::size_t table_megabytes = 16;
};

class BotServiceImpl final : public v1::BotService::Service {
 public:
  BotServiceImpl(const EngineCatalog* catalog, const MoveChooser* chooser,
                 BotServiceOptions options);

  grpc::Status ChooseMove(grpc::ServerContext* context, const v1::ChooseMoveRequest* request,
                          v1::ChooseMoveResponse* response) override;
  grpc::Status ListEngines(grpc::ServerContext* context, const v1::ListEnginesRequest* request,
                           v1::ListEnginesResponse* response) override;

  absl::Status DoChooseMove(const v1::ChooseMoveRequest& request, v1::ChooseMoveResponse& response);
  absl::Status DoListEngines(const v1::ListEnginesRequest& request,
                             v1::ListEnginesResponse& response) const;

 private:
  struct SearchSlot {
    engine::Engine engine;
    std::mt19937_64 rng;
    SearchSlot(std::size_t megabytes, uint64_t seed) : engine(megabytes), rng(seed) {}
  };
  // A free slot, or null when every one is busy.
  std::unique_ptr<SearchSlot> TakeSlot();
  void ReturnSlot(std::unique_ptr<SearchSlot> slot);

  const EngineCatalog* catalog_;
  const MoveChooser* chooser_;
  std::mutex mu_;
  std::vector<std::unique_ptr<SearchSlot>> free_slots_;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_BOT_SERVICE_H_
