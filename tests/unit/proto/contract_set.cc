#include "contract_set.h"

#include <google/protobuf/descriptor.pb.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

namespace draughts::proto_test {

std::unique_ptr<ContractSet> ContractSet::Load(const std::string& path, const std::string& prefix,
                                               std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open descriptor set " + path;
    return nullptr;
  }
  std::stringstream bytes;
  bytes << in.rdbuf();
  google::protobuf::FileDescriptorSet set;
  if (!set.ParseFromString(bytes.str())) {
    *error = "not a FileDescriptorSet: " + path;
    return nullptr;
  }
  std::unique_ptr<ContractSet> contracts(new ContractSet());
  // protoc writes imports before their importers, so each file builds.
  for (const auto& file_proto : set.file()) {
    const auto* file = contracts->pool_.BuildFile(file_proto);
    if (file == nullptr) {
      *error = "cannot build " + file_proto.name() + " from " + path;
      return nullptr;
    }
    if (file->name().rfind(prefix, 0) == 0) contracts->files_.push_back(file);
  }
  if (contracts->files_.empty()) {
    *error = "no file named " + prefix + "* in " + path;
    return nullptr;
  }
  return contracts;
}

const ContractSet& CachedContractSet(const std::string& path, const std::string& prefix) {
  static std::mutex mutex;
  static auto* cache = new std::map<std::pair<std::string, std::string>, const ContractSet*>();
  std::lock_guard<std::mutex> lock(mutex);
  auto& entry = (*cache)[{path, prefix}];
  if (entry == nullptr) {
    std::string error;
    auto loaded = ContractSet::Load(path, prefix, &error);
    if (loaded == nullptr) {
      std::cerr << "FATAL: " << error << "\n";
      std::exit(EXIT_FAILURE);
    }
    entry = loaded.release();
  }
  return *entry;
}

}  // namespace draughts::proto_test
