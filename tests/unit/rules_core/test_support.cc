#include "test_support.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "rules/fen.h"

namespace draughts::rules::testing {

Variant GetVariant(std::string_view id) {
  auto v = FindVariant(id);
  if (!v.ok()) {
    ADD_FAILURE() << v.error().ToString();
    return AllVariants().front();
  }
  return *v;
}

Position FromFen(const Variant& variant, std::string_view fen) {
  auto setup = ParseFen(fen);
  if (!setup.ok()) {
    ADD_FAILURE() << "bad FEN " << fen << ": " << setup.error().ToString();
    return Position::Initial(variant);
  }
  auto position = Position::FromSetup(variant, *setup);
  if (!position.ok()) {
    ADD_FAILURE() << "bad position " << fen << ": " << position.error().ToString();
    return Position::Initial(variant);
  }
  return *position;
}

std::string PathText(const Move& move) {
  const char sep = move.is_capture() ? 'x' : '-';
  std::string text = std::to_string(move.from);
  for (std::uint8_t s : move.landing_squares()) text += sep + std::to_string(s);
  if (move.is_capture()) {
    text += " takes ";
    for (int i = 0; i < move.capture_count; ++i) {
      if (i > 0) text += ",";
      text += std::to_string(move.captured[i]);
    }
  }
  if (move.promotes) text += " =K";
  return text;
}

std::string SetText(const Move& move) {
  std::string text =
      std::to_string(move.from) + (move.is_capture() ? "x" : "-") + std::to_string(move.to);
  if (move.is_capture()) {
    std::vector<int> set(move.captured.begin(), move.captured.begin() + move.capture_count);
    std::sort(set.begin(), set.end());
    text += " takes {";
    for (std::size_t i = 0; i < set.size(); ++i) {
      if (i > 0) text += ",";
      text += std::to_string(set[i]);
    }
    text += "}";
  }
  if (move.promotes) text += " =K";
  return text;
}

std::string OrderText(const Move& move) {
  std::string text =
      std::to_string(move.from) + (move.is_capture() ? "x" : "-") + std::to_string(move.to);
  if (move.is_capture()) {
    text += " takes ";
    for (int i = 0; i < move.capture_count; ++i) {
      if (i > 0) text += ",";
      text += std::to_string(move.captured[i]);
    }
  }
  if (move.promotes) text += " =K";
  return text;
}

std::vector<std::string> Sorted(std::vector<std::string> texts) {
  std::sort(texts.begin(), texts.end());
  return texts;
}

std::vector<std::string> PathTexts(const MoveList& moves) {
  std::vector<std::string> texts;
  for (const Move& m : moves) texts.push_back(PathText(m));
  return Sorted(texts);
}

std::vector<std::string> SetTexts(const MoveList& moves) {
  std::vector<std::string> texts;
  for (const Move& m : moves) texts.push_back(SetText(m));
  return Sorted(texts);
}

std::vector<std::string> OrderTexts(const MoveList& moves) {
  std::vector<std::string> texts;
  for (const Move& m : moves) texts.push_back(OrderText(m));
  return Sorted(texts);
}

std::vector<std::string> IdentityTexts(const Variant& variant, const MoveList& moves) {
  switch (variant.capture_identity) {
    case CaptureIdentity::kPieceSet:
      return SetTexts(moves);
    case CaptureIdentity::kOrder:
      return OrderTexts(moves);
    case CaptureIdentity::kPath:
      break;
  }
  return PathTexts(moves);
}

}  // namespace draughts::rules::testing
