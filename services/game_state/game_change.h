// Builds one Change (store.h): the next state of a game, the events that
// describe it and the messages for the bot jobs, results and deadlines
// streams. Every acting RPC goes through here, so the bookkeeping that must
// accompany a state change (version, ply and time on events, deadlines and
// their clock updates, draw offers lapsing, bot jobs, result records, the
// chat room's notices) lives in one place.
#ifndef DRAUGHTS_GAME_STATE_GAME_CHANGE_H_
#define DRAUGHTS_GAME_STATE_GAME_CHANGE_H_

#include <optional>
#include <string>

#include "absl/time/time.h"
#include "draughts/v1/events.pb.h"
#include "game_state/game_store.h"
#include "game_state/stored_game.pb.h"
#include "rules/game.h"

namespace draughts::game_state {

// The player of a seat and their secrets, by colour.
v1::PlayerState& PlayerOf(v1::GameState& state, v1::Color color);
const v1::PlayerState& PlayerOf(const v1::GameState& state, v1::Color color);
SeatSecrets& SecretsOf(StoredGame& game, v1::Color color);
const SeatSecrets& SecretsOf(const StoredGame& game, v1::Color color);

// A bot seat, or a person's seat the computer plays while they are away.
bool IsComputerControlled(const v1::PlayerState& player);

bool IsOver(const v1::GameState& state);

class GameChange {
 public:
  GameChange(const StoredGame& before, absl::Time now);

  StoredGame& game() { return change_.game; }
  v1::GameState& state() { return *change_.game.mutable_state(); }
  absl::Time now() const { return now_; }

  // A new event; its version, timestamp and game id are filled in here, its
  // ply when the change is finished.
  v1::GameEvent& AddEvent();

  // Plays `move` (one of record.legal_moves()) for the side to move:
  // updates moves, position, counters, deadline and draw offer, adds
  // MovePlayed, and ends the game if the rules say so or if this is the
  // third automatic move in a row. `record` becomes the record after it.
  // Returns the MovePlayed as published.
  v1::MovePlayed PlayMove(rules::GameRecord& record, const rules::Move& move, bool automatic);

  // Ends the game. `by` is who resigned, timed out, left, accepted the
  // draw or could not move; UNSPECIFIED for draws by rule.
  void EndGame(v1::GameResult result, v1::ResultReason reason, v1::Color by);

  // Arms the next move's deadline (now + time per move), or clears it. The
  // game moved on (a move, an undo, creation): Build() adds a ClockUpdate.
  void ResetDeadline();

  // Hands a seat to the computer (a stand-in token for its jobs) or gives
  // it back to its player.
  void SetComputerPlaying(v1::Color color, bool playing);

  // Queues a BotJob when the game goes on and the side to move is played by
  // the computer; call last, once the state is final.
  void QueueBotJobIfComputerToMove();

  // Sets ply and version on every event and the state, queues the
  // ClockUpdate of a change that moved the game on (a deadline reset or
  // the end) and a ChatNoticeRecord per event the chat room announces;
  // the change is ready for GameStore::Commit.
  Change Build();

 private:
  void QueueResult(v1::Color ended_by);
  void QueueClockUpdate();
  void QueueChatNotices();

  Change change_;
  bool clock_changed_ = false;
  int64_t base_version_;
  absl::Time now_;
};

// Pieces each side has taken and automatic moves in a row, recomputed from
// the moves (after an undo).
void RecountPlayers(const rules::GameRecord& record, StoredGame& game);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_CHANGE_H_
