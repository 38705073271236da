#pragma once

// An independent check of a solved slice: every sampled position is
// generated forward with the rules library's move generator and its stored
// value must follow from its successors' (a win has a successor lost for
// the opponent at one ply less, a loss only successors won for the
// opponent, the longest one ply less, a draw no lost successor and a drawn
// one). The solver works backwards with unmoves; this works forwards, so
// it catches a wrong unmove or a wrong count.

#include <cstdint>
#include <string>
#include <vector>

#include "egdb/database.h"
#include "rules/result.h"

namespace draughts::egdb {

struct VerifyReport {
  std::uint64_t checked = 0;
  std::vector<std::string> failures;  // FEN and what was wrong, the first few
  std::uint64_t failure_count = 0;
};

// Checks every `stride`-th index of both sides of the loaded slice.
rules::Result<VerifyReport> VerifySlice(const Database& db, Signature canonical,
                                        std::uint64_t stride = 1);

}  // namespace draughts::egdb
