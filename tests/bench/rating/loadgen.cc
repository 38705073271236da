// Load generator for the rating service: writes finished games to the
// results stream as game-state's relay does (fields data and game_id), a
// share of them twice, as fast as Redis takes them, while the rating
// service consumes; measures how long until every game is in PostgreSQL,
// then checks each was applied exactly once (archive rows, rating games,
// history rows).
//
//   rating_loadgen --redis=127.0.0.1:6379 --pg="host=... dbname=..." --results=20000
#include <google/protobuf/util/time_util.h>

#include <cstdio>
#include <pqxx/pqxx>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "draughts/v1/events.pb.h"
#include "platform/config.h"
#include "platform/redis_client.h"
#include "platform/status_macros.h"

namespace draughts::bench {
namespace {

using google::protobuf::util::TimeUtil;

struct Options {
  std::string stream;
  int results = 20000;
  int players = 500;
  // One game in `repeat_every` is written twice (a relay retry).
  int repeat_every = 20;
  absl::Duration timeout = absl::Minutes(2);
};

// Game `i` of the run: between two of the run's players, most rated, some
// against a guest or a bot (recorded, no Elo), results spread.
v1::ResultRecord Game(const std::string& run, int i, const Options& options, std::mt19937& rng) {
  v1::ResultRecord record;
  record.set_game_id(absl::StrCat(run, "-g", i));
  record.set_table_id(absl::StrCat(run, "-t", i));
  record.set_variant(i % 4 == 0 ? "english" : "international");
  record.set_rated(true);
  const int white = static_cast<int>(rng() % options.players);
  int black = static_cast<int>(rng() % (options.players - 1));
  if (black >= white) ++black;
  for (auto [seat, player] :
       {std::pair{record.mutable_white(), white}, std::pair{record.mutable_black(), black}}) {
    seat->set_kind(v1::SEAT_KIND_PERSON);
    seat->set_player_id(absl::StrCat(run, "-p", player));
    seat->set_display_name(absl::StrCat("Player ", player));
  }
  if (i % 10 == 9) {
    record.mutable_black()->set_kind(i % 20 == 19 ? v1::SEAT_KIND_BOT : v1::SEAT_KIND_GUEST);
    record.mutable_black()->set_player_id(i % 20 == 19 ? "" : absl::StrCat("g_", run, i));
  }
  const v1::GameResult results[] = {v1::GAME_RESULT_WHITE_WINS, v1::GAME_RESULT_BLACK_WINS,
                                    v1::GAME_RESULT_DRAW};
  record.set_result(results[rng() % 3]);
  record.set_reason(record.result() == v1::GAME_RESULT_DRAW ? v1::RESULT_REASON_DRAW_AGREED
                                                            : v1::RESULT_REASON_RESIGNATION);
  // About a real game's size: 60 moves.
  for (int m = 0; m < 60; ++m) record.add_moves(absl::StrCat(31 + m % 20, "-", 26 + m % 20));
  record.set_ply(60);
  record.set_initial_fen("W:W31-50:B1-20");
  record.set_final_fen("W:W31-40:B1-10");
  const int64_t now = absl::ToUnixMicros(absl::Now());
  *record.mutable_started_at() = TimeUtil::MicrosecondsToTimestamp(now - 600'000'000);
  *record.mutable_finished_at() = TimeUtil::MicrosecondsToTimestamp(now);
  return record;
}

struct GroupState {
  int64_t pending = -1;
  int64_t lag = -1;
};

// The group's pending and lag from XINFO GROUPS (Redis 7).
absl::StatusOr<GroupState> ReadGroup(platform::RedisClient& redis, const std::string& stream,
                                     const std::string& group) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, redis.Command({"XINFO", "GROUPS", stream}));
  for (const platform::RedisReply& info : reply.elements()) {
    const auto& fields = info.elements();
    GroupState state;
    bool ours = false;
    for (size_t i = 0; i + 1 < fields.size(); i += 2) {
      const std::string key = fields[i].text();
      if (key == "name") ours = fields[i + 1].text() == group;
      if (key == "pending") state.pending = fields[i + 1].integer();
      if (key == "lag") state.lag = fields[i + 1].is_nil() ? -1 : fields[i + 1].integer();
    }
    if (ours) return state;
  }
  return absl::NotFoundError("no consumer group rating on the stream (is the service running?)");
}

int64_t Count(pqxx::connection& pg, const std::string& sql) {
  pqxx::nontransaction tx(pg);
  const pqxx::result rows = tx.exec(sql);
  return rows[0][0].is_null() ? 0 : rows[0][0].as<int64_t>();
}

