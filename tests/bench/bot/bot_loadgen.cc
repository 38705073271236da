// Plays many games at once against the bot pool, as people would: each
// simulated player (one thread per game) waits a human-looking while, plays
// a random legal move, and measures how long the bot's answer takes to
// reach it on the game's WatchGame stream (from sending SubmitMove to the
// bot's MovePlayed event: game_state's handling of the player's move, its
// relay, the jobs stream, the bot's thinking and its SubmitMove all
// included). A finished game is replaced by
// a new one. Half the games face Easy, half Medium.
//
//   bot_loadgen --game-state=127.0.0.1:50051 --games=200 --duration=60s
//
// Prints per level: replies, average, p50, p99, max, and how many exceeded
// the level's limit plus 100 ms (Easy 50 + 100 ms, Medium 200 + 100 ms).
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "draughts/v1/game.grpc.pb.h"
#include "platform/config.h"

namespace {

namespace v1 = draughts::v1;

struct Results {
  std::mutex mu;
  std::map<v1::BotLevel, std::vector<double>> reply_ms;
  std::atomic<int> games_started{0};
  std::atomic<int> games_finished{0};
  std::atomic<int> missing_replies{0};
  std::atomic<int> errors{0};
};

double LimitMs(v1::BotLevel level) {
  return level == v1::BOT_LEVEL_EASY ? 50 + 100 : 200 + 100;
}

class Player {
 public:
  Player(std::shared_ptr<grpc::Channel> channel, v1::BotLevel level, std::string variant,
         absl::Duration think_min, absl::Duration think_max, absl::Time end, uint64_t seed,
         Results* results)
      : stub_(v1::GameService::NewStub(std::move(channel))),
        level_(level),
        variant_(std::move(variant)),
        think_min_(think_min),
        think_max_(think_max),
        end_(end),
        rng_(seed),
        results_(results) {}

  void Run() {
    while (absl::Now() < end_) {
      if (!PlayOneGame()) absl::SleepFor(absl::Milliseconds(200));
    }
  }

 private:
  bool PlayOneGame() {
    v1::CreateGameRequest create;
    create.set_idempotency_key(absl::StrCat("bench-", rng_()));
    create.set_variant(variant_);
    v1::Seat& person = *create.mutable_white();
    person.set_kind(v1::SEAT_KIND_GUEST);
    person.set_player_id(absl::StrCat("g_bench", rng_() % 1000000000));
    person.set_display_name("Bench");
    v1::Seat& bot = *create.mutable_black();
    bot.set_kind(v1::SEAT_KIND_BOT);
    bot.set_display_name("Robot");
    bot.set_bot_level(level_);
    v1::CreateGameResponse game;
    {
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      if (!stub_->CreateGame(&context, create, &game).ok()) {
        ++results_->errors;
        return false;
      }
    }
    ++results_->games_started;
    grpc::ClientContext watch_context;
    watch_context.set_deadline(absl::ToChronoTime(end_ + absl::Seconds(30)));
    v1::WatchGameRequest watch;
    watch.set_game_id(game.game_id());
    std::unique_ptr<grpc::ClientReader<v1::GameEvent>> events =
        stub_->WatchGame(&watch_context, watch);
    int ply = 0;
    while (absl::Now() < end_) {
      absl::SleepFor(think_min_ + (think_max_ - think_min_) *
                                      std::uniform_real_distribution<double>(0, 1)(rng_));
      v1::ListLegalMovesRequest list;
      list.set_game_id(game.game_id());
      v1::ListLegalMovesResponse moves;
      {
        grpc::ClientContext context;
        if (!stub_->ListLegalMoves(&context, list, &moves).ok()) {
          ++results_->errors;
          break;
        }
        if (moves.moves().empty()) break;  // the bot's move ended the game
      }
      v1::SubmitMoveRequest move;
      move.set_game_id(game.game_id());
      move.set_player_token(game.white_player_token());
      move.set_move(moves.moves(static_cast<int>(rng_() % moves.moves_size())).notation());
      move.set_expected_ply(moves.ply());
      v1::SubmitMoveResponse answer;
      // From the moment the player sends: game_state's handling of the
      // player's move is included, so this bounds the bot's reply from above.
      const absl::Time submitted = absl::Now();
      {
        grpc::ClientContext context;
        if (!stub_->SubmitMove(&context, move, &answer).ok()) {
          ++results_->errors;
          break;
        }
      }
      ply = answer.game().ply();
      if (answer.game().result() != v1::GAME_RESULT_ONGOING) break;
      // The bot's reply is the first Black MovePlayed after our move.
      bool replied = false;
      v1::GameEvent event;
      while (events->Read(&event)) {
        if (event.has_game_ended() && event.ply() <= ply) break;
        if (event.has_move_played() && event.move_played().color() == v1::COLOR_BLACK &&
            event.ply() == ply + 1) {
          replied = true;
          break;
        }
      }
      if (!replied) {
        ++results_->missing_replies;
        break;
      }
      {
        std::lock_guard<std::mutex> lock(results_->mu);
        results_->reply_ms[level_].push_back(absl::ToDoubleMilliseconds(absl::Now() - submitted));
      }
    }
    watch_context.TryCancel();
    events->Finish().ok();
    ++results_->games_finished;
    return true;
  }

