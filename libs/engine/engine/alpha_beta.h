#pragma once

// Iterative-deepening principal variation search for one board layout,
// written against the templated move generator (rules/movegen_impl.h) so
// the hot loop never builds a rules::Move. Only the answer is translated
// back to rules::Move (by matching against rules::LegalMoves).
//
// Per node: draw checks (repetition against the game and the path, the
// draw rules of the variant), mate-distance pruning, transposition table,
// move ordering (hash move, captures, promotions, two killers, history),
// PVS with a one-ply late-move reduction of quiet moves that give nothing
// away, ProbCut and a static-evaluation cut in quiet non-PV nodes
// (SearchTuning), and a one-ply extension when only one move is legal (very common:
// captures are compulsory). At the horizon, quiescence plays out every
// capture sequence (captures are forced, so there is no "stand pat" unless
// the rule set makes them optional) and, when the opponent threatens to
// capture, looks one quiet move further instead of trusting the
// evaluation of a position about to lose material.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "engine/board_hash.h"
#include "engine/draw_rules.h"
#include "engine/endgame_probe.h"
#include "engine/eval_params.h"
#include "engine/evaluator.h"
#include "engine/move_history.h"
#include "engine/move_key.h"
#include "engine/pattern_evaluator.h"
#include "engine/search_clock.h"
#include "engine/searcher.h"
#include "engine/transposition_table.h"
#include "rules/movegen.h"
#include "rules/movegen_impl.h"
#include "rules/zobrist.h"

namespace draughts::engine {

// Different rule sets on one board must not share table entries.
std::uint64_t VariantKey(const rules::Variant& variant);

template <class L>
class AlphaBeta final : public LayoutSearch {
 public:
  using Bits = typename L::Bits;
  using Board = rules::internal::Board<L>;
  using CMove = rules::internal::CompactMove<L>;
  using Buffer = rules::internal::MoveBuffer<L>;
  using RuleFlags = rules::internal::RuleFlags;

  AlphaBeta(TranspositionTable& table, MoveHistory& history)
      : table_(table), history_(history), buffers_(kMaxPly + 1), order_(kMaxPly + 1) {}

  SearchResult Run(const SearchRequest& request) override {
    Setup(request);
    SearchClock clock(request.limits);
    clock_ = &clock;

    SearchResult result;
    std::vector<CMove> best_pv = {root_moves_.front().move};
    int best_score = 0;
    int completed_depth = 0;
    const int max_depth = std::clamp(request.limits.max_depth, 1, kMaxSearchDepth);

    for (int depth = 1; depth <= max_depth; ++depth) {
      iteration_best_ = -1;
      int score = 0;
      if (depth >= 4 && noise_cp_ == 0 && !IsMateScore(best_score)) {
        score = AspirationSearch(depth, best_score);
      } else {
        score = SearchRoot(depth, -kInfinity, kInfinity);
      }
      if (aborted_) {
        // A move that beat the previous best in the unfinished iteration
        // was fully searched: it is the better choice.
        if (iteration_best_ >= 0 && noise_cp_ == 0 && pv_len_[0] > 0) {
          best_pv = CurrentRootPv();
          best_score = iteration_score_;
        }
        break;
      }
      completed_depth = depth;
      have_result_ = true;
      best_score = score;
      best_pv = CurrentRootPv();
      PromoteBestRootMove();
      if (request.on_info) request.on_info(MakeInfo(completed_depth, best_score, best_pv));

      const bool decided = (root_moves_.size() == 1 && clock.has_time_limit()) ||
                           (IsMateScore(best_score) && std::abs(MatePlies(best_score)) <= depth);
      if (decided && !request.limits.keep_pace) break;
      if (clock.PastTarget()) break;
    }
    if (request.limits.keep_pace && !aborted_) clock.WaitForTarget();

    result.info = MakeInfo(completed_depth, best_score, best_pv);
    result.best = result.info.pv.empty() ? ToRulesMove(request.position, best_pv.front())
                                         : result.info.pv.front();
    if (result.info.pv.size() >= 2) result.ponder = result.info.pv[1];
    clock_ = nullptr;
    return result;
  }

