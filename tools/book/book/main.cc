// book: builds and checks opening books (docs/OPENING_BOOK.md).
//
//   book build --variant=ID --depth=PLIES --time-ms=T --out=FILE
//              [--search-depth=N] [--margin=CP] [--width=N] [--max-positions=N]
//              [--tt-mb=MB] [--quiet]
//   book check --in=FILE [--lines=N]
//
// build expands the tree from the initial position with the engine's own
// search (book/builder.h) and writes the book; it prints progress to
// standard error and a summary (positions, searches, nodes, time) to
// standard output. check reads a book, walks every entry with the rules
// library (every move must be legal in its position) and prints what it
// holds, with the first N book lines from the start.
// Exit status: 0 done, 1 build or check failure, 2 bad arguments.

#include <charconv>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>

#include "book/builder.h"
#include "engine/book.h"
#include "rules/move_notation.h"
#include "rules/variant.h"

namespace {

using namespace draughts;

constexpr const char* kUsage =
    "usage: book build --variant=ID --depth=PLIES --time-ms=T --out=FILE [--search-depth=N]\n"
    "                  [--margin=CP] [--width=N] [--max-positions=N] [--tt-mb=MB] [--quiet]\n"
    "       book check --in=FILE [--lines=N]\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "book: %s\n%s", problem.c_str(), kUsage);
  return 2;
}

template <typename Int>
bool ReadInt(std::string_view text, Int min, Int max, Int& out) {
  Int value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < min || value > max) return false;
  out = value;
  return true;
}

// A few lines of the book from the start, each move picked as a bot would.
void PrintLines(const engine::Book& book, int lines) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < lines; ++i) {
    rules::Position position = rules::Position::Initial(book.variant());
    std::string text;
    while (auto picked = book.Pick(book.variant(), position, rng)) {
      if (!text.empty()) text += ' ';
      text += rules::FormatMove(book.variant(), position, picked->move);
      position = position.Play(picked->move);
    }
    std::printf("  line %d: %s\n", i + 1, text.c_str());
  }
}

int Build(int argc, char** argv) {
  book::BuildOptions options;
  std::string variant_id;
  std::string out;
  bool quiet = false;
  bool have_depth = false;
  bool have_time = false;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto eq = arg.find('=');
    const std::string_view flag = arg.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : arg.substr(eq + 1);
    long long time_ms = 0;
    long long tt = 0;
    if (arg == "--quiet") {
      quiet = true;
    } else if (flag == "--variant") {
      variant_id = std::string(value);
    } else if (flag == "--out") {
      out = std::string(value);
    } else if (flag == "--depth") {
      if (!ReadInt(value, 1, 200, options.plies)) return Usage("bad --depth (1-200 plies)");
      have_depth = true;
    } else if (flag == "--time-ms") {
      if (!ReadInt(value, 1LL, 600000LL, time_ms)) return Usage("bad --time-ms (1-600000)");
      options.move_time = std::chrono::milliseconds(time_ms);
      have_time = true;
    } else if (flag == "--search-depth") {
      if (!ReadInt(value, 1, 64, options.search_depth)) return Usage("bad --search-depth (1-64)");
    } else if (flag == "--margin") {
      if (!ReadInt(value, 0, 10000, options.margin_cp)) return Usage("bad --margin (0-10000)");
    } else if (flag == "--width") {
      if (!ReadInt(value, 1, 255, options.width)) return Usage("bad --width (1-255)");
    } else if (flag == "--max-positions") {
      if (!ReadInt(value, std::int64_t{1}, std::int64_t{10000000}, options.max_positions)) {
        return Usage("bad --max-positions");
      }
    } else if (flag == "--tt-mb") {
      if (!ReadInt(value, 1LL, 4096LL, tt)) return Usage("bad --tt-mb (1-4096)");
      options.table_megabytes = static_cast<std::size_t>(tt);
    } else {
      return Usage("unknown argument '" + std::string(arg) + "'");
    }
  }
  if (variant_id.empty() || out.empty() || !have_depth || !have_time) {
    return Usage("build needs --variant, --depth, --time-ms and --out");
  }
  auto variant = rules::FindVariant(variant_id);
  if (!variant.ok()) return Usage(variant.error().message);

  book::BuildStats stats;
  auto progress = [&](const book::BuildStats& s) {
    if (quiet || s.positions % 50 != 0) return;
    std::fprintf(stderr, "book: %lld positions, ply %d, %lld searches, %lld nodes, %.1f s\n",
                 static_cast<long long>(s.positions), s.deepest_ply,
                 static_cast<long long>(s.searches), static_cast<long long>(s.nodes),
                 static_cast<double>(s.elapsed.count()) / 1000.0);
  };
  auto built = book::BuildBook(*variant, options, stats, progress);
  if (!built.ok()) {
    std::fprintf(stderr, "book: %s\n", built.error().ToString().c_str());
    return 1;
  }
  if (auto error = built->Save(out)) {
    std::fprintf(stderr, "book: %s\n", error->message.c_str());
    return 1;
  }
  std::printf(
      "book: %s: %lld positions (plies 0-%d%s), %lld searches, %lld nodes, %.1f s, %zu bytes\n",
      out.c_str(), static_cast<long long>(stats.positions), stats.deepest_ply,
      stats.budget_reached ? ", position budget reached" : "",
      static_cast<long long>(stats.searches), static_cast<long long>(stats.nodes),
      static_cast<double>(stats.elapsed.count()) / 1000.0, built->Serialize().size());
  return 0;
}

int Check(int argc, char** argv) {
  std::string in;
  int lines = 5;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto eq = arg.find('=');
    const std::string_view flag = arg.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : arg.substr(eq + 1);
    if (flag == "--in") {
      in = std::string(value);
    } else if (flag == "--lines") {
      if (!ReadInt(value, 0, 1000, lines)) return Usage("bad --lines (0-1000)");
    } else {
      return Usage("unknown argument '" + std::string(arg) + "'");
    }
  }
  if (in.empty()) return Usage("check needs --in");
  auto loaded = engine::Book::Load(in);
  if (!loaded.ok()) {
    std::fprintf(stderr, "book: %s\n", loaded.error().ToString().c_str());
    return 1;
  }
  if (auto error = book::CheckBook(*loaded)) {
    std::fprintf(stderr, "book: %s: %s\n", in.c_str(), error->message.c_str());
    return 1;
  }
  std::size_t moves = 0;
  for (const engine::BookEntry* entry : loaded->Entries()) moves += entry->moves.size();
  std::printf("book: %s: %s, %zu positions, %zu moves, every move legal\n", in.c_str(),
              std::string(loaded->variant().id).c_str(), loaded->size(), moves);
  PrintLines(*loaded, lines);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage("missing command");
  const std::string_view command = argv[1];
  if (command == "build") return Build(argc, argv);
  if (command == "check") return Check(argc, argv);
  return Usage("unknown command '" + std::string(command) + "'");
}
