#include "platform/grpc_log_bridge.h"

#include <grpc/support/log.h>

#include <mutex>

#include "platform/logging.h"

namespace draughts::platform {
namespace {

void ForwardGrpcLog(gpr_log_func_args* args) {
  LogLevel level = LogLevel::kInfo;
  switch (args->severity) {
    case GPR_LOG_SEVERITY_DEBUG:
      level = LogLevel::kDebug;
      break;
    case GPR_LOG_SEVERITY_INFO:
      level = LogLevel::kInfo;
      break;
    case GPR_LOG_SEVERITY_ERROR:
      level = LogLevel::kError;
      break;
  }
  Log(level, args->message != nullptr ? args->message : "",
      {{"source", "grpc"},
       {"file", args->file != nullptr ? args->file : "?"},
       {"line", args->line}});
}

}  // namespace

void RouteGrpcLogsToLogging() {
  static std::once_flag once;
  std::call_once(once, [] { gpr_set_log_function(&ForwardGrpcLog); });
}

}  // namespace draughts::platform
