#include "gateway/rest_bodies.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gateway/json_string.h"
#include "gateway/proto_json.h"

namespace draughts::gateway {
namespace {

std::string LegalMovesJson(const v1::ListLegalMovesResponse& moves) {
  std::string out = "[";
  for (int i = 0; i < moves.moves_size(); ++i) {
    if (i > 0) out += ",";
    out += MessageToJson(moves.moves(i));
  }
  out += "]";
  return out;
}

}  // namespace

std::string SessionJson(const Session& session) {
  return absl::StrCat(
      "{\"playerId\":", JsonQuote(session.player_id),
      ",\"displayName\":", JsonQuote(session.display_name),
      ",\"kind\":", session.is_person() ? "\"person\"" : "\"guest\"",
      session.is_person() ? "" : absl::StrCat(",\"guestName\":", JsonQuote(session.display_name)),
      "}");
}

std::string CreatedGameJson(const v1::CreateGameResponse& created) {
  return absl::StrCat("{\"gameId\":", JsonQuote(created.game_id()),
                      ",\"seats\":{\"white\":", JsonQuote(created.white_player_token()),
                      ",\"black\":", JsonQuote(created.black_player_token()),
                      "},\"game\":", MessageToJson(created.game()), "}");
}

std::string GameViewFields(const GameView& view) {
  return absl::StrCat("\"game\":", MessageToJson(view.game),
                      ",\"legalMoves\":", LegalMovesJson(view.moves),
                      ",\"mustCapture\":", view.moves.must_capture() ? "true" : "false");
}

std::string GameViewJson(const GameView& view) {
  return absl::StrCat("{", GameViewFields(view), "}");
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