 private:
  static constexpr int kInfinity = kMateScore + 1;
  // The evaluation fades towards a draw over the last plies before a draw
  // rule ends the game.
  static constexpr int kDrawFadePlies = 16;

  struct Node {
    Board board;
    bool white = true;
    std::uint64_t hash = 0;
    DrawCounters draw;
  };

  struct RootMove {
    CMove move;
    MoveKey key = kNoMove;
    int noise = 0;
    std::int64_t nodes = 0;
  };

  // ---- setup and results --------------------------------------------

  void Setup(const SearchRequest& request) {
    variant_ = request.variant;
    flags_ = RuleFlags::From(variant_);
    giveaway_ = variant_.goal == rules::Goal::kLoseEverything;
    tuning_ = request.tuning;
    evaluator_ =
        std::make_unique<Evaluator<L>>(tuning_.eval ? *tuning_.eval : EvalParamsFor(variant_));
    pattern_evaluator_.reset();
    if constexpr (pattern::kHasPatterns<L>) {
      if (!tuning_.classic_eval)
        pattern_evaluator_ = MakePatternEvaluator<L>(variant_, evaluator_->params());
    }
    tracker_ = std::make_unique<DrawRuleTracker>(variant_);
    endgame_.Reset(request.endgame);
    variant_key_ = VariantKey(variant_);
    root_position_ = request.position;
    noise_cp_ = std::max(0, request.noise_cp);
    nodes_ = 0;
    seldepth_ = 0;
    aborted_ = false;
    have_result_ = false;
    for (auto& k : killers_) k = {kNoMove, kNoMove};
    table_.NewSearch();
    history_.Age();

    const GameHistory& history = *request.history;
    root_.board = Board::FromPosition(request.position);
    root_.white = request.position.side_to_move() == rules::Color::kWhite;
    root_.hash = HashBoard<L>(root_.board, root_.white);
    root_.draw = {history.no_progress_plies, history.lone_king_rule, history.lone_king_plies,
                  history.plies_played};
    if (tracker_->has_lone_king_rules()) {
      // Trust the position over the caller for which rule applies.
      const int rule = tracker_->LoneKingRule(Counts(root_.board));
      if (rule != root_.draw.lone_rule) root_.draw.lone_plies = 0;
      root_.draw.lone_rule = rule;
    } else {
      root_.draw.lone_rule = -1;
      root_.draw.lone_plies = 0;
    }

    stack_.assign(history.hashes.begin(), history.hashes.end());
    offset_ = static_cast<int>(stack_.size());
    stack_.resize(stack_.size() + kMaxPly + 2);
    stack_[offset_] = root_.hash;

    // Root moves, without the duplicates a path-identity rule set has (two
    // paths taking the same pieces to the same square play the same).
    Buffer& moves = buffers_[0];
    Generate(root_, moves);
    root_moves_.clear();
    const TableHit hit = table_.Probe(root_.hash ^ variant_key_, 0);
    std::uint64_t seed = request.noise_seed;
    for (const CMove& m : moves) {
      const MoveKey key = KeyOf(m);
      bool seen = false;
      for (const RootMove& r : root_moves_) seen = seen || r.key == key;
      if (seen) continue;
      RootMove r{m, key, 0, 0};
      if (noise_cp_ > 0) {
        r.noise = static_cast<int>(rules::SplitMix64(seed) % (2 * noise_cp_ + 1)) - noise_cp_;
      }
      root_moves_.push_back(r);
    }
    if (variant_.king_move_limit > 0) {
      // The limit on a king's moves in a row (Frisian) lives in the
      // Position, not in the search's boards: enforced at the root only.
      std::erase_if(root_moves_, [&](const RootMove& r) {
        return !MatchLegal(request.position, r.move).has_value();
      });
    }
    if (hit.found && hit.move != kNoMove) {
      for (std::size_t i = 1; i < root_moves_.size(); ++i) {
        if (root_moves_[i].key == hit.move)
          std::rotate(root_moves_.begin(), root_moves_.begin() + i, root_moves_.begin() + i + 1);
      }
    }
  }

