// gateway mode: simulated browsers through the gateway's HTTP and table
// WebSockets (gateway_table.h says what one table does). Tables are set up
// a few at a time, then the warm-up and the measured window run; at the
// end, sending stops and every socket waits (up to --drain-timeout) for the
// events of the moves already sent. Sockets run on a few io_context threads
// (--io-threads), each table on one of them.
#ifndef DRAUGHTS_TOOLS_LOADGEN_GATEWAY_LOAD_H_
#define DRAUGHTS_TOOLS_LOADGEN_GATEWAY_LOAD_H_

#include "absl/status/statusor.h"
#include "loadgen/load_options.h"
#include "loadgen/load_stats.h"

namespace draughts::loadgen {

// options.targets: the gateway, one host:port (a numeric IPv4 or IPv6
// address).
absl::StatusOr<LoadSummary> RunGatewayLoad(const LoadOptions& options);

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_GATEWAY_LOAD_H_
