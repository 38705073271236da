// Load generator for quick pairing: QuickPair requests at a fixed rate
// (open loop: request i is sent at start + i / rate whatever the answers
// so far), spread round-robin over the replicas, with ratings drawn
// uniformly in [--min-rating, --max-rating]. Then it checks the outcome:
// every player is seated at exactly one playing table, once, with one
// opponent, and every pair's ratings differ by no more than the pairing
// window of each player at the game's creation (counted from when the
// client sent the request: an upper bound of the server's wait, so the
// check never excuses a pair the server should have refused).
//
//   matchmaking_loadgen --targets=127.0.0.1:50062,127.0.0.1:50072 --rate=1000 --requests=10000
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "draughts/v1/game.grpc.pb.h"
#include "draughts/v1/matchmaking.grpc.pb.h"
#include "platform/config.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"

namespace draughts::bench {
namespace {

struct Options {
  std::vector<std::string> targets;
  std::string game_state;
  int rate = 1000;
  int requests = 10000;
  int threads = 64;
  int min_rating = 1000;
  int max_rating = 2000;
  int window = 100;
  int widen_by = 50;
  absl::Duration widen_every = absl::Seconds(1);
  int max_window = 1000;
  absl::Duration settle = absl::Seconds(30);
};

struct Request {
  std::string player;
  int rating = 0;
  absl::Time sent;
  absl::Duration latency;
  int code = -1;
  std::string table_id;
  bool created = false;
};

int Window(const Options& o, absl::Duration waited) {
  int64_t steps = o.widen_every > absl::ZeroDuration() ? waited / o.widen_every : 0;
  return static_cast<int>(std::min<int64_t>(o.window + steps * o.widen_by, o.max_window));
}

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<std::size_t>(p * values.size()))];
}

