#include "engine/transposition_table.h"

#include <algorithm>

#include "engine/search_types.h"

namespace draughts::engine {
namespace {

std::uint32_t CheckOf(std::uint64_t key) {
  return static_cast<std::uint32_t>(key >> 32);
}

}  // namespace

TranspositionTable::TranspositionTable(std::size_t megabytes) {
  Resize(megabytes);
}

void TranspositionTable::Resize(std::size_t megabytes) {
  const std::size_t bytes = std::max<std::size_t>(megabytes, 1) << 20;
  std::size_t count = 1;
  while (count * 2 * sizeof(Bucket) <= bytes) count *= 2;
  buckets_.assign(count, Bucket{});
  buckets_.shrink_to_fit();
  mask_ = count - 1;
  generation_ = 0;
}

void TranspositionTable::Clear() {
  std::fill(buckets_.begin(), buckets_.end(), Bucket{});
  generation_ = 0;
}

int TranspositionTable::ToStored(int score, int ply) {
  if (score >= kMateScore - kMaxPly) return score + ply;
  if (score <= -(kMateScore - kMaxPly)) return score - ply;
  return score;
}

int TranspositionTable::FromStored(int score, int ply) {
  if (score >= kMateScore - kMaxPly) return score - ply;
  if (score <= -(kMateScore - kMaxPly)) return score + ply;
  return score;
}

TableHit TranspositionTable::Probe(std::uint64_t key, int ply) const {
  const Bucket& bucket = BucketOf(key);
  const std::uint32_t check = CheckOf(key);
  for (const Entry* e : {&bucket.deep, &bucket.recent}) {
    if (e->check == check && e->depth >= 0) {
      return {true, e->move, FromStored(e->score, ply), e->depth,
              static_cast<Bound>(e->bound_generation & 3)};
    }
  }
  return {};
}

void TranspositionTable::Store(std::uint64_t key, int ply, int depth, int score, Bound bound,
                               MoveKey move) {
  Bucket& bucket = BucketOf(key);
  const std::uint32_t check = CheckOf(key);
  Entry fresh;
  fresh.check = check;
  fresh.score = static_cast<std::int16_t>(ToStored(score, ply));
  fresh.depth = static_cast<std::int8_t>(std::clamp(depth, 0, 127));
  fresh.bound_generation = static_cast<std::uint8_t>((generation_ << 2) | static_cast<int>(bound));
  fresh.move = move;

  Entry& deep = bucket.deep;
  const bool same = deep.check == check && deep.depth >= 0;
  // Keep the best move known for this position if the new search has none.
  if (same && move == kNoMove) fresh.move = deep.move;
  if (same || deep.depth < 0 || GenerationOf(deep) != generation_ || fresh.depth >= deep.depth) {
    // The previous deep entry, if it is another position, is still useful
    // as the recent one.
    if (!same && deep.depth >= 0) bucket.recent = deep;
    deep = fresh;
    return;
  }
  if (bucket.recent.check == check && move == kNoMove) fresh.move = bucket.recent.move;
  bucket.recent = fresh;
}

int TranspositionTable::Hashfull() const {
  const std::size_t sample = std::min<std::size_t>(1000, buckets_.size());
  int used = 0;
  for (std::size_t i = 0; i < sample; ++i) {
    const Entry& e = buckets_[i].deep;
    if (e.depth >= 0 && GenerationOf(e) == generation_) ++used;
  }
  return static_cast<int>(used * 1000 / std::max<std::size_t>(sample, 1));
}

}  // namespace draughts::engine
