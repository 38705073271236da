#include "engine/pattern_weights.h"

#include <array>
#include <cstring>
#include <map>
#include <mutex>

#include "engine/pattern_features.h"
#include "rules/layout.h"

namespace draughts::engine {
namespace {

constexpr char kMagic[8] = {'D', 'R', 'W', 'E', 'I', 'G', 'H', 'T'};
constexpr std::uint32_t kMaxFamilyLength = 64;

std::uint64_t Fnv1a(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  return h;
}

void PutU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void PutU64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// Reads little-endian fields, remembering whether the input ran out.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  bool Has(std::size_t n) const { return bytes_.size() - pos_ >= n; }
  std::uint64_t Get(int width) {
    std::uint64_t v = 0;
    for (int i = 0; i < width; ++i) v |= std::uint64_t{bytes_[pos_ + i]} << (8 * i);
    pos_ += width;
    return v;
  }
  std::span<const std::uint8_t> Take(std::size_t n) {
    auto s = bytes_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  std::size_t pos() const { return pos_; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<std::string_view> PatternFamily(const rules::Variant& variant) {
  // Trained from self-play of exactly these rule sets; a rule set that
  // differs in any rule would be misjudged by them.
  if (variant.id == "international") return "international";
  if (variant.id == "english") return "english";
  return std::nullopt;
}

namespace {

std::uint64_t LayoutHash(int board_dimension, int weight_count, int scalar_count) {
  std::vector<std::uint8_t> desc;
  const char tag[] = "draughts-pattern-windows-4x4-men-3state";
  desc.insert(desc.end(), tag, tag + sizeof(tag) - 1);
  PutU32(desc, static_cast<std::uint32_t>(board_dimension));
  PutU32(desc, static_cast<std::uint32_t>(weight_count));
  PutU32(desc, pattern::kWindowStates);
  PutU32(desc, static_cast<std::uint32_t>(scalar_count));
  PutU32(desc, pattern::kClassicScale);
  PutU32(desc, pattern::kPhaseMax);
  if (scalar_count > pattern::kLegacyScalarCount) PutU32(desc, pattern::kBalanceScale);
  return Fnv1a(desc);
}

int LegacyWeightCount(int board_dimension) {
  if (board_dimension == 8) return pattern::Shape<rules::Layout8>::kLegacyWeightCount;
  if (board_dimension == 10) return pattern::Shape<rules::Layout10>::kLegacyWeightCount;
  return 0;
}

}  // namespace

std::uint64_t PatternLayoutHash(int board_dimension) {
  return LayoutHash(board_dimension, PatternWeightCount(board_dimension), pattern::kScalarCount);
}

std::uint64_t LegacyPatternLayoutHash(int board_dimension) {
  return LayoutHash(board_dimension, LegacyWeightCount(board_dimension),
                    pattern::kLegacyScalarCount);
}

int PatternWeightCount(int board_dimension) {
  if (board_dimension == 8) return pattern::Shape<rules::Layout8>::kWeightCount;
  if (board_dimension == 10) return pattern::Shape<rules::Layout10>::kWeightCount;
  return 0;
}

std::vector<std::uint8_t> SerializeWeights(const PatternWeights& weights) {
  std::vector<std::uint8_t> out(kMagic, kMagic + 8);
  PutU32(out, kWeightsFormatVersion);
  PutU32(out, static_cast<std::uint32_t>(weights.family.size()));
  out.insert(out.end(), weights.family.begin(), weights.family.end());
  PutU32(out, static_cast<std::uint32_t>(weights.board_dimension));
  PutU64(out, PatternLayoutHash(weights.board_dimension));
  PutU32(out, static_cast<std::uint32_t>(weights.values.size()));
  for (std::int16_t v : weights.values) {
    const auto u = static_cast<std::uint16_t>(v);
    out.push_back(static_cast<std::uint8_t>(u));
    out.push_back(static_cast<std::uint8_t>(u >> 8));
  }
  PutU64(out, Fnv1a(out));
  return out;
}

rules::Result<PatternWeights> ParseWeights(std::span<const std::uint8_t> bytes,
                                           std::string_view expected_family,
                                           int expected_board_dimension) {
  const std::string what = "weights for " + std::string(expected_family) + ": ";
  Reader r(bytes);
  if (!r.Has(8) || std::memcmp(r.Take(8).data(), kMagic, 8) != 0) {
    return rules::MakeError(what + "not a weights file (bad magic)");
  }
  if (!r.Has(4)) return rules::MakeError(what + "truncated header");
  const auto version = static_cast<std::uint32_t>(r.Get(4));
  if (version != kWeightsFormatVersion) {
    return rules::MakeError(what + "format version " + std::to_string(version) +
                            ", this engine reads version " + std::to_string(kWeightsFormatVersion));
  }
  if (!r.Has(4)) return rules::MakeError(what + "truncated header");
  const auto name_length = static_cast<std::uint32_t>(r.Get(4));
  if (name_length > kMaxFamilyLength || !r.Has(name_length)) {
    return rules::MakeError(what + "bad family name length");
  }
  const auto name = r.Take(name_length);
  PatternWeights w;
  w.family.assign(name.begin(), name.end());
  if (w.family != expected_family) {
    return rules::MakeError(what + "the file is for family '" + w.family + "'");
  }
  if (!r.Has(4 + 8 + 4)) return rules::MakeError(what + "truncated header");
  w.board_dimension = static_cast<int>(r.Get(4));
  if (w.board_dimension != expected_board_dimension) {
    return rules::MakeError(what + "the file is for a " + std::to_string(w.board_dimension) +
                            "-square board, expected " + std::to_string(expected_board_dimension));
  }
  const std::uint64_t layout = r.Get(8);
  const bool legacy = layout == LegacyPatternLayoutHash(w.board_dimension);
  if (layout != PatternLayoutHash(w.board_dimension) && !legacy) {
    return rules::MakeError(what + "feature layout hash mismatch (made for another layout)");
  }
  const auto count = static_cast<std::uint32_t>(r.Get(4));
  const int expected_count =
      legacy ? LegacyWeightCount(w.board_dimension) : PatternWeightCount(w.board_dimension);
  if (count != static_cast<std::uint32_t>(expected_count)) {
    return rules::MakeError(what + "holds " + std::to_string(count) + " weights, expected " +
                            std::to_string(expected_count));
  }
  if (!r.Has(2 * std::size_t{count} + 8)) return rules::MakeError(what + "truncated weights");
  w.values.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    w.values[i] = static_cast<std::int16_t>(static_cast<std::uint16_t>(r.Get(2)));
  }
  const std::size_t body = r.pos();
  const std::uint64_t checksum = r.Get(8);
  if (checksum != Fnv1a(bytes.first(body))) {
    return rules::MakeError(what + "checksum mismatch (corrupt file)");
  }
  if (r.Has(1)) return rules::MakeError(what + "trailing bytes after the checksum");
  // The first layout's weights are a prefix of today's: the terms it did
  // not have weigh nothing.
  w.values.resize(static_cast<std::size_t>(PatternWeightCount(w.board_dimension)), 0);
  return w;
}

namespace {

struct Loaded {
  std::optional<PatternWeights> weights;
  std::string error;
};

const Loaded& Load(std::string_view family) {
  static std::mutex mutex;
  static std::map<std::string, Loaded, std::less<>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(family);
  if (it != cache.end()) return it->second;
  Loaded loaded;
  const int dimension = family == "english" ? 8 : 10;
  const auto bytes = EmbeddedWeightsFile(family);
  if (bytes.empty()) {
    loaded.error = "no weights built in for " + std::string(family);
  } else {
    auto parsed = ParseWeights(bytes, family, dimension);
    if (parsed.ok()) {
      loaded.weights = std::move(*parsed);
    } else {
      loaded.error = parsed.error().message;
    }
  }
  return cache.emplace(std::string(family), std::move(loaded)).first->second;
}

}  // namespace

const PatternWeights* BuiltInWeights(std::string_view family) {
  const Loaded& loaded = Load(family);
  return loaded.weights ? &*loaded.weights : nullptr;
}

std::string BuiltInWeightsError(std::string_view family) {
  return Load(family).error;
}

}  // namespace draughts::engine
