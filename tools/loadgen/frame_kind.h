// The kind of a table socket's ServerFrame ("welcome", "gameEvent", ...)
// read from its JSON text without parsing it: the load generator parses in
// full only the frames it acts on, so that its own CPU does not crowd out
// the servers it measures on the same machine.
#ifndef DRAUGHTS_TOOLS_LOADGEN_FRAME_KIND_H_
#define DRAUGHTS_TOOLS_LOADGEN_FRAME_KIND_H_

#include <optional>
#include <string_view>

#include "draughts/v1/events.pb.h"

namespace draughts::loadgen {

// The name of the frame member of `json`, a ServerFrame as the gateway
// prints it (`{"requestId":"...","<kind>":{...}}`, every field printed,
// request_id first). Empty when the text does not start that way (the
// caller then parses it in full).
std::string_view FrameKind(std::string_view json);

// A gameEvent frame carrying movePlayed, read from its JSON text as the
// gateway prints it (fields in field-number order), with only what the
// simulated clients use: event_id, game_id, ply and the move's color,
// notation, fen_after and automatic. Every socket gets one such frame a
// move, and protobuf's JSON parser was a third of the load generator's CPU.
// nullopt for any other frame, or a value with an escape in it: the caller
// then parses in full.
std::optional<v1::GameEvent> ScanMovePlayedFrame(std::string_view json);

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_FRAME_KIND_H_
