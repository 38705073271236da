#include "loadgen/gateway_load.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "loadgen/gateway_table.h"
#include "loadgen/move_slots.h"
#include "loadgen/run_window.h"
#include "rules/variant.h"

namespace draughts::loadgen {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;

absl::StatusOr<tcp::endpoint> ParseEndpoint(const std::string& target) {
  const std::size_t colon = target.rfind(':');
  int port = 0;
  if (colon == std::string::npos || !absl::SimpleAtoi(target.substr(colon + 1), &port) ||
      port <= 0 || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("--gateway must be host:port, not ", target));
  }
  std::string host = target.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  boost::system::error_code error;
  const net::ip::address address = net::ip::make_address(host, error);
  if (error) {
    return absl::InvalidArgumentError(
        absl::StrCat("--gateway needs a numeric address (127.0.0.1:PORT), not ", target));
  }
  return tcp::endpoint(address, static_cast<unsigned short>(port));
}

class GatewayRun final : public TableHost {
 public:
  GatewayRun(const LoadOptions& options, tcp::endpoint server)
      : options_(options),
        variant_(*rules::FindVariant(options.variant)),
        server_(server),
        window_(options_, &stats_),
        slots_(options.target_rate) {
    for (int i = 0; i < options_.io_threads; ++i) {
      ios_.push_back(std::make_unique<net::io_context>(1));
      guards_.emplace_back(net::make_work_guard(*ios_.back()));
    }
  }

  ~GatewayRun() override {
    for (auto& io : ios_) io->stop();
    for (std::thread& thread : threads_) thread.join();
  }

  // False when the sockets did not wind down: the run must then not be
  // destroyed (handlers may still point into it).
  bool clean() const { return clean_; }

