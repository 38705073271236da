// The JSON bodies of the REST answers (docs/WEB_PROTOCOL.md, "REST"): the
// messages of web_game.proto in protobuf's JSON mapping, built in one place
// so the handlers only decide what to answer. Errors are
// error_mapping.h's, WebSocket frames ws_protocol.h's.
#ifndef DRAUGHTS_GATEWAY_REST_BODIES_H_
#define DRAUGHTS_GATEWAY_REST_BODIES_H_

#include <string>
#include <string_view>

#include "draughts/v1/game.pb.h"
#include "draughts/v1/rating.pb.h"
#include "draughts/v1/web_game.pb.h"
#include "gateway/session_store.h"
#include "gateway/ws_protocol.h"

namespace draughts::gateway {

// POST and GET /api/session, register, login:
// {"playerId":...,"displayName":...,"kind":"guest"|"person"}, and for a
// guest "guestName" too (the name clients read before accounts existed).
// Never the session id: that goes only into the owner's Set-Cookie.
std::string SessionJson(const Session& session);

// POST /api/games: {"gameId":...,"seats":{"white":<token>,"black":<token>},"game":...}.
std::string CreatedGameJson(const v1::CreateGameResponse& created);

// GET /api/games/{id}: {"game":...,"legalMoves":[...],"mustCapture":...}.
std::string GameViewJson(const GameView& view);
// The same as a message, whose fields the snapshot frame carries too.
v1::GameViewBody GameViewBodyOf(const GameView& view);

// GET /api/games/{id}/archive: the ArchivedGame in protobuf's JSON
// ({"record":...,"pdn":...,"archivedAt":...}); it holds no secret (seats
// carry public player ids and names only).
std::string ArchivedGameJson(const v1::ArchivedGame& game);

// GET /api/games/{id}/pdn: the Content-Disposition value, an attachment named
// "draughts-<id>.pdn" with every character outside [A-Za-z0-9_-] of the id
// dropped, so no header or path syntax can ride in on it.
std::string PdnContentDisposition(std::string_view game_id);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_REST_BODIES_H_
