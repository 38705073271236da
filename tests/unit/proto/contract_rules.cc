#include "contract_rules.h"

#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <sstream>
#include <string_view>

namespace draughts::proto_test {
namespace {

namespace pb = google::protobuf;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "GameResult" -> "GAME_RESULT", "HTTPServer" -> "HTTP_SERVER".
std::string UpperSnake(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool upper = std::isupper(static_cast<unsigned char>(c));
    if (upper && i > 0) {
      const char prev = name[i - 1];
      const bool next_lower =
          i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1]));
      if (std::islower(static_cast<unsigned char>(prev)) ||
          std::isdigit(static_cast<unsigned char>(prev)) ||
          (std::isupper(static_cast<unsigned char>(prev)) && next_lower)) {
        out += '_';
      }
    }
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

void ForEachMessage(const pb::Descriptor* message,
                    const std::function<void(const pb::Descriptor*)>& visit) {
  visit(message);
  for (int i = 0; i < message->nested_type_count(); ++i) {
    // Map entries are generated, not written.
    if (!message->nested_type(i)->options().map_entry()) {
      ForEachMessage(message->nested_type(i), visit);
    }
  }
}

void ForEachMessage(const Files& files, const std::function<void(const pb::Descriptor*)>& visit) {
  for (const auto* file : files) {
    for (int i = 0; i < file->message_type_count(); ++i)
      ForEachMessage(file->message_type(i), visit);
  }
}

void ForEachEnum(const Files& files, const std::function<void(const pb::EnumDescriptor*)>& visit) {
  for (const auto* file : files) {
    for (int i = 0; i < file->enum_type_count(); ++i) visit(file->enum_type(i));
  }
  ForEachMessage(files, [&](const pb::Descriptor* message) {
    for (int i = 0; i < message->enum_type_count(); ++i) visit(message->enum_type(i));
  });
}

void ForEachMethod(const Files& files,
                   const std::function<void(const pb::MethodDescriptor*)>& visit) {
  for (const auto* file : files) {
    for (int s = 0; s < file->service_count(); ++s) {
      const auto* service = file->service(s);
      for (int m = 0; m < service->method_count(); ++m) visit(service->method(m));
    }
  }
}

bool HasField(const pb::Descriptor* message, const std::string& name,
              pb::FieldDescriptor::Type type) {
  const auto* field = message->FindFieldByName(name);
  return field != nullptr && field->type() == type && !field->is_repeated();
}

bool IsReadOnly(const pb::MethodDescriptor* method) {
  return method->options().idempotency_level() == pb::MethodOptions::NO_SIDE_EFFECTS;
}

bool IsPaginated(const pb::MethodDescriptor* method) {
  const auto* in = method->input_type();
  return StartsWith(method->name(), "List") || in->FindFieldByName("page_size") != nullptr ||
         in->FindFieldByName("page_token") != nullptr ||
         method->output_type()->FindFieldByName("next_page_token") != nullptr;
}

std::string LeadingComment(const pb::MethodDescriptor* method) {
  pb::SourceLocation location;
  return method->GetSourceLocation(&location) ? location.leading_comments : "";
}

template <typename D>
bool HasComment(const D* descriptor) {
  pb::SourceLocation location;
  if (!descriptor->GetSourceLocation(&location)) return false;
  return location.leading_comments.find_first_not_of(" \n") != std::string::npos;
}

const std::set<std::string>& GrpcCodeNames() {
  static const std::set<std::string> names = {"OK",
                                              "CANCELLED",
                                              "UNKNOWN",
                                              "INVALID_ARGUMENT",
                                              "DEADLINE_EXCEEDED",
                                              "NOT_FOUND",
                                              "ALREADY_EXISTS",
                                              "PERMISSION_DENIED",
                                              "RESOURCE_EXHAUSTED",
                                              "FAILED_PRECONDITION",
                                              "ABORTED",
                                              "OUT_OF_RANGE",
                                              "UNIMPLEMENTED",
                                              "INTERNAL",
                                              "UNAVAILABLE",
                                              "DATA_LOSS",
                                              "UNAUTHENTICATED"};
  return names;
}

// The word of a line "  CODE: when", or "" if the line is not of that form
// (a continuation line, prose).
std::string CodeWordOf(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || !std::isupper(static_cast<unsigned char>(line[i]))) return "";
  const size_t start = i;
  while (i < line.size() && (std::isupper(static_cast<unsigned char>(line[i])) || line[i] == '_')) {
    ++i;
  }
  if (i - start < 2 || i >= line.size() || line[i] != ':') return "";
  return line.substr(start, i - start);
}

// Splits the lines "CODE: when" of a comment's "Errors:" section into gRPC
// codes and other words; false if the comment has no such section.
bool ParseErrorSection(const std::string& comment, std::vector<std::string>* codes,
                       std::vector<std::string>* unknown) {
  const std::string kHeading = "Errors:";
  const auto start = comment.find(kHeading);
  if (start == std::string::npos) return false;
  std::istringstream lines(comment.substr(start + kHeading.size()));
  std::string line;
  while (std::getline(lines, line)) {
    const std::string word = CodeWordOf(line);
    if (word.empty()) continue;
    if (GrpcCodeNames().count(word)) {
      codes->push_back(word);
    } else {
      unknown->push_back(word);
    }
  }
  return true;
}