  std::unique_ptr<v1::GameService::Stub> stub_;
  v1::BotLevel level_;
  std::string variant_;
  absl::Duration think_min_;
  absl::Duration think_max_;
  absl::Time end_;
  std::mt19937_64 rng_;
  Results* results_;
};

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t index =
      std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size())));
  return values[index];
}

int Run(int argc, char** argv) {
  draughts::platform::ConfigSpec spec("bot_loadgen", "Concurrent games against the bot pool.");
  spec.AddString("game-state", "", "127.0.0.1:50051", "game_state host:port");
  spec.AddInt("games", "", 200, "games played at once (half Easy, half Medium)");
  spec.AddDuration("duration", "", absl::Seconds(60), "how long to play");
  spec.AddString("variant", "", "international", "rule set");
  spec.AddDuration("think-min", "", absl::Seconds(2), "shortest human pause before a move");
  spec.AddDuration("think-max", "", absl::Seconds(5), "longest human pause before a move");
  spec.AddInt("channels", "", 8, "gRPC channels shared by the players");
  absl::StatusOr<draughts::platform::Config> config =
      draughts::platform::ParseConfig(spec, argc, argv);
  if (!config.ok()) {
    std::fprintf(stderr, "%s\n", config.status().ToString().c_str());
    return 2;
  }
  if (config->help_requested()) return 0;
  const std::string target = *config->GetString("game-state");
  const int games = static_cast<int>(*config->GetInt("games"));
  const absl::Duration duration = *config->GetDuration("duration");
  const int channel_count = std::max<int>(1, static_cast<int>(*config->GetInt("channels")));

  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int i = 0; i < channel_count; ++i) {
    grpc::ChannelArguments args;
    args.SetInt("bench.channel", i);  // distinct channels, not one shared subchannel
    channels.push_back(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
  }
  Results results;
  const absl::Time start = absl::Now();
  const absl::Time end = start + duration;
  std::vector<std::thread> threads;
  std::vector<std::unique_ptr<Player>> players;
  std::random_device seeds;
  for (int i = 0; i < games; ++i) {
    players.push_back(std::make_unique<Player>(
        channels[static_cast<std::size_t>(i % channel_count)],
        i % 2 == 0 ? v1::BOT_LEVEL_EASY : v1::BOT_LEVEL_MEDIUM, *config->GetString("variant"),
        *config->GetDuration("think-min"), *config->GetDuration("think-max"), end,
        (static_cast<uint64_t>(seeds()) << 32) | seeds(), &results));
  }
  for (auto& player : players) threads.emplace_back([p = player.get()] { p->Run(); });
  for (std::thread& thread : threads) thread.join();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);

  std::printf("games=%d duration_s=%.1f games_started=%d missing_replies=%d errors=%d\n", games,
              seconds, results.games_started.load(), results.missing_replies.load(),
              results.errors.load());
  int over_total = 0;
  std::size_t replies_total = 0;
  for (const auto& [level, values] : results.reply_ms) {
    double sum = 0;
    int over = 0;
    for (double v : values) {
      sum += v;
      if (v > LimitMs(level)) ++over;
    }
    over_total += over;
    replies_total += values.size();
    std::printf(
        "level=%s replies=%zu avg_ms=%.1f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f limit_ms=%.0f "
        "over_limit=%d\n",
        v1::BotLevel_Name(level).c_str(), values.size(), values.empty() ? 0 : sum / values.size(),
        Percentile(values, 0.5), Percentile(values, 0.99), Percentile(values, 1.0), LimitMs(level),
        over);
  }
  std::printf("replies_per_s=%.1f\n", static_cast<double>(replies_total) / seconds);
  const bool met = over_total == 0 && results.missing_replies == 0 && replies_total > 0;
  std::printf("%s\n",
              met ? "TARGET MET: every reply within its level's limit + 100 ms" : "TARGET MISSED");
  return met ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return Run(argc, argv);
}
