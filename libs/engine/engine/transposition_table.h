#pragma once

// Transposition table: buckets of two entries, the first kept for the
// deepest search seen (replaced only by a search at least as deep, or once
// it is left over from an earlier search), the second always replaced. Mate
// scores are stored relative to the node (distance from it, not from the
// root) so they stay right when the same position is reached at another ply.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/move_key.h"

namespace draughts::engine {

enum class Bound : std::uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

struct TableHit {
  bool found = false;
  MoveKey move = kNoMove;
  int score = 0;  // already converted back to the probing ply
  int depth = -1;
  Bound bound = Bound::kNone;
};

class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t megabytes);

  void Resize(std::size_t megabytes);
  void Clear();
  // Entries from earlier searches become the first to go.
  void NewSearch() { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 0x3F); }

  TableHit Probe(std::uint64_t key, int ply) const;
  // Starts loading the bucket of `key` into the cache: the table is much
  // larger than the cache, and a node about to be searched will probe it.
  void Prefetch(std::uint64_t key) const { __builtin_prefetch(&buckets_[key & mask_]); }
  void Store(std::uint64_t key, int ply, int depth, int score, Bound bound, MoveKey move);

  std::size_t bucket_count() const { return buckets_.size(); }
  // Per mille of sampled first-slot entries written by the current search.
  int Hashfull() const;

  // Score conversions between "from the root" and "from this node".
  static int ToStored(int score, int ply);
  static int FromStored(int score, int ply);

 private:
  struct Entry {
    std::uint32_t check = 0;  // upper half of the key
    MoveKey move = kNoMove;
    std::int16_t score = 0;
    std::int8_t depth = -1;
    std::uint8_t bound_generation = 0;  // bound in the low 2 bits, generation above
    std::uint32_t padding = 0;
  };
  struct Bucket {
    Entry deep;
    Entry recent;
  };
  static_assert(sizeof(Entry) == 16);

  Bucket& BucketOf(std::uint64_t key) { return buckets_[key & mask_]; }
  const Bucket& BucketOf(std::uint64_t key) const { return buckets_[key & mask_]; }
  std::uint8_t GenerationOf(const Entry& e) const { return e.bound_generation >> 2; }

  std::vector<Bucket> buckets_;
  std::uint64_t mask_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace draughts::engine
