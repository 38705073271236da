// The kind of a table socket's ServerFrame ("welcome", "gameEvent", ...)
// read from its JSON text without parsing it: the load generator parses in
// full only the frames it acts on, so that its own CPU does not crowd out
// the servers it measures on the same machine.
#ifndef DRAUGHTS_TOOLS_LOADGEN_FRAME_KIND_H_
#define DRAUGHTS_TOOLS_LOADGEN_FRAME_KIND_H_

#include <string_view>

namespace draughts::loadgen {

// The name of the frame member of `json`, a ServerFrame as the gateway
// prints it (`{"requestId":"...","<kind>":{...}}`, every field printed,
// request_id first). Empty when the text does not start that way (the
// caller then parses it in full).
std::string_view FrameKind(std::string_view json);

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_FRAME_KIND_H_
