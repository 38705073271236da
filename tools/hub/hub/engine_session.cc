#include "hub/engine_session.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <limits>
#include <type_traits>
#include <utility>
#include <variant>

#include "hub/move_text.h"
#include "hub/position_text.h"
#include "hub/search_knobs.h"
#include "hub/time_budget.h"
#include "rules/movegen.h"

namespace draughts::hub {
namespace {

constexpr std::size_t kMaxTableMegabytes = 4096;

std::string VariantIds() {
  std::string ids;
  for (const rules::Variant& v : rules::AllVariants()) {
    if (!ids.empty()) ids += ' ';
    ids += v.id;
  }
  return ids;
}

template <typename Int>
std::optional<Int> ReadWhole(std::string_view text, Int min, Int max) {
  Int value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < min || value > max) return std::nullopt;
  return value;
}

// Whether the GUI asked for an exact search rather than the level's play.
bool WantsExactSearch(const LevelCommand& level, GoMode mode) {
  return level.depth || level.nodes || level.infinite || mode == GoMode::kAnalyze;
}

// The "book" parameter: a book file, a directory of them, or empty (none).
// Any book that cannot be loaded refuses the whole value.
rules::Result<std::shared_ptr<const engine::BookShelf>> LoadBooks(const std::string& path) {
  if (path.empty()) return std::shared_ptr<const engine::BookShelf>();
  auto shelf = std::make_shared<engine::BookShelf>();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    auto report = shelf->LoadDirectory(path);
    if (!report.ok()) return report.error();
    if (!report->refused.empty()) return rules::MakeError(report->refused.front());
  } else {
    auto book = engine::Book::Load(path);
    if (!book.ok()) return book.error();
    shelf->Add(std::move(*book));
  }
  return std::shared_ptr<const engine::BookShelf>(std::move(shelf));
}

}  // namespace

EngineSession::EngineSession(Writer writer)
    : writer_(std::move(writer)), variant_(rules::AllVariants().front()) {}

EngineSession::~EngineSession() {
  StopSearch();
}

void EngineSession::Write(const EngineAnswer& answer) {
  const std::string line = FormatEngineAnswer(answer);
  std::lock_guard<std::mutex> lock(write_mutex_);
  writer_(line);
}

void EngineSession::WriteError(std::string message) {
  Write(ErrorAnswer{std::move(message)});
}

void EngineSession::StopSearch() {
  stop_.store(true);
  if (search_thread_.joinable()) search_thread_.join();
  searching_.store(false);
}

bool EngineSession::HandleLine(std::string_view text) {
  if (quit_) return false;
  auto parsed = ParseGuiCommand(text);
  if (!parsed.ok()) {
    WriteError(parsed.error().ToString());
    return true;
  }
  const GuiCommand& command = *parsed;

  // Commands meant for a running search.
  if (std::holds_alternative<PingCommand>(command)) {
    Write(PongAnswer{});
    return true;
  }
  if (std::holds_alternative<StopCommand>(command)) {
    StopSearch();
    return true;
  }
  if (std::holds_alternative<PonderHitCommand>(command) ||
      std::holds_alternative<UnknownCommand>(command)) {
    return true;
  }
  if (std::holds_alternative<QuitCommand>(command)) {
    StopSearch();
    quit_ = true;
    return false;
  }
  // Anything else changes what a search would use: finish the running one
  // first (the GUI should have stopped it; its "done" is still written).
  if (searching_.load() || search_thread_.joinable()) StopSearch();

  std::visit(
      [this](const auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, HubCommand>) {
          OnHub();
        } else if constexpr (std::is_same_v<T, SetParamCommand>) {
          OnSetParam(c);
        } else if constexpr (std::is_same_v<T, InitCommand>) {
          OnInit();
        } else if constexpr (std::is_same_v<T, NewGameCommand>) {
          OnNewGame();
        } else if constexpr (std::is_same_v<T, PosCommand>) {
          OnPos(c);
        } else if constexpr (std::is_same_v<T, LevelCommand>) {
          level_command_ = c;
        } else if constexpr (std::is_same_v<T, GoCommand>) {
          OnGo(c);
        }
      },
      command);
  return true;
}