bool IsTimestamp(const pb::FieldDescriptor* field) {
  return field->type() == pb::FieldDescriptor::TYPE_MESSAGE &&
         field->message_type()->full_name() == "google.protobuf.Timestamp";
}

bool IsDuration(const pb::FieldDescriptor* field) {
  return field->type() == pb::FieldDescriptor::TYPE_MESSAGE &&
         field->message_type()->full_name() == "google.protobuf.Duration";
}

bool NamedAsInstant(const std::string& name) {
  return EndsWith(name, "_at") || EndsWith(name, "deadline");
}

}  // namespace

const RetrySafeByNature& DraughtsRetrySafeByNature() {
  static const RetrySafeByNature by_nature = {
      {"draughts.v1.ClockService.Heartbeat",
       "only refreshes the last-seen time of one connection; a repeat changes nothing"},
      {"draughts.v1.RatingService.RecordResult",
       "keyed by record.game_id: a game is applied at most once"},
  };
  return by_nature;
}

std::vector<std::string> CheckFileLayout(const Files& files) {
  std::vector<std::string> violations;
  for (const auto* file : files) {
    if (file->package() != "draughts.v1") {
      violations.push_back(file->name() + ": package is '" + file->package() +
                           "', not draughts.v1");
    }
    if (file->syntax() != pb::FileDescriptor::SYNTAX_PROTO3) {
      violations.push_back(file->name() + ": not proto3");
    }
    if (!StartsWith(file->name(), "draughts/v1/")) {
      violations.push_back(file->name() + ": not under draughts/v1/");
    }
  }
  return violations;
}

std::vector<std::string> CheckEnumValues(const Files& files) {
  std::vector<std::string> violations;
  ForEachEnum(files, [&](const pb::EnumDescriptor* e) {
    const std::string prefix = UpperSnake(e->name()) + "_";
    const auto* zero = e->FindValueByNumber(0);
    if (zero == nullptr || zero->name() != prefix + "UNSPECIFIED") {
      violations.push_back(e->full_name() + ": value 0 must be " + prefix + "UNSPECIFIED");
    }
    for (int i = 0; i < e->value_count(); ++i) {
      if (!StartsWith(e->value(i)->name(), prefix)) {
        violations.push_back(e->full_name() + "." + e->value(i)->name() + ": lacks prefix " +
                             prefix);
      }
    }
  });
  return violations;
}

std::vector<std::string> CheckMethodNaming(const Files& files) {
  std::vector<std::string> violations;
  ForEachMethod(files, [&](const pb::MethodDescriptor* method) {
    if (method->input_type()->name() != method->name() + "Request") {
      violations.push_back(method->full_name() + ": takes " + method->input_type()->name() +
                           ", not " + method->name() + "Request");
    }
    if (!method->server_streaming() &&
        method->output_type()->name() != method->name() + "Response") {
      violations.push_back(method->full_name() + ": returns " + method->output_type()->name() +
                           ", not " + method->name() + "Response");
    }
  });
  return violations;
}

std::vector<std::string> CheckIdempotencyLevels(const Files& files) {
  std::vector<std::string> violations;
  ForEachMethod(files, [&](const pb::MethodDescriptor* method) {
    const auto& options = method->options();
    if (!options.has_idempotency_level() ||
        options.idempotency_level() == pb::MethodOptions::IDEMPOTENCY_UNKNOWN) {
      violations.push_back(method->full_name() +
                           ": declare idempotency_level (NO_SIDE_EFFECTS or IDEMPOTENT)");
      return;
    }
    for (const char* reader : {"Get", "List", "Watch"}) {
      if (StartsWith(method->name(), reader) && !IsReadOnly(method)) {
        violations.push_back(method->full_name() + ": a " + reader +
                             " call must be NO_SIDE_EFFECTS");
      }
    }
  });
  return violations;
}

std::vector<std::string> CheckPagination(const Files& files) {
  std::vector<std::string> violations;
  ForEachMethod(files, [&](const pb::MethodDescriptor* method) {
    if (!IsPaginated(method)) return;
    const auto* in = method->input_type();
    const auto* out = method->output_type();
    if (!HasField(in, "page_size", pb::FieldDescriptor::TYPE_INT32)) {
      violations.push_back(method->full_name() + ": request lacks int32 page_size");
    }
    if (!HasField(in, "page_token", pb::FieldDescriptor::TYPE_STRING)) {
      violations.push_back(method->full_name() + ": request lacks string page_token");
    }
    if (method->server_streaming()) {
      violations.push_back(method->full_name() + ": a paginated call cannot stream");
      return;
    }
    if (!HasField(out, "next_page_token", pb::FieldDescriptor::TYPE_STRING)) {
      violations.push_back(method->full_name() + ": response lacks string next_page_token");
    }
    bool has_items = false;
    for (int i = 0; i < out->field_count(); ++i) has_items |= out->field(i)->is_repeated();
    if (!has_items) {
      violations.push_back(method->full_name() + ": response has no repeated field of items");
    }
  });
  return violations;
}