  SearchInfo MakeInfo(int depth, int score, const std::vector<CMove>& pv) const {
    SearchInfo info;
    info.depth = depth;
    info.seldepth = std::max(seldepth_, depth);
    info.score_cp = score;
    info.nodes = nodes_;
    info.elapsed = clock_->Elapsed();
    rules::Position position = root_position_;
    for (const CMove& m : pv) {
      auto move = MatchLegal(position, m);
      if (!move) break;
      info.pv.push_back(*move);
      position = position.Play(*move);
    }
    return info;
  }

  // The legal rules::Move of `position` that `m` stands for.
  std::optional<rules::Move> MatchLegal(const rules::Position& position, const CMove& m) const {
    const int from = L::SquareOfBit(rules::LowestBit(m.from));
    const int to = L::SquareOfBit(rules::LowestBit(m.to));
    for (const rules::Move& candidate : rules::LegalMoves(variant_, position)) {
      if (candidate.from != from || candidate.to != to || candidate.capture_count != m.count)
        continue;
      Bits captured = 0;
      for (std::uint8_t s : candidate.captured_squares())
        captured |= rules::BitAt<Bits>(L::BitOfSquare(s));
      if (captured == m.captured) return candidate;
    }
    return std::nullopt;
  }

  rules::Move ToRulesMove(const rules::Position& position, const CMove& m) const {
    auto move = MatchLegal(position, m);
    return move ? *move : rules::LegalMoves(variant_, position).front();
  }

  std::vector<CMove> CurrentRootPv() const {
    return std::vector<CMove>(pv_[0].begin(), pv_[0].begin() + pv_len_[0]);
  }

  // After an iteration: its best move first, then the others by the effort
  // they took (a rough proxy for how close they came).
  void PromoteBestRootMove() {
    const MoveKey best = KeyOf(pv_[0][0]);
    std::stable_sort(root_moves_.begin(), root_moves_.end(),
                     [&](const RootMove& a, const RootMove& b) {
                       if ((a.key == best) != (b.key == best)) return a.key == best;
                       return a.nodes > b.nodes;
                     });
  }

  // ---- moves ------------------------------------------------------------

  static PieceCounts Counts(const Board& b) {
    return {rules::PopCount(b.white & ~b.kings), rules::PopCount(b.white & b.kings),
            rules::PopCount(b.black & ~b.kings), rules::PopCount(b.black & b.kings)};
  }

  void Generate(const Node& node, Buffer& out) const {
    out.clear();
    rules::internal::CompactSink<L> sink(out, flags_);
    if (node.white) {
      rules::internal::Generator<L, true>(node.board, flags_).All(sink);
    } else {
      rules::internal::Generator<L, false>(node.board, flags_).All(sink);
    }
  }

  void GenerateCaptures(const Node& node, Buffer& out) const {
    out.clear();
    rules::internal::CompactSink<L> sink(out, flags_);
    if (node.white) {
      rules::internal::Generator<L, true>(node.board, flags_).Captures(sink);
    } else {
      rules::internal::Generator<L, false>(node.board, flags_).Captures(sink);
    }
  }

  bool CanCapture(const Board& board, bool white) const {
    if (white) return rules::internal::Generator<L, true>(board, flags_).HasCapture();
    return rules::internal::Generator<L, false>(board, flags_).HasCapture();
  }

  bool HasQuietMove(const Node& node) const {
    if (node.white) return rules::internal::Generator<L, true>(node.board, flags_).CountQuiet() > 0;
    return rules::internal::Generator<L, false>(node.board, flags_).CountQuiet() > 0;
  }

  bool HasAnyMove(const Node& node) const {
    return CanCapture(node.board, node.white) || HasQuietMove(node);
  }

