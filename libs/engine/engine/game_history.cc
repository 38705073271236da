#include <algorithm>

#include "engine/engine.h"

namespace draughts::engine {

GameHistory HistoryOf(const rules::GameRecord& record) {
  GameHistory history;
  history.no_progress_plies = record.no_progress_plies();
  history.lone_king_rule = record.lone_king_rule();
  history.lone_king_plies = record.lone_king_plies();
  history.plies_played = record.ply_count();
  // Positions before the last capture or man move cannot come back.
  const std::vector<rules::Position> positions = record.positions();
  const int earlier = static_cast<int>(positions.size()) - 1;
  const int first = std::max(0, earlier - history.no_progress_plies);
  for (int i = first; i < earlier; ++i)
    history.hashes.push_back(positions[static_cast<std::size_t>(i)].hash());
  return history;
}

}  // namespace draughts::engine
