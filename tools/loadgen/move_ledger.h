// One game's moves as its clients sent them, checked against the game's
// event stream: every answered move must come back exactly once, at its
// ply, with its notation. Thread-safe (the submitting and the watching
// side run on different threads).
#ifndef DRAUGHTS_TOOLS_LOADGEN_MOVE_LEDGER_H_
#define DRAUGHTS_TOOLS_LOADGEN_MOVE_LEDGER_H_

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "absl/time/time.h"

namespace draughts::loadgen {

class MoveLedger {
 public:
  enum class Seen { kFirst, kDuplicate, kUnexpected };
  struct Observation {
    Seen seen = Seen::kUnexpected;
    // Set for kFirst: when the move was sent.
    std::optional<absl::Time> sent_at;
  };

  // The move that makes the game reach `ply_after` was sent at `at`.
  void Sent(int ply_after, std::string notation, absl::Time at);
  // Its SubmitMove was answered OK: its event is now owed.
  void Acknowledged(int ply_after);
  // A sent move failed: no event is owed (an event for it is then unexpected
  // unless the server applied it anyway, which a failed call must not do).
  void Failed(int ply_after);
  // A MovePlayed event at `ply_after` naming `notation`.
  Observation Observe(int ply_after, const std::string& notation);

  // Answered moves whose event has not come (yet).
  int Missing() const;
  int acknowledged() const;

 private:
  struct Move {
    std::string notation;
    absl::Time sent_at;
    bool acknowledged = false;
    bool seen = false;
  };
  mutable std::mutex mu_;
  std::map<int, Move> moves_;
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_MOVE_LEDGER_H_
