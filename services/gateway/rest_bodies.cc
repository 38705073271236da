#include "gateway/rest_bodies.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gateway/proto_json.h"

namespace draughts::gateway {

std::string SessionJson(const Session& session) {
  v1::SessionBody body;
  body.set_player_id(session.player_id);
  body.set_display_name(session.display_name);
  body.set_kind(session.is_person() ? "person" : "guest");
  if (!session.is_person()) body.set_guest_name(session.display_name);
  return MessageToJson(body);
}

std::string CreatedGameJson(const v1::CreateGameResponse& created) {
  v1::CreatedGameBody body;
  body.set_game_id(created.game_id());
  body.mutable_seats()->set_white(created.white_player_token());
  body.mutable_seats()->set_black(created.black_player_token());
  *body.mutable_game() = created.game();
  return MessageToJson(body);
}

v1::GameViewBody GameViewBodyOf(const GameView& view) {
  v1::GameViewBody body;
  *body.mutable_game() = view.game;
  *body.mutable_legal_moves() = view.moves.moves();
  body.set_must_capture(view.moves.must_capture());
  return body;
}

std::string GameViewJson(const GameView& view) {
  return MessageToJson(GameViewBodyOf(view));
}

std::string ArchivedGameJson(const v1::ArchivedGame& game) {
  return MessageToJson(game);
}

std::string PdnContentDisposition(std::string_view game_id) {
  std::string name = "draughts-";
  for (char c : game_id) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') name += c;
  }
  return absl::StrCat("attachment; filename=\"", name, ".pdn\"");
}

}  // namespace draughts::gateway
