#include "platform/idempotency.h"

#include <sodium.h>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace draughts::platform {
namespace {

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == ':';
}

}  // namespace

absl::Status ValidateIdempotencyKey(std::string_view key) {
  if (key.empty()) return absl::InvalidArgumentError("idempotency_key is empty");
  if (key.size() > 64) {
    return absl::InvalidArgumentError("idempotency_key is longer than 64 characters");
  }
  for (char c : key) {
    if (!IsKeyChar(c)) {
      return absl::InvalidArgumentError(
          "idempotency_key may only contain letters, digits and _ . : -");
    }
  }
  return absl::OkStatus();
}

std::string RequestFingerprint(const google::protobuf::Message& request) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  {
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    request.SerializeToCodedStream(&out);
  }
  std::string digest(crypto_generichash_BYTES, '\0');
  crypto_generichash(reinterpret_cast<unsigned char*>(digest.data()), digest.size(),
                     reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), nullptr,
                     0);
  return digest;
}

}  // namespace draughts::platform