absl::Status Run(int argc, char** argv) {
  platform::ConfigSpec spec("matchmaking_loadgen", "QuickPair at a fixed rate, then checks");
  spec.AddString("targets", "", "127.0.0.1:50052", "matchmaking replicas, comma-separated");
  spec.AddString("game-state", "", "127.0.0.1:50051", "game_state (reads games' creation)");
  spec.AddInt("rate", "", 1000, "requests per second");
  spec.AddInt("requests", "", 10000, "requests in all (even: everyone can pair)");
  spec.AddInt("threads", "", 64, "client threads");
  spec.AddInt("min-rating", "", 1000, "lowest rating");
  spec.AddInt("max-rating", "", 2000, "highest rating");
  spec.AddInt("window", "", 100, "the servers' --pair-window");
  spec.AddInt("widen-by", "", 50, "the servers' --pair-widen-by");
  spec.AddDuration("widen-every", "", absl::Seconds(1), "the servers' --pair-widen-every");
  spec.AddInt("max-window", "", 1000, "the servers' --pair-max-window");
  spec.AddDuration("settle", "", absl::Seconds(30), "how long to wait for the last pairings");
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  Options o;
  DRAUGHTS_ASSIGN_OR_RETURN(std::string targets, config.GetString("targets"));
  o.targets = absl::StrSplit(targets, ',', absl::SkipEmpty());
  DRAUGHTS_ASSIGN_OR_RETURN(o.game_state, config.GetString("game-state"));
  auto get_int = [&](const char* name, int& out) -> absl::Status {
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t value, config.GetInt(name));
    out = static_cast<int>(value);
    return absl::OkStatus();
  };
  DRAUGHTS_RETURN_IF_ERROR(get_int("rate", o.rate));
  DRAUGHTS_RETURN_IF_ERROR(get_int("requests", o.requests));
  DRAUGHTS_RETURN_IF_ERROR(get_int("threads", o.threads));
  DRAUGHTS_RETURN_IF_ERROR(get_int("min-rating", o.min_rating));
  DRAUGHTS_RETURN_IF_ERROR(get_int("max-rating", o.max_rating));
  DRAUGHTS_RETURN_IF_ERROR(get_int("window", o.window));
  DRAUGHTS_RETURN_IF_ERROR(get_int("widen-by", o.widen_by));
  DRAUGHTS_RETURN_IF_ERROR(get_int("max-window", o.max_window));
  DRAUGHTS_ASSIGN_OR_RETURN(o.widen_every, config.GetDuration("widen-every"));
  DRAUGHTS_ASSIGN_OR_RETURN(o.settle, config.GetDuration("settle"));
  if (o.targets.empty() || o.rate < 1 || o.requests < 2 || o.threads < 1) {
    return absl::InvalidArgumentError("bad --targets, --rate, --requests or --threads");
  }

  std::vector<std::unique_ptr<v1::MatchmakingService::Stub>> stubs;
  for (const std::string& target : o.targets) {
    // A few channels per replica so one HTTP/2 connection is not the limit.
    for (int c = 0; c < 4; ++c) {
      grpc::ChannelArguments args;
      args.SetInt("grpc.channel_id", c);
      stubs.push_back(v1::MatchmakingService::NewStub(
          grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args)));
    }
  }
  auto game = v1::GameService::NewStub(
      grpc::CreateChannel(o.game_state, grpc::InsecureChannelCredentials()));

  std::vector<Request> requests(o.requests);
  std::mt19937 random(42);
  std::uniform_int_distribution<int> rating(o.min_rating, o.max_rating);
  const std::string run = absl::StrCat(absl::ToUnixMillis(absl::Now()));
  for (int i = 0; i < o.requests; ++i) {
    requests[i].player = absl::StrCat("p", run, "-", i);
    requests[i].rating = rating(random);
  }
  std::atomic<int> next{0};
  const absl::Time start = absl::Now() + absl::Milliseconds(100);
  std::vector<std::thread> threads;
  for (int t = 0; t < o.threads; ++t) {
    threads.emplace_back([&] {
      while (true) {
        const int i = next.fetch_add(1);
        if (i >= o.requests) return;
        const absl::Time due = start + absl::Seconds(1) * i / o.rate;
        absl::SleepFor(due - absl::Now());
        Request& r = requests[i];
        v1::QuickPairRequest request;
        request.set_idempotency_key(absl::StrCat("q", i));
        request.mutable_requester()->set_kind(v1::SEAT_KIND_PERSON);
        request.mutable_requester()->set_player_id(r.player);
        request.mutable_requester()->set_display_name(absl::StrCat("Bench ", i));
        request.set_variant("international");
        request.set_rated(true);
        request.set_rating(r.rating);
        grpc::ClientContext context;
        context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(30)));
        v1::QuickPairResponse response;
        r.sent = absl::Now();
        grpc::Status status = stubs[i % stubs.size()]->QuickPair(&context, request, &response);
        r.latency = absl::Now() - r.sent;
        r.code = status.error_code();
        r.table_id = response.table().table_id();
        r.created = response.created();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const absl::Time sent_all = absl::Now();
  const double offered_seconds = absl::ToDoubleSeconds(sent_all - start);

  std::vector<double> latencies_ms;
  int errors = 0;
  std::set<std::string> table_ids;
  for (const Request& r : requests) {
    if (r.code != 0) {
      ++errors;
      continue;
    }
    latencies_ms.push_back(absl::ToDoubleMilliseconds(r.latency));
    table_ids.insert(r.table_id);
  }
  std::printf("sent %d QuickPair in %.2f s (%.0f/s offered at %d/s), %d errors\n", o.requests,
              offered_seconds, o.requests / offered_seconds, o.rate, errors);
  std::printf("QuickPair latency ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n",
              Percentile(latencies_ms, 0.5), Percentile(latencies_ms, 0.9),
              Percentile(latencies_ms, 0.99), Percentile(latencies_ms, 1.0));
  std::printf("paired at once: %ld of %d\n",
              std::count_if(requests.begin(), requests.end(),
                            [](const Request& r) { return r.code == 0 && !r.created; }),
              o.requests);

  // Wait for the sweepers to pair the waiting ones: every table returned is
  // then PLAYING or CLOSED (a waiting table whose player sat elsewhere).
  std::map<std::string, int> rating_of;
  std::map<std::string, absl::Time> sent_of;
  for (const Request& r : requests) {
    rating_of[r.player] = r.rating;
    sent_of[r.player] = r.sent;
  }
  std::map<std::string, v1::Table> playing;
  const absl::Time settle_until = absl::Now() + o.settle;
  std::set<std::string> pending = table_ids;
  while (!pending.empty() && absl::Now() < settle_until) {
    for (auto it = pending.begin(); it != pending.end();) {
      v1::GetTableRequest get;
      get.set_table_id(*it);
      v1::GetTableResponse table;
      grpc::ClientContext context;
      grpc::Status status = stubs[0]->GetTable(&context, get, &table);
      if (status.error_code() == grpc::StatusCode::NOT_FOUND) {
        it = pending.erase(it);
      } else if (status.ok() && table.table().status() == v1::TABLE_STATUS_PLAYING) {
        playing[*it] = table.table();
        it = pending.erase(it);
      } else {
        ++it;
      }
    }
    if (!pending.empty()) absl::SleepFor(absl::Milliseconds(200));
  }
  const double settled_seconds = absl::ToDoubleSeconds(absl::Now() - sent_all);

  std::map<std::string, int> seats_of;
  int bad_pairs = 0;
  int64_t max_diff = 0;
  for (const auto& [id, table] : playing) {
    const std::string& a = table.seats(0).occupant().player_id();
    const std::string& b = table.seats(1).occupant().player_id();
    ++seats_of[a];
    ++seats_of[b];
    if (a == b || !rating_of.contains(a) || !rating_of.contains(b)) {
      ++bad_pairs;
      continue;
    }
    v1::GetGameRequest get;
    get.set_game_id(table.game_id());
    v1::GetGameResponse state;
    grpc::ClientContext context;
    if (!game->GetGame(&context, get, &state).ok()) {
      ++bad_pairs;
      continue;
    }
    const absl::Time paired = platform::FromProtoTime(state.game().created_at());
    const int diff = std::abs(rating_of[a] - rating_of[b]);
    max_diff = std::max<int64_t>(max_diff, diff);
    const int allowed = std::min(Window(o, paired - sent_of[a]), Window(o, paired - sent_of[b]));
    if (diff > allowed) {
      ++bad_pairs;
      std::printf("pair outside the window: %s (%d) and %s (%d), allowed %d\n", a.c_str(),
                  rating_of[a], b.c_str(), rating_of[b], allowed);
    }
  }
  int unpaired = 0, twice = 0;
  for (const Request& r : requests) {
    auto it = seats_of.find(r.player);
    if (it == seats_of.end()) {
      ++unpaired;
    } else if (it->second != 1) {
      ++twice;
    }
  }
  std::printf(
      "games %zu, players seated once %zu, unpaired %d, seated more than once %d, "
      "pairs outside the window %d, largest rating gap %ld, last pairing %.1f s after "
      "the last request\n",
      playing.size(), seats_of.size() - twice, unpaired, twice, bad_pairs, max_diff,
      settled_seconds);
  const bool correct = errors == 0 && unpaired == 0 && twice == 0 && bad_pairs == 0 &&
                       playing.size() * 2 == static_cast<std::size_t>(o.requests);
  std::printf("%s\n", correct ? "PAIRED CORRECTLY" : "NOT PAIRED CORRECTLY");
  return correct ? absl::OkStatus() : absl::InternalError("pairing check failed");
}

}  // namespace
}  // namespace draughts::bench

int main(int argc, char** argv) {
  absl::Status status = draughts::bench::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "matchmaking_loadgen: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