absl::Status Run(int argc, char** argv) {
  platform::ConfigSpec spec("rating_loadgen", "Load generator for the rating service.");
  spec.AddString("redis", "", "127.0.0.1:6379", "Redis host:port of the results stream");
  spec.AddString("pg", "", "", "libpq connection string of the rating service's database");
  spec.AddString("stream", "", "draughts:results", "results stream");
  spec.AddInt("results", "", 20000, "distinct finished games to write");
  spec.AddInt("players", "", 500, "players the games are drawn among");
  spec.AddString("run", "", "", "prefix of this run's ids (default: from the clock)");
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  Options options;
  DRAUGHTS_ASSIGN_OR_RETURN(options.stream, config.GetString("stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t results, config.GetInt("results"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t players, config.GetInt("players"));
  options.results = static_cast<int>(results);
  options.players = static_cast<int>(players);
  DRAUGHTS_ASSIGN_OR_RETURN(std::string run, config.GetString("run"));
  if (run.empty()) run = absl::StrCat("b", absl::ToUnixMillis(absl::Now()));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string conninfo, config.GetString("pg"));
  platform::RedisClient redis(redis_options);
  pqxx::connection pg(conninfo);

  std::mt19937 rng(12345);
  std::vector<std::pair<std::string, std::string>> entries;  // game_id, data
  int64_t rated = 0;
  for (int i = 0; i < options.results; ++i) {
    const v1::ResultRecord game = Game(run, i, options, rng);
    if (game.black().kind() == v1::SEAT_KIND_PERSON) ++rated;
    entries.emplace_back(game.game_id(), game.SerializeAsString());
    if (i % options.repeat_every == 0) entries.emplace_back(game.game_id(), entries.back().second);
  }

  const std::string like = absl::StrCat("'", run, "-%'");
  const absl::Time start = absl::Now();
  constexpr size_t kChunk = 500;
  for (size_t first = 0; first < entries.size(); first += kChunk) {
    std::vector<std::vector<std::string>> commands;
    for (size_t i = first; i < std::min(first + kChunk, entries.size()); ++i) {
      commands.push_back(
          {"XADD", options.stream, "*", "data", entries[i].second, "game_id", entries[i].first});
    }
    DRAUGHTS_RETURN_IF_ERROR(redis.Pipeline(commands).status());
  }
  const absl::Duration written = absl::Now() - start;
  // The service acknowledges an entry only after its transaction commits:
  // nothing pending and nothing undelivered means every game is in
  // PostgreSQL. Redis answers that without loading the database.
  while (true) {
    DRAUGHTS_ASSIGN_OR_RETURN(GroupState state, ReadGroup(redis, options.stream, "rating"));
    if (state.pending == 0 && state.lag == 0) break;
    if (absl::Now() - start > options.timeout) {
      return absl::DeadlineExceededError(
          absl::StrCat("still ", state.pending, " pending and ", state.lag, " undelivered"));
    }
    absl::SleepFor(absl::Milliseconds(5));
  }
  const absl::Duration elapsed = absl::Now() - start;
  const int64_t applied =
      Count(pg, absl::StrCat("SELECT count(*) FROM archived_games WHERE game_id LIKE ", like));

  const int64_t rating_games =
      Count(pg, absl::StrCat("SELECT sum(games) FROM ratings WHERE player_id LIKE ", like));
  const int64_t history_changed = Count(
      pg, absl::StrCat("SELECT count(*) FROM rating_history WHERE elo_changed AND game_id LIKE ",
                       like));
  const bool once =
      applied == options.results && rating_games == 2 * rated && history_changed == 2 * rated;
  std::printf(
      "results=%d entries=%zu rated=%lld written_s=%.3f applied_s=%.3f results_per_s=%.0f "
      "archive_rows=%lld rating_games=%lld history_rated_rows=%lld exactly_once=%s\n",
      options.results, entries.size(), static_cast<long long>(rated),
      absl::ToDoubleSeconds(written), absl::ToDoubleSeconds(elapsed),
      options.results / absl::ToDoubleSeconds(elapsed), static_cast<long long>(applied),
      static_cast<long long>(rating_games), static_cast<long long>(history_changed),
      once ? "yes" : "NO");
  if (!once) return absl::InternalError("a game was not applied exactly once");
  return absl::OkStatus();
}

}  // namespace
}  // namespace draughts::bench

int main(int argc, char** argv) {
  try {
    const absl::Status status = draughts::bench::Run(argc, argv);
    if (!status.ok()) {
      std::fprintf(stderr, "rating_loadgen: %s\n", status.ToString().c_str());
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rating_loadgen: %s\n", e.what());
    return 1;
  }
  return 0;
}