std::vector<std::string> CheckRetrySafety(const Files& files, const RetrySafeByNature& by_nature) {
  std::vector<std::string> violations;
  std::set<std::string> state_changing;
  ForEachMethod(files, [&](const pb::MethodDescriptor* method) {
    if (IsReadOnly(method)) return;
    state_changing.insert(method->full_name());
    const auto* in = method->input_type();
    if (HasField(in, "expected_ply", pb::FieldDescriptor::TYPE_INT32) ||
        HasField(in, "idempotency_key", pb::FieldDescriptor::TYPE_STRING) ||
        by_nature.count(method->full_name())) {
      return;
    }
    violations.push_back(method->full_name() +
                         ": changes state but its request has neither int32 expected_ply nor "
                         "string idempotency_key");
  });
  for (const auto& [name, why] : by_nature) {
    if (!state_changing.count(name)) {
      violations.push_back(name + ": listed as retry-safe by nature (" + why +
                           ") but is not a state-changing call");
    }
  }
  return violations;
}

std::vector<std::string> CheckErrorDocs(const Files& files) {
  std::vector<std::string> violations;
  ForEachMethod(files, [&](const pb::MethodDescriptor* method) {
    std::vector<std::string> codes;
    std::vector<std::string> unknown;
    if (!ParseErrorSection(LeadingComment(method), &codes, &unknown)) {
      violations.push_back(method->full_name() + ": comment has no \"Errors:\" section");
      return;
    }
    if (codes.empty()) {
      violations.push_back(method->full_name() + ": \"Errors:\" lists no gRPC code");
    }
    for (const auto& word : unknown) {
      violations.push_back(method->full_name() + ": \"" + word + "\" is not a gRPC code");
    }
    auto documents = [&](const std::string& code) {
      return std::find(codes.begin(), codes.end(), code) != codes.end();
    };
    if (method->input_type()->FindFieldByName("player_token") != nullptr &&
        !documents("PERMISSION_DENIED")) {
      violations.push_back(method->full_name() +
                           ": takes player_token but does not document PERMISSION_DENIED");
    }
    if (IsPaginated(method) && !documents("INVALID_ARGUMENT")) {
      violations.push_back(method->full_name() +
                           ": paginated but does not document INVALID_ARGUMENT");
    }
  });
  return violations;
}

std::vector<std::string> CheckComments(const Files& files) {
  std::vector<std::string> violations;
  for (const auto* file : files) {
    for (int s = 0; s < file->service_count(); ++s) {
      const auto* service = file->service(s);
      if (!HasComment(service)) violations.push_back(service->full_name() + ": no comment");
      for (int m = 0; m < service->method_count(); ++m) {
        if (!HasComment(service->method(m))) {
          violations.push_back(service->method(m)->full_name() + ": no comment");
        }
      }
    }
  }
  ForEachEnum(files, [&](const pb::EnumDescriptor* e) {
    if (!HasComment(e)) violations.push_back(e->full_name() + ": no comment");
  });
  ForEachMessage(files, [&](const pb::Descriptor* message) {
    if (EndsWith(message->name(), "Request") || EndsWith(message->name(), "Response")) return;
    if (!HasComment(message)) violations.push_back(message->full_name() + ": no comment");
  });
  return violations;
}

std::vector<std::string> CheckTimeFields(const Files& files) {
  std::vector<std::string> violations;
  ForEachMessage(files, [&](const pb::Descriptor* message) {
    for (int i = 0; i < message->field_count(); ++i) {
      const auto* field = message->field(i);
      const std::string& name = field->name();
      if (NamedAsInstant(name) && !IsTimestamp(field)) {
        violations.push_back(field->full_name() + ": an instant must be google.protobuf.Timestamp");
      }
      if (IsTimestamp(field) && !NamedAsInstant(name) && !EndsWith(name, "_time") &&
          name != "timestamp") {
        violations.push_back(field->full_name() +
                             ": a Timestamp is named *_at, *deadline, *_time or timestamp");
      }
      if (EndsWith(name, "_ms") && field->cpp_type() != pb::FieldDescriptor::CPPTYPE_INT32 &&
          field->cpp_type() != pb::FieldDescriptor::CPPTYPE_INT64) {
        violations.push_back(field->full_name() + ": a *_ms field must be int32 or int64");
      }
      if (IsDuration(field)) {
        for (const char* unit : {"_ms", "_s", "_sec", "_seconds", "_minutes"}) {
          if (EndsWith(name, unit)) {
            violations.push_back(field->full_name() + ": a Duration carries its own unit, drop " +
                                 unit);
          }
        }
      }
    }
  });
  return violations;
}

}  // namespace draughts::proto_test