void EngineSession::OnHub() {
  Write(IdAnswer{"draughts-hub", "1.0", "draughts platform", "none"});
  Write(ParamAnswer{"variant", std::string(variant_.id), "enum", std::nullopt, std::nullopt,
                    SplitWords(VariantIds())});
  Write(ParamAnswer{"level",
                    std::string(engine::LevelName(level_)),
                    "enum",
                    std::nullopt,
                    std::nullopt,
                    {"easy", "medium", "hard"}});
  Write(ParamAnswer{"tt-size",
                    std::to_string(tt_megabytes_),
                    "int",
                    "1",
                    std::to_string(kMaxTableMegabytes),
                    {}});
  Write(ParamAnswer{"seed",
                    std::to_string(seed_),
                    "int",
                    "0",
                    std::to_string(std::numeric_limits<std::int64_t>::max()),
                    {}});
  Write(ParamAnswer{"book", book_path_, "string", std::nullopt, std::nullopt, {}});
  // The learned pattern evaluation where the rule set has weights (the
  // default), or the hand-set one: for matches comparing the two.
  Write(ParamAnswer{"eval",
                    classic_eval_ ? "classic" : "pattern",
                    "enum",
                    std::nullopt,
                    std::nullopt,
                    {"pattern", "classic"}});
  Write(ParamAnswer{"search", search_knobs_, "string", std::nullopt, std::nullopt, {}});
  Write(WaitAnswer{});
}

void EngineSession::OnSetParam(const SetParamCommand& c) {
  if (c.name == "variant") {
    auto variant = rules::FindVariant(c.value);
    if (!variant.ok()) return WriteError(variant.error().message);
    if (variant->id != variant_.id) record_.reset();  // a position of the old board
    variant_ = *variant;
  } else if (c.name == "level") {
    auto level = engine::ParseLevel(c.value);
    if (!level) return WriteError("level must be easy, medium or hard, got '" + c.value + "'");
    level_ = *level;
  } else if (c.name == "tt-size") {
    auto mb = ReadWhole<std::size_t>(c.value, 1, kMaxTableMegabytes);
    if (!mb) {
      return WriteError("tt-size must be 1.." + std::to_string(kMaxTableMegabytes) + " MB, got '" +
                        c.value + "'");
    }
    tt_megabytes_ = *mb;
    if (engine_) engine_->ResizeTable(tt_megabytes_);
  } else if (c.name == "seed") {
    auto seed = ReadWhole<std::int64_t>(c.value, 0, std::numeric_limits<std::int64_t>::max());
    if (!seed) return WriteError("seed must be a non-negative integer, got '" + c.value + "'");
    seed_ = static_cast<std::uint64_t>(*seed);
    rng_.seed(seed_ != 0 ? seed_ : std::random_device{}());
  } else if (c.name == "book") {
    auto books = LoadBooks(c.value);
    if (!books.ok()) return WriteError(books.error().message);
    book_path_ = c.value;
    books_ = std::move(*books);
    if (engine_) engine_->SetBooks(books_);
  } else if (c.name == "eval") {
    if (c.value != "pattern" && c.value != "classic") {
      return WriteError("eval must be pattern or classic, got '" + c.value + "'");
    }
    classic_eval_ = c.value == "classic";
    if (engine_) engine_->SetClassicEvaluation(classic_eval_);
  } else if (c.name == "search") {
    auto tuning = ParseSearchKnobs(c.value);
    if (!tuning.ok()) return WriteError(tuning.error().message);
    search_knobs_ = c.value;
    tuning_ = *tuning;
    if (engine_) engine_->SetSearchTuning(tuning_);
  } else {
    WriteError("unknown parameter '" + c.name + "'");
  }
}

void EngineSession::EnsureEngine() {
  if (engine_) return;
  engine_ = std::make_unique<engine::Engine>(tt_megabytes_);
  engine_->SetBooks(books_);
  engine_->SetClassicEvaluation(classic_eval_);
  engine_->SetSearchTuning(tuning_);
  rng_.seed(seed_ != 0 ? seed_ : std::random_device{}());
}

void EngineSession::OnInit() {
  EnsureEngine();
  engine_->LoadEndgameDatabases(variant_);
  Write(ReadyAnswer{});
}

void EngineSession::OnNewGame() {
  EnsureEngine();
  engine_->NewGame();
  engine_->LoadEndgameDatabases(variant_);  // before the game's clock runs
}

