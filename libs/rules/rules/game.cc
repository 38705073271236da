#include "rules/game.h"

#include "rules/move_notation.h"

namespace draughts::rules {
namespace {

bool IsServiceDecision(OutcomeReason reason) {
  switch (reason) {
    case OutcomeReason::kResignation:
    case OutcomeReason::kAgreement:
    case OutcomeReason::kTimeForfeit:
    case OutcomeReason::kAbandonment:
      return true;
    default:
      return false;
  }
}

GameStatus WinFor(Color winner) {
  return winner == Color::kWhite ? GameStatus::kWhiteWins : GameStatus::kBlackWins;
}

}  // namespace

std::string_view OutcomeReasonName(OutcomeReason reason) {
  switch (reason) {
    case OutcomeReason::kNone:
      return "none";
    case OutcomeReason::kNoPieces:
      return "no pieces left";
    case OutcomeReason::kNoLegalMoves:
      return "no legal moves";
    case OutcomeReason::kRepetition:
      return "repetition";
    case OutcomeReason::kNoProgress:
      return "no capture or man move";
    case OutcomeReason::kLoneKing:
      return "lone king endgame";
    case OutcomeReason::kMoveLimit:
      return "move limit";
    case OutcomeReason::kResignation:
      return "resignation";
    case OutcomeReason::kAgreement:
      return "agreement";
    case OutcomeReason::kTimeForfeit:
      return "time forfeit";
    case OutcomeReason::kAbandonment:
      return "abandonment";
    case OutcomeReason::kFirstKing:
      return "crowned a man first";
  }
  return "unknown";
}

std::optional<Color> Outcome::winner() const {
  if (status == GameStatus::kWhiteWins) return Color::kWhite;
  if (status == GameStatus::kBlackWins) return Color::kBlack;
  return std::nullopt;
}

std::string Outcome::ToString() const {
  std::string head;
  switch (status) {
    case GameStatus::kOngoing:
      return "ongoing";
    case GameStatus::kWhiteWins:
      head = "white wins";
      break;
    case GameStatus::kBlackWins:
      head = "black wins";
      break;
    case GameStatus::kDraw:
      head = "draw";
      break;
  }
  return head + ": " + std::string(OutcomeReasonName(reason));
}

GameRecord::GameRecord(const Variant& variant) : GameRecord(variant, Position::Initial(variant)) {}

GameRecord::GameRecord(const Variant& variant, const Position& start) : variant_(variant) {
  PlyState first{start};
  first.lone_rule = LoneKingRule(start);
  plies_.push_back(first);
  Refresh();
}

std::vector<Position> GameRecord::positions() const {
  std::vector<Position> out;
  out.reserve(plies_.size());
  for (const PlyState& ply : plies_) out.push_back(ply.position);
  return out;
}

int GameRecord::LoneKingRule(const Position& position) const {
  const auto& rules = variant_.draw.lone_king;
  for (int r = 0; r < static_cast<int>(rules.size()); ++r) {
    const auto& rule = rules[static_cast<std::size_t>(r)];
    if (rule.moves_per_side <= 0) continue;
    for (Color lone : {Color::kWhite, Color::kBlack}) {
      const Color other = Opponent(lone);
      const int others = position.CountPieces(other);
      if (position.CountPieces(lone) == 1 && position.CountKings(lone) == 1 &&
          others >= rule.min_pieces && others <= rule.max_pieces &&
          position.CountKings(other) >= 1) {
        return r;
      }
    }
  }
  return -1;
}

int GameRecord::repetition_count() const {
  // Positions before the last capture or man move cannot come back, so only
  // the no-progress window is searched, two plies at a time (same side).
  const PlyState& now = plies_.back();
  int count = 0;
  const int last = static_cast<int>(plies_.size()) - 1;
  for (int i = last; i >= 0 && i >= last - now.no_progress; i -= 2) {
    const Position& then = plies_[static_cast<std::size_t>(i)].position;
    if (then.hash() == now.position.hash() && then == now.position) ++count;
  }
  return count;
}

Outcome GameRecord::RulesOutcome() const {
  const Position& now = position();
  const Color mover = now.side_to_move();
  if (variant_.goal == Goal::kFirstKing) {
    // The side that just moved crowned (a set-up position may hold kings of
    // both: the one not to move got there first).
    for (Color c : {Opponent(mover), mover}) {
      if (now.CountKings(c) > 0) return {WinFor(c), OutcomeReason::kFirstKing};
    }
  }
  // Antidraughts: the side that cannot move has reached its goal.
  const Color cannot_move_wins = variant_.goal == Goal::kLoseEverything ? mover : Opponent(mover);
  if (now.CountPieces(mover) == 0) return {WinFor(cannot_move_wins), OutcomeReason::kNoPieces};
  if (legal_.empty()) return {WinFor(cannot_move_wins), OutcomeReason::kNoLegalMoves};
  const DrawRules& draw = variant_.draw;
  const PlyState& state = plies_.back();
  if (draw.repetitions > 0 && repetition_count() >= draw.repetitions) {
    return {GameStatus::kDraw, OutcomeReason::kRepetition};
  }
  const int no_progress_limit = draw.NoProgressPlies();
  if (no_progress_limit > 0 && state.no_progress >= no_progress_limit) {
    return {GameStatus::kDraw, OutcomeReason::kNoProgress};
  }
  if (state.lone_rule >= 0) {
    const auto& rule = draw.lone_king[static_cast<std::size_t>(state.lone_rule)];
    if (state.lone_plies >= 2 * rule.moves_per_side) {
      return {GameStatus::kDraw, OutcomeReason::kLoneKing};
    }
  }
  if (draw.move_limit_plies > 0 && ply_count() >= draw.move_limit_plies) {
    return {GameStatus::kDraw, OutcomeReason::kMoveLimit};
  }
  return {};
}

void GameRecord::Refresh() {
  GenerateMoves(variant_, position(), legal_);
  outcome_ = RulesOutcome();
  if (outcome_.is_over()) legal_.clear();
}

std::optional<Error> GameRecord::Apply(const Move& move) {
  if (is_over()) return MakeError("the game is over (" + outcome_.ToString() + ")");
  bool legal = false;
  for (const Move& candidate : legal_) legal = legal || candidate == move;
  if (!legal) {
    return MakeError("move " + FormatMovePath(move) + " is not legal in this position");
  }
  const PlyState& before = plies_.back();
  PlyState after{before.position.Play(move)};
  const bool progress = move.is_capture() || !move.by_king;
  after.no_progress = progress ? 0 : before.no_progress + 1;
  after.lone_rule = LoneKingRule(after.position);
  after.lone_plies = after.lone_rule == before.lone_rule ? before.lone_plies + 1 : 0;
  if (after.lone_rule < 0) after.lone_plies = 0;
  plies_.push_back(after);
  moves_.push_back(move);
  Refresh();
  return std::nullopt;
}

Result<GameRecord> GameRecord::Play(const Move& move) const {
  GameRecord next = *this;
  if (auto error = next.Apply(move)) return *error;
  return next;
}

Result<GameRecord> GameRecord::Play(std::string_view notation) const {
  if (is_over()) return MakeError("the game is over (" + outcome_.ToString() + ")");
  auto text = ParseMoveText(notation);
  if (!text.ok()) return text.error();
  auto move = MatchMove(variant_.board, legal_, *text);
  if (!move.ok()) return move.error();
  return Play(*move);
}

Result<GameRecord> GameRecord::Decide(GameStatus status, OutcomeReason reason) const {
  if (is_over()) return MakeError("the game is already over (" + outcome_.ToString() + ")");
  GameRecord next = *this;
  next.outcome_ = {status, reason};
  next.legal_.clear();
  return next;
}

Result<GameRecord> GameRecord::DecideResignation(Color resigning) const {
  return Decide(WinFor(Opponent(resigning)), OutcomeReason::kResignation);
}
Result<GameRecord> GameRecord::DecideAgreedDraw() const {
  return Decide(GameStatus::kDraw, OutcomeReason::kAgreement);
}
Result<GameRecord> GameRecord::DecideTimeForfeit(Color loser) const {
  return Decide(WinFor(Opponent(loser)), OutcomeReason::kTimeForfeit);
}
Result<GameRecord> GameRecord::DecideAbandonment(Color loser) const {
  return Decide(WinFor(Opponent(loser)), OutcomeReason::kAbandonment);
}

Result<GameRecord> GameRecord::TakeBack(int plies) const {
  if (IsServiceDecision(outcome_.reason)) {
    return MakeError("the game was decided by " + std::string(OutcomeReasonName(outcome_.reason)) +
                     "; its moves cannot be taken back");
  }
  if (plies < 0 || plies > ply_count()) {
    return MakeError("cannot take back " + std::to_string(plies) + " plies of " +
                     std::to_string(ply_count()));
  }
  GameRecord previous = *this;
  previous.plies_.resize(plies_.size() - static_cast<std::size_t>(plies));
  previous.moves_.resize(moves_.size() - static_cast<std::size_t>(plies));
  previous.Refresh();
  return previous;
}

}  // namespace draughts::rules
