#include "book/builder.h"

#include <algorithm>
#include <deque>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/movegen.h"

namespace draughts::book {
namespace {

struct Pending {
  rules::Position position;
  int ply = 0;
};

}  // namespace

rules::Result<engine::Book> BuildBook(const rules::Variant& variant, const BuildOptions& options,
                                      BuildStats& stats, const BuildProgress& progress) {
  if (auto error = rules::CheckVariant(variant)) return *error;
  if (options.plies < 1 || options.width < 1 || options.margin_cp < 0 ||
      options.max_positions < 1 || options.move_time.count() < 1) {
    return rules::MakeError("plies, width, max positions and move time must be positive");
  }
  const auto start = std::chrono::steady_clock::now();
  stats = BuildStats{};
  engine::Engine searcher(options.table_megabytes);
  engine::Book book(variant);

  std::deque<Pending> queue{{rules::Position::Initial(variant), 0}};
  std::unordered_set<std::uint64_t> queued{queue.front().position.hash()};
  while (!queue.empty()) {
    if (stats.positions >= options.max_positions) {
      stats.budget_reached = true;
      break;
    }
    const Pending node = queue.front();
    queue.pop_front();
    const rules::MoveList legal = rules::LegalMoves(variant, node.position);
    if (legal.empty()) continue;

    std::vector<engine::BookMove> scored;
    for (const rules::Move& move : legal) {
      const rules::Position child = node.position.Play(move);
      engine::BookMove candidate{move, 0};
      if (rules::CountLegalMoves(variant, child) == 0) {
        // The opponent cannot move: a win in the usual rules, a loss where
        // blocking yourself wins (antidraughts).
        const bool mover_wins = variant.goal != rules::Goal::kLoseEverything;
        candidate.score_cp = mover_wins ? engine::kMateScore - 1 : -(engine::kMateScore - 1);
      } else {
        engine::GameHistory history;
        history.plies_played = node.ply + 1;
        engine::SearchLimits limits;
        limits.max_depth =
            options.search_depth > 0 ? options.search_depth : engine::kMaxSearchDepth;
        limits.move_time = options.move_time;
        limits.target_time = options.move_time;
        auto result = searcher.Search(variant, child, history, limits);
        if (!result.ok()) return result.error();
        ++stats.searches;
        stats.nodes += result->info.nodes;
        candidate.score_cp = -result->info.score_cp;
      }
      scored.push_back(candidate);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const engine::BookMove& a, const engine::BookMove& b) {
                       return a.score_cp > b.score_cp;
                     });
    const int best = scored.front().score_cp;
    std::vector<engine::BookMove> kept;
    for (const engine::BookMove& m : scored) {
      if (static_cast<int>(kept.size()) >= options.width || best - m.score_cp > options.margin_cp) {
        break;
      }
      kept.push_back(m);
    }
    for (const engine::BookMove& m : kept) {
      const rules::Position child = node.position.Play(m.move);
      if (node.ply + 1 < options.plies && queued.insert(child.hash()).second) {
        queue.push_back({child, node.ply + 1});
      }
    }
    book.Add(node.position, std::move(kept));
    ++stats.positions;
    stats.deepest_ply = std::max(stats.deepest_ply, node.ply);
    stats.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    if (progress) progress(stats);
  }
  stats.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  return book;
}

std::optional<rules::Error> CheckBook(const engine::Book& book) {
  const rules::Variant& variant = book.variant();
  for (const engine::BookEntry* entry : book.Entries()) {
    if (entry->moves.empty()) {
      return rules::MakeError("no move for " + rules::FormatFen(entry->position));
    }
    for (const engine::BookMove& m : entry->moves) {
      if (!rules::IsLegalMove(variant, entry->position, m.move)) {
        return rules::MakeError("move " + rules::FormatMovePath(m.move) + " is not legal in " +
                                rules::FormatFen(entry->position));
      }
    }
  }
  return std::nullopt;
}

}  // namespace draughts::book
