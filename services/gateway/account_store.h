// Accounts as the gateway stores them (PostgreSQL, pg_account_store.h). The
// password hash goes from here to PasswordHasher::Verify and nowhere else:
// no response, log line or metric carries it.
#ifndef DRAUGHTS_GATEWAY_ACCOUNT_STORE_H_
#define DRAUGHTS_GATEWAY_ACCOUNT_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace draughts::gateway {

struct Account {
  int64_t id = 0;         // the database's; internal, never sent to clients
  std::string public_id;  // what games show (Seat.player_id)
  std::string name;       // as registered (case kept)
};

struct StoredCredentials {
  Account account;
  std::string password_hash;  // Argon2id, encoded
};

class AccountStore {
 public:
  virtual ~AccountStore() = default;
  // A new account; ALREADY_EXISTS when the name (ignoring case) is taken or
  // the public id already has an account.
  virtual absl::StatusOr<Account> Create(std::string_view name, std::string_view password_hash,
                                         std::string_view public_id) = 0;
  // The live account named `name` ignoring case, or nullopt.
  virtual absl::StatusOr<std::optional<StoredCredentials>> FindByName(std::string_view name) = 0;
  // The live account with this id, or nullopt (deleted or unknown).
  virtual absl::StatusOr<std::optional<StoredCredentials>> FindById(int64_t id) = 0;
  // Replaces the hash if it is still `expected_hash` (so a rehash at login
  // never undoes a password change that won the race); whether it did.
  virtual absl::StatusOr<bool> ReplacePasswordHash(int64_t id, std::string_view expected_hash,
                                                   std::string_view new_hash) = 0;
  // Clears the name and the hash (the row and public id stay); whether a
  // live account was deleted.
  virtual absl::StatusOr<bool> Delete(int64_t id) = 0;
  // OK when the database answers.
  virtual absl::Status Ping() = 0;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_ACCOUNT_STORE_H_