void EngineSession::OnPos(const PosCommand& c) {
  rules::Position start = rules::Position::Initial(variant_);
  if (c.position) {
    auto parsed = ParseHubPosition(variant_, *c.position);
    if (!parsed.ok()) return WriteError("bad position: " + parsed.error().ToString());
    start = *parsed;
  }
  rules::GameRecord record(variant_, start);
  for (std::size_t i = 0; i < c.moves.size(); ++i) {
    // The rules bookkeeping ends the record at a draw, but the GUI decides
    // when the game ends; keep following its moves from the position.
    if (record.is_over()) record = rules::GameRecord(variant_, record.position());
    auto move = ParseHubMove(variant_, record.position(), c.moves[i]);
    if (!move.ok()) {
      return WriteError("bad move " + std::to_string(i + 1) + " (" + c.moves[i] +
                        "): " + move.error().message);
    }
    if (auto error = record.Apply(*move)) return WriteError(error->message);
  }
  record_ = std::move(record);
  level_command_ = LevelCommand{};  // each search gets its own level (as Scan does)
}

void EngineSession::OnGo(const GoCommand& c) {
  EnsureEngine();
  rules::GameRecord record = record_.value_or(rules::GameRecord(variant_));
  if (rules::LegalMoves(variant_, record.position()).empty()) {
    WriteError("no legal move in this position");
    Write(DoneAnswer{});
    return;
  }
  stop_.store(false);
  searching_.store(true);
  search_thread_ =
      std::thread(&EngineSession::RunSearch, this, std::move(record), level_command_, c.mode);
  level_command_ = LevelCommand{};
}

void EngineSession::WriteInfo(const engine::SearchInfo& info) {
  InfoAnswer answer;
  answer.depth = info.depth;
  answer.score = info.score_cp / 100.0;
  answer.nodes = info.nodes;
  const double seconds = static_cast<double>(info.elapsed.count()) / 1000.0;
  answer.time = seconds;
  if (seconds > 0) {
    // Millions of nodes per second, rounded to 0.01, as Scan reports it.
    const double mnps = static_cast<double>(info.nodes) / seconds / 1e6;
    answer.nps = static_cast<double>(static_cast<long long>(mnps * 100.0 + 0.5)) / 100.0;
  }
  for (const rules::Move& move : info.pv) answer.pv.push_back(FormatHubMove(move));
  Write(answer);
}

void EngineSession::RunSearch(rules::GameRecord record, LevelCommand level, GoMode mode) {
  const TimeBudget budget = BudgetFor(level);
  const engine::GameHistory history = engine::HistoryOf(record);
  rules::Result<engine::SearchResult> result = rules::MakeError("no search");

  if (WantsExactSearch(level, mode)) {
    engine::SearchLimits limits;
    limits.stop = &stop_;
    if (level.depth) limits.max_depth = std::clamp(*level.depth, 1, engine::kMaxSearchDepth);
    if (level.nodes) limits.max_nodes = *level.nodes;
    if (budget.limited()) {
      limits.target_time = budget.target;
      limits.move_time = budget.hard;
    } else if (!level.depth && !level.nodes && !level.infinite) {
      // "go analyze" without limits: as long as the level would think.
      const engine::LevelParams params = engine::ParamsFor(level_, variant_);
      limits.max_depth = params.max_depth;
      limits.target_time = params.target_time;
      limits.move_time = params.move_time;
    }
    result = engine_->Search(variant_, record.position(), history, limits,
                             [this](const engine::SearchInfo& info) { WriteInfo(info); });
  } else {
    // The level's own play; the GUI's clock, if any, stops it early.
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::thread watchdog;
    if (budget.limited()) {
      watchdog = std::thread([&] {
        std::unique_lock<std::mutex> lock(mutex);
        if (!finished.wait_for(lock, budget.hard, [&] { return done; })) stop_.store(true);
      });
    }
    result = engine_->Play(level_, variant_, record.position(), history, rng_, &stop_);
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
    finished.notify_all();
    if (watchdog.joinable()) watchdog.join();
    if (result.ok()) WriteInfo(result->info);
  }

  DoneAnswer done;
  if (result.ok()) {
    done.move = FormatHubMove(result->best);
    if (result->ponder) done.ponder = FormatHubMove(*result->ponder);
  } else {
    // Never leave the GUI without a move while one exists.
    WriteError("search failed: " + result.error().message);
    const rules::MoveList moves = rules::LegalMoves(variant_, record.position());
    if (!moves.empty()) done.move = FormatHubMove(moves.front());
  }
  Write(done);
  searching_.store(false);
}

}  // namespace draughts::hub
