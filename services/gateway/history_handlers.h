// The ratings and history routes (docs/WEB_PROTOCOL.md, "Ratings and
// history"): leaderboards, a player's page, a finished game to replay, and
// PDN files uploaded to be replayed. Public records: no session is needed;
// one, when sent, marks the caller's own line. Blocking (run on workers).
#ifndef DRAUGHTS_GATEWAY_HISTORY_HANDLERS_H_
#define DRAUGHTS_GATEWAY_HISTORY_HANDLERS_H_

#include <functional>
#include <string>

#include "absl/time/time.h"
#include "gateway/archive_backend.h"
#include "gateway/http_types.h"
#include "gateway/rating_backend.h"
#include "gateway/router.h"
#include "gateway/session_store.h"

namespace draughts::gateway {

// "YYYY-MM" of a time, UTC, and the month before a "YYYY-MM".
std::string MonthOf(absl::Time time);
std::string MonthBefore(const std::string& month);

class HistoryHandlers {
 public:
  HistoryHandlers(SessionStore* sessions, ArchiveBackend* archive,
                  std::function<absl::Time()> now = absl::Now);

  HttpResponse Leaderboard(const HttpRequest& request);
  HttpResponse Player(const RouteMatch& route);
  HttpResponse GameReplay(const RouteMatch& route);
  HttpResponse PdnReplay(const HttpRequest& request);

 private:
  // The caller's session if the cookie names a live one; none otherwise
  // (these pages do not need one).
  std::optional<Session> OptionalSession(const HttpRequest& request);
  // What the game did to `seat`'s rating, from its history.
  absl::StatusOr<std::optional<v1::RatingChange>> ChangeFor(const v1::ResultRecord& record,
                                                            const v1::Seat& seat, v1::Color color);

  SessionStore* sessions_;
  ArchiveBackend* archive_;
  RatingBackend ratings_;
  std::function<absl::Time()> now_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_HISTORY_HANDLERS_H_