  Node Child(const Node& node, const CMove& m) const {
    Node child;
    child.board = node.white ? rules::internal::Apply<L, true>(node.board, m)
                             : rules::internal::Apply<L, false>(node.board, m);
    child.white = !node.white;
    child.hash = HashAfter<L>(node.hash, node.board, m, node.white);
    const bool progress = m.count > 0 || !m.by_king;
    child.draw = tracker_->After(
        node.draw, progress, tracker_->has_lone_king_rules() ? Counts(child.board) : PieceCounts{});
    return child;
  }

  // ---- draws and evaluation -------------------------------------------

  // The side to move cannot move: lost, or won in antidraughts. (In
  // breakthrough a king on the board leaves the loser without moves too.)
  int NoMoveScore(int ply) const { return giveaway_ ? kMateScore - ply : -kMateScore + ply; }

  // The position at `ply` occurred before with the same side to move since
  // the last irreversible move (in the game or on the search path).
  bool IsRepetition(const Node& node, int ply) const {
    if (!tracker_->repetition_counts()) return false;
    const int here = offset_ + ply;
    for (int back = 4; back <= node.draw.no_progress && back <= here; back += 2) {
      if (stack_[here - back] == node.hash) return true;
    }
    return false;
  }

  bool IsDraw(const Node& node, int ply) const {
    return IsRepetition(node, ply) || tracker_->Drawn(node.draw);
  }

  int StaticEval(const Node& node) const {
    int score = pattern_evaluator_ ? pattern_evaluator_->Evaluate(node.board, node.white)
                                   : evaluator_->Evaluate(node.board, node.white);
    const int left = tracker_->PliesLeft(node.draw);
    if (left < kDrawFadePlies) score = score * std::max(left, 0) / kDrawFadePlies;
    return score;
  }

  // The endgame databases' exact score (endgame_probe.h), when they know.
  std::optional<int> ProbeEndgame(const Node& node, int ply) const {
    if (!endgame_.active()) return std::nullopt;
    return endgame_.Score(node.board, node.white, ply, tracker_->PliesLeft(node.draw));
  }

  // ---- time -------------------------------------------------------------

  // Counts a node; true when the search has to unwind now.
  bool CountNodeAndPoll() {
    if (aborted_) return true;
    ++nodes_;
    if (nodes_ % SearchClock::kPollInterval == 0 && clock_->MustStop(nodes_, have_result_)) {
      aborted_ = true;
    }
    return aborted_;
  }

  // ---- move ordering ------------------------------------------------------

  struct Ordering {
    std::vector<int> index;
    std::vector<int> score;
  };

  void ScoreMoves(const Node& node, const Buffer& moves, int ply, MoveKey hash_move) {
    Ordering& o = order_[ply];
    const int n = moves.size();
    o.index.resize(n);
    o.score.resize(n);
    const int side = node.white ? 0 : 1;
    for (int i = 0; i < n; ++i) {
      const CMove& m = moves[i];
      const MoveKey key = KeyOf(m);
      int s;
      if (key == hash_move) {
        s = 1 << 30;
      } else if (m.count > 0) {
        s = (1 << 28) + 256 * m.count + 32 * rules::PopCount(m.captured & node.board.kings) +
            (m.promotes ? 8 : 0);
      } else if (m.promotes) {
        s = 1 << 27;
      } else if (key == killers_[ply][0]) {
        s = (1 << 26) + 1;
      } else if (key == killers_[ply][1]) {
        s = 1 << 26;
      } else {
        s = history_.Get(side, rules::LowestBit(m.from), rules::LowestBit(m.to));
      }
      o.index[i] = i;
      o.score[i] = s;
    }
  }

  // Selection sort, one step at a time: most nodes cut off after a move or two.
  const CMove& PickNext(const Buffer& moves, int ply, int i) {
    Ordering& o = order_[ply];
    const int n = static_cast<int>(o.index.size());
    int best = i;
    for (int j = i + 1; j < n; ++j)
      if (o.score[j] > o.score[best]) best = j;
    std::swap(o.index[i], o.index[best]);
    std::swap(o.score[i], o.score[best]);
    return moves[o.index[i]];
  }

