#include "gateway/idempotency.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <sodium.h>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gateway/error_mapping.h"
#include "platform/absl_compat.h"
#include "platform/logging.h"

namespace draughts::gateway {
namespace {

constexpr std::size_t kMaxKeyLength = 64;

bool IsKeyChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' ||
         c == '-';
}

// A BLAKE2b digest (libsodium's generichash, no key) of the parts, each
// length-prefixed so two different lists never hash the same bytes.
std::string Digest(std::initializer_list<std::string_view> parts, std::size_t bytes) {
  crypto_generichash_state state;
  crypto_generichash_init(&state, nullptr, 0, bytes);
  for (std::string_view part : parts) {
    const std::string length = absl::StrCat(part.size(), ":");
    crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(length.data()),
                              length.size());
    crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(part.data()),
                              part.size());
  }
  std::string digest(bytes, '\0');
  crypto_generichash_final(&state, reinterpret_cast<unsigned char*>(digest.data()), bytes);
  return digest;
}

}  // namespace

absl::Status ValidateIdempotencyKey(std::string_view key) {
  if (key.empty() || key.size() > kMaxKeyLength) {
    return absl::InvalidArgumentError(absl::StrCat("the ", platform::ToAbsl(kIdempotencyKeyHeader),
                                                   " header must be 1-", kMaxKeyLength,
                                                   " characters long"));
  }
  for (char c : key) {
    if (!IsKeyChar(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the ", platform::ToAbsl(kIdempotencyKeyHeader),
                       " header may only hold letters, digits and _ . : -"));
    }
  }
  return absl::OkStatus();
}

std::string BackendIdempotencyKey(std::string_view operation, std::string_view player_id,
                                  std::string_view key) {
  std::string encoded;
  const std::string digest =
      Digest({"draughts.gateway.idempotency", operation, player_id, key}, 24);
  absl::WebSafeBase64Escape(digest, &encoded);  // 32 characters of [A-Za-z0-9_-]
  return absl::StrCat("gw1.", encoded);
}

std::string RequestFingerprint(std::string_view operation,
                               const google::protobuf::Message& request) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    request.SerializeToCodedStream(&out);
  }
  return absl::BytesToHexString(Digest({operation, bytes}, 32));
}

HttpResponse RespondOnce(IdempotencyStore& store, std::string_view player_id, std::string_view key,
                         std::string_view fingerprint,
                         absl::FunctionRef<HttpResponse()> operation) {
  auto replay = [](const RememberedResponse& remembered) {
    HttpResponse response;
    response.status = remembered.status;
    response.body = remembered.body;
    response.headers.emplace_back(std::string(kIdempotentReplayedHeader), "true");
    return response;
  };
  auto reused = [] {
    return ErrorResponse(absl::InvalidArgumentError(
        absl::StrCat("this ", platform::ToAbsl(kIdempotencyKeyHeader),
                     " was already used for a different request: use a new key for a new "
                     "request, the same key only for a retry of the same one")));
  };
  absl::StatusOr<std::optional<RememberedResponse>> found = store.Find(player_id, key);
  if (!found.ok()) return ErrorResponse(found.status());
  if (found->has_value()) {
    if ((*found)->fingerprint != fingerprint) return reused();
    return replay(**found);
  }
  HttpResponse response = operation();
  if (response.status < 200 || response.status > 299) return response;
  absl::StatusOr<RememberedResponse> kept =
      store.Remember(player_id, key, {std::string(fingerprint), response.status, response.body});
  if (!kept.ok()) {
    // The backend key still makes a retry safe; only the replay is lost.
    platform::LogWarn("idempotent answer not remembered", {{"status", kept.status()}});
    return response;
  }
  // A concurrent request with the same key was remembered first.
  if (kept->fingerprint != fingerprint) return reused();
  if (kept->body != response.body) return replay(*kept);
  return response;
}

}  // namespace draughts::gateway
