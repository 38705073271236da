// Sends gRPC's own log lines (gpr_log) through platform logging, so a
// service's stderr has one format only. Serve installs it; idempotent.
#ifndef DRAUGHTS_PLATFORM_GRPC_LOG_BRIDGE_H_
#define DRAUGHTS_PLATFORM_GRPC_LOG_BRIDGE_H_

namespace draughts::platform {

void RouteGrpcLogsToLogging();

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_GRPC_LOG_BRIDGE_H_