  LoadSummary Run() {
    for (auto& io : ios_) threads_.emplace_back([io = io.get()] { io->run(); });
    const int games = options_.games;
    for (int i = 0; i < games; ++i) {
      const int spectators =
          options_.spectators / games + (i < options_.spectators % games ? 1 : 0);
      net::io_context& io = *ios_[static_cast<std::size_t>(i) % ios_.size()];
      tables_.push_back(std::make_shared<GatewayTable>(*this, io, i, spectators));
    }
    const absl::Time ramp_start = absl::Now();
    const absl::Time ramp_deadline = ramp_start + options_.ramp_timeout;
    for (std::size_t i = 0; i < tables_.size(); ++i) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        changed_.wait_until(lock, absl::ToChronoTime(ramp_deadline),
                            [this] { return setting_up_ < options_.setup_concurrency; });
        ++setting_up_;
      }
      net::post(*ios_[i % ios_.size()], [table = tables_[i]] { table->Start(); });
    }
    {
      std::unique_lock<std::mutex> lock(mu_);
      changed_.wait_until(lock, absl::ToChronoTime(ramp_deadline),
                          [this] { return set_up_ == static_cast<int>(tables_.size()); });
    }
    const double ramp_seconds = absl::ToDoubleSeconds(absl::Now() - ramp_start);
    ramped_.store(true);
    window_.RestartNow();
    window_.RunUntilStop();
    const int live = live_games_.load();
    stopping_.store(true);
    ForEachTable([](GatewayTable& table) { table.Stop(); });
    WaitCount(drained_, options_.drain_timeout);
    ForEachTable([](GatewayTable& table) { table.Finish(); });
    WaitCount(finished_, absl::Seconds(30));
    // Let the sockets' closing handshakes end, then stop the threads.
    for (auto& guard : guards_) guard.reset();
    const absl::Time quiet_deadline = absl::Now() + absl::Seconds(10);
    bool quiet = false;
    while (!quiet && absl::Now() < quiet_deadline) {
      quiet = true;
      for (auto& io : ios_) quiet = quiet && io->stopped();
      if (!quiet) absl::SleepFor(absl::Milliseconds(50));
    }
    clean_ = quiet;
    for (auto& io : ios_) io->stop();
    for (std::thread& thread : threads_) thread.join();
    threads_.clear();
    if (clean_) tables_.clear();
    LoadSummary summary = stats_.Summarize();
    summary.ramp_seconds = ramp_seconds;
    window_.AddMemory(summary, live);
    return summary;
  }

  // TableHost.
  const LoadOptions& options() const override { return options_; }
  const rules::Variant& variant() const override { return variant_; }
  const tcp::endpoint& server() const override { return server_; }
  LoadStats& stats() override { return stats_; }
  bool stopping() const override { return stopping_.load(); }

  std::optional<absl::Time> NextMoveSlot(absl::Time earliest) override {
    if (options_.quiet_ramp && !ramped_.load()) return std::nullopt;
    std::lock_guard<std::mutex> lock(mu_);
    return slots_.Take(absl::Now(), earliest);
  }

  void TableSetUp() override {
    std::lock_guard<std::mutex> lock(mu_);
    --setting_up_;
    ++set_up_;
    changed_.notify_all();
  }
  void LiveGames(int delta) override { live_games_.fetch_add(delta); }
  bool ramping() const override { return options_.quiet_ramp && !ramped_.load(); }
  void TableDrained() override { Counted(drained_); }
  void TableFinished() override { Counted(finished_); }

 private:
  void Counted(int& count) {
    std::lock_guard<std::mutex> lock(mu_);
    ++count;
    changed_.notify_all();
  }

  void WaitCount(const int& count, absl::Duration timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, absl::ToChronoNanoseconds(timeout),
                      [&] { return count == static_cast<int>(tables_.size()); });
  }

  template <typename Fn>
  void ForEachTable(Fn fn) {
    for (const auto& table : tables_) {
      net::post(table_io(*table), [table, fn] { fn(*table); });
    }
  }

  net::io_context& table_io(const GatewayTable& table) {
    return *ios_[static_cast<std::size_t>(table.index()) % ios_.size()];
  }

  const LoadOptions& options_;
  const rules::Variant variant_;
  const tcp::endpoint server_;
  LoadStats stats_;
  RunWindow window_;
  MoveSlots slots_;  // under mu_
  std::atomic<bool> stopping_{false};
  std::atomic<int> live_games_{0};
  std::atomic<bool> ramped_{false};
  std::mutex mu_;
  std::condition_variable changed_;
  int setting_up_ = 0;
  int set_up_ = 0;
  int drained_ = 0;
  int finished_ = 0;
  bool clean_ = true;
  std::vector<std::unique_ptr<net::io_context>> ios_;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards_;
  std::vector<std::thread> threads_;
  std::vector<std::shared_ptr<GatewayTable>> tables_;
};

}  // namespace

absl::StatusOr<LoadSummary> RunGatewayLoad(const LoadOptions& options) {
  if (options.targets.size() != 1) {
    return absl::InvalidArgumentError("gateway mode needs one --gateway=host:port");
  }
  if (options.games < 1) return absl::InvalidArgumentError("--games must be at least 1");
  if (options.spectators < 0) return absl::InvalidArgumentError("--spectators must be >= 0");
  if (options.io_threads < 1 || options.io_threads > 64) {
    return absl::InvalidArgumentError("--io-threads must be 1-64");
  }
  if (options.setup_concurrency < 1) {
    return absl::InvalidArgumentError("--setup-concurrency must be at least 1");
  }
  if (!rules::FindVariant(options.variant).ok()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown variant ", options.variant));
  }
  absl::StatusOr<tcp::endpoint> server = ParseEndpoint(options.targets.front());
  if (!server.ok()) return server.status();
  auto run = std::make_unique<GatewayRun>(options, *server);
  LoadSummary summary = run->Run();
  if (!run->clean()) {
    std::fprintf(stderr, "loadgen: some sockets did not close; their handlers may still run\n");
    (void)run.release();  // deliberately kept: pending handlers point into it
  }
  return summary;
}

}  // namespace draughts::loadgen
