#pragma once

// The rules library links only the standard library, so it carries its own
// small result type instead of absl::StatusOr. Services convert an Error into
// absl::InvalidArgumentError at their boundary.

#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace draughts::rules {

struct Error {
  static constexpr std::size_t kNoOffset = static_cast<std::size_t>(-1);

  std::string message;
  // Offset in the parsed text where the problem was found, when there is one.
  std::size_t offset = kNoOffset;

  std::string ToString() const {
    if (offset == kNoOffset) return message;
    return message + " (at offset " + std::to_string(offset) + ")";
  }
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

inline Error MakeError(std::string message, std::size_t offset = Error::kNoOffset) {
  return Error{std::move(message), offset};
}

}  // namespace draughts::rules
