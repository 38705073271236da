// The time to print one table snapshot frame (an international game 40
// plies in, its move list and the side to move's legal moves, built by
// TableSnapshotFrame as the table socket does) with protobuf's
// MessageToJsonString and with the gateway's MessageToJson (the fast
// printer), interleaved, median of several repetitions.
//   gateway_json_bench [prints per repetition] [repetitions] [fast]
// With "fast" only the fast printer runs (to profile it alone).
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "draughts/v1/web_socket.pb.h"
#include "gateway/proto_json.h"
#include "gateway/table_frames.h"
#include "gateway/ws_protocol.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "rules/variant.h"

namespace draughts::gateway {
namespace {

using Clock = std::chrono::steady_clock;

v1::Color ToProto(rules::Color color) {
  return color == rules::Color::kWhite ? v1::COLOR_WHITE : v1::COLOR_BLACK;
}

void FillPath(const rules::Move& move, v1::LegalMove* out) {
  out->add_path(move.from);
  for (auto square : move.landing_squares()) out->add_path(square);
  for (auto square : move.captured_squares()) out->add_captured(square);
}

void FillSeat(v1::PlayerState* player, const char* id, const char* name) {
  player->mutable_seat()->set_kind(v1::SEAT_KIND_GUEST);
  player->mutable_seat()->set_player_id(id);
  player->mutable_seat()->set_display_name(name);
  player->set_connected(true);
}

// A game played 40 plies (more if needed to reach a position with at least
// 8 legal moves), each move picked by a fixed rule so every run is the same.
GameView RealisticView() {
  rules::GameRecord record(rules::FindVariant("international").value());
  GameView view;
  v1::GameState& game = view.game;
  game.set_game_id("01JE3K7Q2M8X4V6N9B5C1D0F7H");
  game.set_table_id("01JE3K7PZ4W2R8T6Y1U3I5O9PA");
  game.set_variant("international");
  game.set_rated(true);
  game.mutable_time_per_move()->set_seconds(30);
  FillSeat(game.mutable_white(), "g_Zx8Qm2Lr5Tw9Pk3Vn6Hb1Yc", "Alice");
  FillSeat(game.mutable_black(), "g_Mq4Rt7Xw2Ls9Kd5Fj8Gh3Nv", "Bob \"the <Brave>\"");
  game.set_initial_fen(rules::FormatFen(record.position()));
  for (int ply = 0; !record.is_over() && (ply < 40 || record.legal_moves().size() < 8) && ply < 60;
       ++ply) {
    const rules::MoveList& legal = record.legal_moves();
    const rules::Move move = legal[static_cast<size_t>(ply * 7 + 3) % legal.size()];
    const rules::Color mover = record.position().side_to_move();
    const std::string notation = rules::FormatMove(legal, move);
    game.add_moves(notation);
    if (record.Apply(move).has_value()) break;
    v1::MovePlayed* last = game.mutable_last_move();
    last->Clear();
    last->set_color(ToProto(mover));
    last->set_notation(notation);
    last->add_path(move.from);
    for (auto square : move.landing_squares()) last->add_path(square);
    for (auto square : move.captured_squares()) last->add_captured(square);
    last->set_fen_after(rules::FormatFen(record.position()));
  }
  game.set_fen(rules::FormatFen(record.position()));
  game.set_side_to_move(ToProto(record.position().side_to_move()));
  game.set_ply(record.ply_count());
  game.set_result(v1::GAME_RESULT_ONGOING);
  game.mutable_move_deadline()->set_seconds(1795000030);
  game.mutable_move_deadline()->set_nanos(250000000);
  game.set_version(record.ply_count() + 3);
  game.set_last_event_id("1795000000250-0");
  game.mutable_created_at()->set_seconds(1794998800);
  game.mutable_updated_at()->set_seconds(1795000000);
  game.mutable_updated_at()->set_nanos(250000000);
  for (const rules::Move& move : record.legal_moves()) {
    v1::LegalMove* legal = view.moves.add_moves();
    legal->set_notation(rules::FormatMovePath(move));
    legal->set_from_square(move.from);
    legal->set_to_square(move.to);
    FillPath(move, legal);
    legal->set_promotes(move.promotes);
  }
  view.moves.set_must_capture(!record.legal_moves().empty() &&
                              record.legal_moves().front().is_capture());
  return view;
}

std::string LibraryJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(message, &out, options).ok()) return "{}";
  return out;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

template <typename Print>
double MicrosecondsPerPrint(const v1::ServerFrame& frame, int prints, Print print, size_t* sink) {
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < prints; ++i) *sink += print(frame).size();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / prints;
}

int Run(int prints, int repetitions, bool fast_only) {
  const GameView view = RealisticView();
  const v1::ServerFrame frame = TableSnapshotFrame(view, {view.game.side_to_move()},
                                                   TableClockView(view.game, nullptr, absl::Now()));
  const std::string library = LibraryJson(frame);
  const std::string fast = MessageToJson(frame);
  if (library != fast) {
    std::fprintf(stderr, "outputs differ:\nlibrary %s\nfast    %s\n", library.c_str(),
                 fast.c_str());
    return 1;
  }
  std::printf("frame: table snapshot, %d plies, %d legal moves, %zu bytes of JSON\n",
              view.game.ply(), view.moves.moves_size(), fast.size());
  size_t sink = 0;
  std::vector<double> library_us;
  std::vector<double> fast_us;
  for (int rep = 0; rep < repetitions; ++rep) {
    if (!fast_only) library_us.push_back(MicrosecondsPerPrint(frame, prints, LibraryJson, &sink));
    fast_us.push_back(MicrosecondsPerPrint(
        frame, prints, [](const v1::ServerFrame& f) { return MessageToJson(f); }, &sink));
  }
  if (fast_only) {
    std::printf("fast printer median per frame: %.2f us (checksum %zu)\n", Median(fast_us), sink);
    return 0;
  }
  const double library_median = Median(library_us);
  const double fast_median = Median(fast_us);
  std::printf("%d repetitions of %d prints, median per frame:\n", repetitions, prints);
  std::printf("  MessageToJsonString  %8.2f us\n", library_median);
  std::printf("  fast printer         %8.2f us\n", fast_median);
  std::printf("  ratio                %8.1fx\n", library_median / fast_median);
  std::printf("(checksum %zu)\n", sink);
  return 0;
}

}  // namespace
}  // namespace draughts::gateway

int main(int argc, char** argv) {
  const int prints = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3000;
  const int repetitions = argc > 2 ? std::max(1, std::atoi(argv[2])) : 9;
  const bool fast_only = argc > 3 && std::string(argv[3]) == "fast";
  return draughts::gateway::Run(prints, repetitions, fast_only);
}
