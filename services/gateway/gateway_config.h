// The gateway's flags and their environment variables (platform/config.h:
// flag > env > default). Its own options read DRAUGHTS_GATEWAY_* (as
// platform/service_options.h prefixes every service's, so services sharing a
// shell or a pod keep their --listen and --metrics-port apart); the values
// every service shares keep their shared names: DRAUGHTS_REDIS, DRAUGHTS_PG,
// DRAUGHTS_GAME_STATE_ADDR, DRAUGHTS_RATING_ADDR, DRAUGHTS_MATCHMAKING_ADDR.
#ifndef DRAUGHTS_GATEWAY_GATEWAY_CONFIG_H_
#define DRAUGHTS_GATEWAY_GATEWAY_CONFIG_H_

#include "platform/config.h"

namespace draughts::gateway {

platform::ConfigSpec GatewayConfigSpec();

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GATEWAY_CONFIG_H_
