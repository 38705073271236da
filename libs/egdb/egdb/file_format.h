#pragma once

// One slice per file, directory/<family>/<signature>.egdb:
//
//   offset size
//        0    8  magic "DRGEGDB\0"
//        8    4  format version (1), little-endian like every number here
//       12    4  board dimension (8 or 10)
//       16    8  RulesKey of the family (family.h)
//       24   32  family id, NUL-padded
//       56    4  white men, white kings, black men, black kings (one byte each)
//       60    4  reserved (0)
//       64    8  positions per side to move (SliceShape::size)
//       72    8  FNV-1a 64 checksum of the two code arrays
//       80       White-to-move codes, then Black-to-move codes (value.h)
//
// The codes are stored raw (one byte each; a later version may compress).

#include <string>

#include "egdb/database.h"
#include "rules/result.h"

namespace draughts::egdb {

inline constexpr int kFormatVersion = 1;

std::string SliceFileName(const Signature& signature);
std::string FamilyDirectory(const std::string& directory, const rules::Variant& variant);

// Writes `slice` of `variant`'s family under directory/<family>/.
rules::Result<std::string> WriteSlice(const std::string& directory, const rules::Variant& variant,
                                      const Slice& slice);
// Reads and checks one slice file.
rules::Result<Slice> ReadSlice(const std::string& path, const rules::Variant& variant);

}  // namespace draughts::egdb
