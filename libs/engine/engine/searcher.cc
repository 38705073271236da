#include "engine/searcher.h"

#include "engine/alpha_beta.h"
#include "rules/full_layout.h"
#include "rules/layout.h"

namespace draughts::engine {

std::uint64_t VariantKey(const rules::Variant& v) {
  // Every field that changes which moves are legal or how a line ends.
  const std::uint64_t fields[] = {
      static_cast<std::uint64_t>(v.board),
      static_cast<std::uint64_t>(v.men_capture_backward),
      static_cast<std::uint64_t>(v.king_range),
      static_cast<std::uint64_t>(v.capture_choice),
      static_cast<std::uint64_t>(v.promotion_in_capture),
      static_cast<std::uint64_t>(v.capture_identity),
      static_cast<std::uint64_t>(v.mandatory_capture),
      static_cast<std::uint64_t>(v.draw.repetitions),
      static_cast<std::uint64_t>(v.draw.NoProgressPlies()),
      static_cast<std::uint64_t>(v.draw.lone_king[0].moves_per_side),
      static_cast<std::uint64_t>(v.draw.lone_king[1].moves_per_side),
      static_cast<std::uint64_t>(v.draw.move_limit_plies),
      static_cast<std::uint64_t>(v.men_capture_kings),
      static_cast<std::uint64_t>(v.king_landing),
      static_cast<std::uint64_t>(v.captured_removal),
      static_cast<std::uint64_t>(v.king_may_turn_back),
      static_cast<std::uint64_t>(v.capture_priority.with_king),
      static_cast<std::uint64_t>(v.capture_priority.most_kings),
      static_cast<std::uint64_t>(v.capture_priority.earliest_king),
      static_cast<std::uint64_t>(v.goal),
      static_cast<std::uint64_t>(v.orthogonal_captures),
      static_cast<std::uint64_t>(v.king_move_limit),
  };
  std::uint64_t state = 0x656e67696e65ull;  // "engine"
  std::uint64_t key = 0;
  for (std::uint64_t f : fields) {
    state ^= f;
    key ^= rules::SplitMix64(state);
  }
  return key;
}

Searcher::Searcher(std::size_t tt_megabytes)
    : table_(tt_megabytes), history_(std::make_unique<MoveHistory>()) {}

Searcher::~Searcher() = default;

void Searcher::NewGame() {
  table_.Clear();
  history_->Clear();
}

void Searcher::ResizeTable(std::size_t tt_megabytes) {
  table_.Resize(tt_megabytes);
}

SearchResult Searcher::Run(const SearchRequest& request) {
  switch (request.variant.board) {
    case rules::BoardSize::k8x8:
      if (!by_layout_[0])
        by_layout_[0] = std::make_unique<AlphaBeta<rules::Layout8>>(table_, *history_);
      return by_layout_[0]->Run(request);
    case rules::BoardSize::kFull8x8:
      if (!by_layout_[3])
        by_layout_[3] = std::make_unique<AlphaBeta<rules::FullLayout8>>(table_, *history_);
      return by_layout_[3]->Run(request);
    case rules::BoardSize::k12x12:
      if (!by_layout_[2])
        by_layout_[2] = std::make_unique<AlphaBeta<rules::Layout12>>(table_, *history_);
      return by_layout_[2]->Run(request);
    case rules::BoardSize::k10x10:
    default:
      if (!by_layout_[1])
        by_layout_[1] = std::make_unique<AlphaBeta<rules::Layout10>>(table_, *history_);
      return by_layout_[1]->Run(request);
  }
}

}  // namespace draughts::engine