  bool IsKiller(int ply, MoveKey key) const {
    return key == killers_[ply][0] || key == killers_[ply][1];
  }

  void RecordCutoff(const Node& node, const Buffer& moves, int ply, int tried, int depth) {
    const CMove& m = moves[order_[ply].index[tried]];
    if (m.count > 0) return;
    const MoveKey key = KeyOf(m);
    if (killers_[ply][0] != key) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = key;
    }
    const int side = node.white ? 0 : 1;
    history_.Reward(side, rules::LowestBit(m.from), rules::LowestBit(m.to), depth);
    for (int i = 0; i < tried; ++i) {
      const CMove& worse = moves[order_[ply].index[i]];
      if (worse.count == 0)
        history_.Punish(side, rules::LowestBit(worse.from), rules::LowestBit(worse.to), depth);
    }
  }

  void UpdatePv(int ply, const CMove& m) {
    pv_[ply][ply] = m;
    for (int i = ply + 1; i < pv_len_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
    pv_len_[ply] = std::max(pv_len_[ply + 1], ply + 1);
  }

  // ---- search -------------------------------------------------------------

  // Nothing to capture for either side: the static evaluation means
  // something here, so the cuts that trust it may apply. (Where captures
  // are compulsory, a capture on the board makes every move one.)
  bool IsQuiet(const Node& node, const Buffer& moves) const {
    const bool can_capture =
        flags_.mandatory_capture ? moves[0].count > 0 : CanCapture(node.board, node.white);
    return !can_capture && !CanCapture(node.board, !node.white);
  }

  int AspirationSearch(int depth, int previous) {
    int delta = 30;
    int alpha = std::max(previous - delta, -kInfinity);
    int beta = std::min(previous + delta, kInfinity);
    while (true) {
      const int score = SearchRoot(depth, alpha, beta);
      if (aborted_) return score;
      if (score <= alpha) {
        alpha = delta > 400 ? -kInfinity : std::max(score - delta, -kInfinity);
      } else if (score >= beta) {
        beta = delta > 400 ? kInfinity : std::min(score + delta, kInfinity);
      } else {
        return score;
      }
      delta *= 4;
    }
  }

  int SearchRoot(int depth, int alpha, int beta) {
    pv_len_[0] = 0;
    iteration_best_ = -1;
    int best = -kInfinity;
    int best_noisy = std::numeric_limits<int>::min();
    const Node& node = root_;
    for (std::size_t i = 0; i < root_moves_.size(); ++i) {
      RootMove& rm = root_moves_[i];
      const Node child = Child(node, rm.move);
      stack_[offset_ + 1] = child.hash;
      const std::int64_t before = nodes_;
      int score;
      if (noise_cp_ > 0) {
        score = -Search(child, depth - 1, -kInfinity, kInfinity, 1);
      } else if (i == 0) {
        score = -Search(child, depth - 1, -beta, -alpha, 1);
      } else {
        score = -Search(child, depth - 1, -alpha - 1, -alpha, 1);
        if (!aborted_ && score > alpha && score < beta)
          score = -Search(child, depth - 1, -beta, -alpha, 1);
      }
      rm.nodes += nodes_ - before;
      if (aborted_) break;

      if (noise_cp_ > 0) {
        if (score + rm.noise > best_noisy) {
          best_noisy = score + rm.noise;
          best = score;
          UpdatePv(0, rm.move);
        }
        continue;
      }
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          UpdatePv(0, rm.move);
          iteration_best_ = static_cast<int>(i);
          iteration_score_ = score;
          if (alpha >= beta) break;
        }
      }
    }
    return best;
  }

  int Search(const Node& node, int depth, int alpha, int beta, int ply) {
    pv_len_[ply] = ply;
    if (depth <= 0) return Quiesce(node, alpha, beta, ply, tuning_.threat_budget);
    if (CountNodeAndPoll()) return 0;
    stack_[offset_ + ply] = node.hash;
    if (IsDraw(node, ply)) return HasAnyMove(node) ? 0 : NoMoveScore(ply);
    if (ply >= kMaxPly - 1) return StaticEval(node);
    seldepth_ = std::max(seldepth_, ply);
    if (auto exact = ProbeEndgame(node, ply)) return *exact;

    // Neither side can do better than mating at once.
    alpha = std::max(alpha, -kMateScore + ply);
    beta = std::min(beta, giveaway_ ? kMateScore - ply : kMateScore - ply - 1);
    if (alpha >= beta) return alpha;

    const bool pv_node = beta - alpha > 1;
    const std::uint64_t key = node.hash ^ variant_key_;
    const TableHit hit = table_.Probe(key, ply);
    if (hit.found && !pv_node && hit.depth >= depth) {
      if (hit.bound == Bound::kExact) return hit.score;
      if (hit.bound == Bound::kLower && hit.score >= beta) return hit.score;
      if (hit.bound == Bound::kUpper && hit.score <= alpha) return hit.score;
    }

    Buffer& moves = buffers_[ply];
    Generate(node, moves);
    const int n = moves.size();
    if (n == 0) return NoMoveScore(ply);  // blocked or no pieces
    // A forced move costs no depth (bounded so the tree cannot run away).
    const int next_depth =
        (n == 1 && tuning_.single_reply_extension && ply < kMaxPly / 2) ? depth : depth - 1;

    MoveKey hash_move = hit.found ? hit.move : kNoMove;
    const bool static_cut = depth <= tuning_.futility_max_depth && tuning_.futility_margin > 0;
    const bool probcut = depth >= tuning_.probcut_min_depth && tuning_.probcut_margin > 0;
    if ((static_cut || probcut) && !pv_node && !giveaway_ && !IsMateScore(beta) &&
        IsQuiet(node, moves)) {
      if (static_cut) {
        const int eval = StaticEval(node);
        if (eval - depth * tuning_.futility_margin >= beta) return eval;
      }
      if (probcut) {
        const int raised = beta + tuning_.probcut_margin;
        const int score = Search(node, depth - tuning_.probcut_reduction, raised - 1, raised, ply);
        if (aborted_) return 0;
        if (score >= raised) return score;
        // The shallow search may have found a better first move; its own
        // search used this ply's move buffer, which holds the same moves.
        const TableHit again = table_.Probe(key, ply);
        if (again.found && again.move != kNoMove) hash_move = again.move;
      }
    }

    ScoreMoves(node, moves, ply, hash_move);
    const int original_alpha = alpha;
    int best = -kInfinity;
    MoveKey best_key = kNoMove;
    for (int i = 0; i < n; ++i) {
      const CMove& m = PickNext(moves, ply, i);
      const Node child = Child(node, m);
      if (next_depth > 0) table_.Prefetch(child.hash ^ variant_key_);
      int score;
      if (i == 0) {
        score = -Search(child, next_depth, -beta, -alpha, ply + 1);
      } else {
        int reduction = 0;
        if (depth >= tuning_.lmr_min_depth && i >= tuning_.lmr_min_index && m.count == 0 &&
            !m.promotes && !IsKiller(ply, KeyOf(m)) && !CanCapture(child.board, child.white)) {
          reduction = (i >= tuning_.lmr_deep_index && depth >= tuning_.lmr_deep_depth) ? 2 : 1;
        }
        score = -Search(child, next_depth - reduction, -alpha - 1, -alpha, ply + 1);
        if (!aborted_ && score > alpha && reduction > 0)
          score = -Search(child, next_depth, -alpha - 1, -alpha, ply + 1);
        if (!aborted_ && score > alpha && score < beta)
          score = -Search(child, next_depth, -beta, -alpha, ply + 1);
      }
      if (aborted_) return 0;
      if (score > best) {
        best = score;
        best_key = KeyOf(m);
        if (score > alpha) {
          alpha = score;
          UpdatePv(ply, m);
          if (alpha >= beta) {
            RecordCutoff(node, moves, ply, i, depth);
            break;
          }
        }
      }
    }

    const Bound bound = best >= beta            ? Bound::kLower
                        : best > original_alpha ? Bound::kExact
                                                : Bound::kUpper;
    table_.Store(key, ply, depth, best, bound, best_key);
    return best;
  }

  int Quiesce(const Node& node, int alpha, int beta, int ply, int threat_budget) {
    pv_len_[ply] = ply;
    if (CountNodeAndPoll()) return 0;
    stack_[offset_ + ply] = node.hash;
    if (IsDraw(node, ply)) return HasAnyMove(node) ? 0 : NoMoveScore(ply);
    if (ply >= kMaxPly - 1) return StaticEval(node);
    seldepth_ = std::max(seldepth_, ply);
    if (auto exact = ProbeEndgame(node, ply)) return *exact;

    Buffer& moves = buffers_[ply];
    int best = -kInfinity;
    if (CanCapture(node.board, node.white)) {
      // Captures are compulsory: the evaluation of this position means
      // nothing, its captures decide. Where they are optional the side to
      // move may also decline them.
      if (!flags_.mandatory_capture) {
        best = StaticEval(node);
        if (best >= beta) return best;
        alpha = std::max(alpha, best);
      }
      GenerateCaptures(node, moves);
    } else {
      if (!HasQuietMove(node)) return NoMoveScore(ply);
      if (threat_budget == 0 || !CanCapture(node.board, !node.white)) return StaticEval(node);
      // The opponent threatens to capture: whether we lose material depends
      // on our reply, so every reply is searched (there is no passing in
      // draughts, so no stand-pat either).
      Generate(node, moves);
      --threat_budget;
    }

    const int n = moves.size();
    ScoreMoves(node, moves, ply, kNoMove);
    for (int i = 0; i < n; ++i) {
      const CMove& m = PickNext(moves, ply, i);
      const Node child = Child(node, m);
      const int score = -Quiesce(child, -beta, -alpha, ply + 1, threat_budget);
      if (aborted_) return 0;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          UpdatePv(ply, m);
          if (alpha >= beta) break;
        }
      }
    }
    return best;
  }

  TranspositionTable& table_;
  MoveHistory& history_;

  rules::Variant variant_;
  RuleFlags flags_;
  bool giveaway_ = false;  // antidraughts: no move left is a win
  SearchTuning tuning_;
  std::unique_ptr<Evaluator<L>> evaluator_;
  // The learned evaluation when the rule set has built-in weights (null
  // otherwise, and always on layouts without patterns).
  std::unique_ptr<std::conditional_t<pattern::kHasPatterns<L>, PatternEvaluator<L>, Evaluator<L>>>
      pattern_evaluator_;
  std::unique_ptr<DrawRuleTracker> tracker_;
  EndgameProbe<L> endgame_;
  std::uint64_t variant_key_ = 0;
  rules::Position root_position_;
  Node root_;
  std::vector<RootMove> root_moves_;
  int noise_cp_ = 0;

  const SearchClock* clock_ = nullptr;
  std::int64_t nodes_ = 0;
  int seldepth_ = 0;
  bool aborted_ = false;
  bool have_result_ = false;
  int iteration_best_ = -1;
  int iteration_score_ = 0;

  // Hashes of the game so far followed by the search path: stack_[offset_ + ply].
  std::vector<std::uint64_t> stack_;
  int offset_ = 0;

  std::vector<Buffer> buffers_;
  std::vector<Ordering> order_;
  std::array<std::array<MoveKey, 2>, kMaxPly + 1> killers_{};
  std::array<std::array<CMove, kMaxPly + 1>, kMaxPly + 1> pv_{};
  std::array<int, kMaxPly + 2> pv_len_{};
};

}  // namespace draughts::engine
