#pragma once

// Loads a FileDescriptorSet written by protoc (--include_imports
// --include_source_info) into a pool of its own, so tests can read the
// contracts with their comments, which generated code does not keep.

#include <google/protobuf/descriptor.h>

#include <memory>
#include <string>
#include <vector>

namespace draughts::proto_test {

class ContractSet {
 public:
  // Every file of the set is built into the pool; `files()` are those whose
  // name starts with `prefix` (e.g. "draughts/"), in the set's order. On
  // failure returns null and says why in `error`.
  static std::unique_ptr<ContractSet> Load(const std::string& path, const std::string& prefix,
                                           std::string* error);

  const google::protobuf::DescriptorPool& pool() const { return pool_; }
  const std::vector<const google::protobuf::FileDescriptor*>& files() const { return files_; }

 private:
  ContractSet() = default;

  google::protobuf::DescriptorPool pool_;
  std::vector<const google::protobuf::FileDescriptor*> files_;
};

// The set at `path` with files named `prefix`*, loaded once for the whole
// test binary. A set that cannot be loaded ends the binary with the reason:
// an empty set would let every check pass vacuously.
const ContractSet& CachedContractSet(const std::string& path, const std::string& prefix);

}  // namespace draughts::proto_test
