// The JSON bodies of the REST answers (docs/WEB_PROTOCOL.md, "REST"), built
// in one place so the handlers only decide what to answer. Errors are
// error_mapping.h's, WebSocket frames ws_protocol.h's.
#ifndef DRAUGHTS_GATEWAY_REST_BODIES_H_
#define DRAUGHTS_GATEWAY_REST_BODIES_H_

#include <string>

#include "draughts/v1/game.pb.h"
#include "gateway/session_store.h"
#include "gateway/ws_protocol.h"

namespace draughts::gateway {

// POST /api/session: {"playerId":...,"guestName":...}. Never the session id:
// that goes only into the owner's Set-Cookie.
std::string SessionJson(const Session& session);

// POST /api/games: {"gameId":...,"seats":{"white":<token>,"black":<token>},"game":...}.
std::string CreatedGameJson(const v1::CreateGameResponse& created);

// GET /api/games/{id}: {"game":...,"legalMoves":[...],"mustCapture":...}.
std::string GameViewJson(const GameView& view);
// Its fields without the braces, which the snapshot frame carries too.
std::string GameViewFields(const GameView& view);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_REST_BODIES_H_
