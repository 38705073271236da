// gateway mode: one table as browsers use it. Two guest sessions
// (POST /api/session), the first creates the table (POST /api/tables), the
// second joins by its invite code (POST /api/invites/<code>/join);
// spectators get sessions of their own. Every one opens the table socket
// /ws/tables/<id>; once all are welcomed the creator sends startGame. Each
// player moves when its own socket's events say it is its turn (a random
// legal move of libs/rules from the last movePlayed's fenAfter), chats now
// and then, and votes for a rematch when the game ends, so the table keeps
// a game live. Every socket's events are checked against the moves sent
// (a MoveLedger per socket and game); a move's latency runs from sending it
// to its event on the mover's own socket.
//
// All of a table runs on one io_context thread: no locks inside.
#ifndef DRAUGHTS_TOOLS_LOADGEN_GATEWAY_TABLE_H_
#define DRAUGHTS_TOOLS_LOADGEN_GATEWAY_TABLE_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/time/time.h"
#include "draughts/v1/events.pb.h"
#include "loadgen/load_options.h"
#include "loadgen/load_stats.h"
#include "loadgen/move_ledger.h"
#include "loadgen/web_client.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::loadgen {

// What the tables share: the run's pace, counters and phase. Thread-safe.
class TableHost {
 public:
  virtual ~TableHost() = default;
  virtual const LoadOptions& options() const = 0;
  virtual const rules::Variant& variant() const = 0;
  virtual const boost::asio::ip::tcp::endpoint& server() const = 0;
  virtual LoadStats& stats() = 0;
  virtual bool stopping() const = 0;
  // When a move asked for now is sent (a slot of the run's target rate,
  // move_slots.h), or nothing while `earliest` is ahead: ask again then.
  virtual std::optional<absl::Time> NextMoveSlot(absl::Time earliest) = 0;
  // True while moves wait for the ramp to end (--quiet-ramp).
  virtual bool ramping() const = 0;
  // The table's first game started, or its setup failed.
  virtual void TableSetUp() = 0;
  // +1 when a game starts, -1 when it ends.
  virtual void LiveGames(int delta) = 0;
  // After Stop(): every move sent has been answered and its events came.
  virtual void TableDrained() = 0;
  // After Finish(): the table's sockets are closed.
  virtual void TableFinished() = 0;
};

class GatewayTable : public std::enable_shared_from_this<GatewayTable> {
 public:
  GatewayTable(TableHost& host, boost::asio::io_context& io, int index, int spectators);

  // Each runs on the table's io_context (post them there).
  void Start();
  // Sends nothing more; TableDrained() once nothing is owed.
  void Stop();
  // Counts what never came as lost, closes the sockets, TableFinished().
  void Finish();

  int index() const { return index_; }

 private:
  struct Pending {
    std::string action;
    std::string game_id;
    int ply_after = 0;
  };
  struct Client {
    int index = 0;
    bool player = false;
    std::string cookie;
    std::string player_id;
    std::shared_ptr<WebSocketClient> socket;
    bool welcomed = false;
    bool closed = false;
    // Players: the game this socket plays, its colour and position.
    std::string game_id;
    // The last game the table view showed finished, and the last one voted
    // a rematch for.
    std::string finished_game;
    std::string voted_game;
    bool white = false;
    bool game_over = true;
    std::optional<rules::Position> position;
    int ply = 0;
    bool move_in_flight = false;
    std::unique_ptr<boost::asio::steady_timer> move_timer;
    bool move_timer_armed = false;
    // The gateway allows 5 actions a second per socket: this socket sends
    // its next action no earlier than this.
    absl::Time next_action_at = absl::InfinitePast();
    int next_request = 1;
    std::map<std::string, Pending> pending;
    int moves_until_chat = 0;
  };
  // One game of the table: a ledger per socket.
  struct Round {
    std::string game_id;
    std::vector<std::unique_ptr<MoveLedger>> ledgers;
  };

  void CreateSessions();
  void CreateTable();
  void JoinTable(const std::string& invite_code);
  void OpenSockets();
  void SetupFailed(const std::string& call, const std::string& code);

  void OnFrame(Client& client, std::string_view text);
  void OnGameEvent(Client& client, const v1::GameEvent& event);
  void OnTableView(Client& client, std::string_view text);
  void MaybeVoteRematch(Client& client);
  void OnAnswer(Client& client, const std::string& request_id, bool ok, const std::string& code);
  void OnClosed(Client& client, const std::string& why);

  void MaybeScheduleMove(Client& client);
  void SendMove(Client& client);
  void SendAction(Client& client, std::string_view action, std::string_view body, Pending pending);
  void MaybeChat(Client& client);
  void SchedulePing();

  Round& RoundOf(const std::string& game_id);
  void CheckDrained();
  std::string NewKey();

  TableHost& host_;
  boost::asio::io_context& io_;
  const int index_;
  std::mt19937 rng_;
  std::vector<Client> clients_;  // 0: creator, 1: joiner, then spectators
  std::string table_id_;
  std::deque<Round> rounds_;
  int sessions_missing_ = 0;
  bool set_up_ = false;
  bool failed_ = false;
  bool stopping_ = false;
  bool drained_ = false;
  bool finished_ = false;
  bool live_ = false;
  int keys_ = 0;
  boost::asio::steady_timer ping_timer_;
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_GATEWAY_TABLE_H_
