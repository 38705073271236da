#include "test_records.h"

#include <google/protobuf/util/time_util.h>

#include <optional>
#include <random>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "rules/variant.h"

namespace draughts::rating::testing {

using google::protobuf::util::TimeUtil;

v1::ResultRecord PlayedRecord(const std::string& game_id, const std::string& variant_id, int plies,
                              unsigned seed, const std::string& initial_fen) {
  const rules::Variant variant = *rules::FindVariant(variant_id);
  std::optional<rules::GameRecord> game;
  if (initial_fen.empty()) {
    game.emplace(variant);
  } else {
    game.emplace(variant, *rules::ParseFen(variant, initial_fen));
  }
  v1::ResultRecord record;
  record.set_game_id(game_id);
  record.set_table_id("t-" + game_id);
  record.set_variant(variant_id);
  record.set_initial_fen(initial_fen.empty() ? rules::FormatFen(game->position()) : initial_fen);
  std::mt19937 random(seed);
  for (int i = 0; i < plies && !game->is_over(); ++i) {
    const rules::MoveList& legal = game->legal_moves();
    const rules::Move move = legal[random() % legal.size()];
    record.add_moves(rules::FormatMove(legal, move));
    game.emplace(*game->Play(move));
  }
  record.set_final_fen(rules::FormatFen(game->position()));
  record.set_ply(record.moves_size());
  switch (game->outcome().status) {
    case rules::GameStatus::kWhiteWins:
      record.set_result(v1::GAME_RESULT_WHITE_WINS);
      record.set_reason(v1::RESULT_REASON_NO_MOVES);
      break;
    case rules::GameStatus::kBlackWins:
      record.set_result(v1::GAME_RESULT_BLACK_WINS);
      record.set_reason(v1::RESULT_REASON_NO_MOVES);
      break;
    case rules::GameStatus::kDraw:
      record.set_result(v1::GAME_RESULT_DRAW);
      record.set_reason(v1::RESULT_REASON_THREEFOLD_REPETITION);
      break;
    case rules::GameStatus::kOngoing:
      record.set_result(v1::GAME_RESULT_BLACK_WINS);
      record.set_reason(v1::RESULT_REASON_RESIGNATION);
      record.set_ended_by(v1::COLOR_WHITE);
      break;
  }
  record.mutable_white()->set_kind(v1::SEAT_KIND_PERSON);
  record.mutable_white()->set_player_id("alice-id");
  record.mutable_white()->set_display_name("Alice \"the\" White");
  record.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
  record.mutable_black()->set_player_id("g_bob");
  record.mutable_black()->set_display_name("Bob");
  record.set_rated(false);
  *record.mutable_started_at() = TimeUtil::SecondsToTimestamp(1767225600);  // 2026-01-01
  *record.mutable_finished_at() = TimeUtil::MillisecondsToTimestamp(1767226800123);
  *record.mutable_time_per_move() = TimeUtil::SecondsToDuration(30);
  return record;
}

v1::ResultRecord RatedRecord(const std::string& game_id, const std::string& white,
                             const std::string& black, v1::GameResult result,
                             absl::Time finished_at, const std::string& variant) {
  v1::ResultRecord record;
  record.set_game_id(game_id);
  record.set_table_id("t-" + game_id);
  record.set_variant(variant);
  record.set_rated(true);
  record.set_result(result);
  record.set_reason(result == v1::GAME_RESULT_DRAW ? v1::RESULT_REASON_DRAW_AGREED
                                                   : v1::RESULT_REASON_RESIGNATION);
  for (auto [seat, id] :
       {std::pair{record.mutable_white(), &white}, std::pair{record.mutable_black(), &black}}) {
    seat->set_kind(v1::SEAT_KIND_PERSON);
    seat->set_player_id(*id);
    seat->set_display_name(*id + " name");
  }
  *record.mutable_started_at() =
      TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(finished_at - absl::Minutes(10)));
  *record.mutable_finished_at() =
      TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(finished_at));
  return record;
}

}  // namespace draughts::rating::testing
