#include "gateway/proto_json_printer.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/stubs/strutil.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"

namespace draughts::gateway {
namespace {

namespace pb = google::protobuf;

// The library refuses nesting past 64 levels; well before that, leave it
// to the library so its answer (an error) is the one given.
constexpr int kMaxDepth = 32;

constexpr std::string_view kTimestampName = "google.protobuf.Timestamp";
constexpr std::string_view kDurationName = "google.protobuf.Duration";
constexpr std::string_view kWellKnownPrefix = "google.protobuf.";

// Timestamp: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z; Duration: about
// +-10,000 years. Outside, the library fails the whole message.
constexpr int64_t kMinTimestampSeconds = -62135596800;
constexpr int64_t kMaxTimestampSeconds = 253402300799;
constexpr int64_t kMaxDurationSeconds = 315576000000;
constexpr int32_t kNanosPerSecond = 1000000000;

enum class ValueKind {
  kInt32,
  kUint32,
  kInt64,  // int64 kinds are quoted
  kUint64,
  kDouble,
  kFloat,
  kBool,
  kEnum,
  kString,
  kBytes,
  kMessage,
  kTimestamp,
  kDuration,
};

// Names of an enum's values by number, the first declared for aliases.
struct EnumNames {
  int min_number = 0;
  std::vector<const std::string*> by_offset;  // null: no value has that number
  const pb::EnumDescriptor* descriptor = nullptr;

  const std::string* Find(int number) const {
    const int64_t offset = int64_t{number} - min_number;
    if (offset >= 0 && offset < static_cast<int64_t>(by_offset.size())) {
      return by_offset[static_cast<size_t>(offset)];
    }
    if (!by_offset.empty()) return nullptr;  // the table covers every value
    const pb::EnumValueDescriptor* value = descriptor->FindValueByNumber(number);
    return value == nullptr ? nullptr : &value->name();
  }
};

struct MessagePlan;

struct FieldPlan {
  const pb::FieldDescriptor* field = nullptr;
  std::string key;  // "jsonName": with its quotes and colon
  ValueKind kind = ValueKind::kInt32;
  const MessagePlan* message = nullptr;   // kMessage
  const EnumNames* enum_names = nullptr;  // kEnum
};

struct MessagePlan {
  bool printable = true;
  // Declaration order: repeated fields always, singular messages when set,
  // scalars outside any oneof always.
  std::vector<FieldPlan> leading;
  // Field-number order, each only when present: scalars of a oneof (proto3
  // `optional` included), Timestamp and Duration fields.
  std::vector<FieldPlan> trailing;
};

// ---- Strings as protobuf's JsonEscaping writes them ----

constexpr char kHexDigits[] = "0123456789abcdef";

void AppendHex4(uint32_t unit, std::string* out) {
  char buffer[6] = {'\\',
                    'u',
                    kHexDigits[(unit >> 12) & 0xf],
                    kHexDigits[(unit >> 8) & 0xf],
                    kHexDigits[(unit >> 4) & 0xf],
                    kHexDigits[unit & 0xf]};
  out->append(buffer, sizeof buffer);
}

// Appends the escape of `code_point` and returns true, or returns false when
// it is printed as itself.
bool AppendEscapedCodePoint(uint32_t code_point, std::string* out) {
  if (code_point < 0xa0) {
    switch (code_point) {
      case '"':
        out->append("\\\"");
        return true;
      case '\\':
        out->append("\\\\");
        return true;
      case '\b':
        out->append("\\b");
        return true;
      case '\t':
        out->append("\\t");
        return true;
      case '\n':
        out->append("\\n");
        return true;
      case '\f':
        out->append("\\f");
        return true;
      case '\r':
        out->append("\\r");
        return true;
      case '<':
      case '>':
        AppendHex4(code_point, out);  // kept out of HTML
        return true;
      default:
        if (code_point < 0x20 || code_point >= 0x7f) {  // C0, DEL and C1 controls
          AppendHex4(code_point, out);
          return true;
        }
        return false;
    }
  }
  // Invisible or direction-changing characters that JavaScript or HTML could
  // be tricked with.
  const bool invisible_bmp = code_point == 0x00ad || code_point == 0x06dd || code_point == 0x070f ||
                             code_point == 0x17b4 || code_point == 0x17b5 || code_point == 0xfeff ||
                             (code_point >= 0xfff9 && code_point <= 0xfffb) ||
                             (code_point >= 0x0600 && code_point <= 0x0603) ||
                             (code_point >= 0x200b && code_point <= 0x200f) ||
                             (code_point >= 0x2028 && code_point <= 0x202e) ||
                             (code_point >= 0x2060 && code_point <= 0x2064) ||
                             (code_point >= 0x206a && code_point <= 0x206f);
  if (invisible_bmp) {
    AppendHex4(code_point, out);
    return true;
  }
  const bool invisible_astral = code_point == 0xe0001 ||
                                (code_point >= 0x1d173 && code_point <= 0x1d17a) ||
                                (code_point >= 0xe0020 && code_point <= 0xe007f);
  if (invisible_astral) {
    const uint32_t above = code_point - 0x10000;
    AppendHex4(0xd800 + (above >> 10), out);
    AppendHex4(0xdc00 + (above & 0x3ff), out);
    return true;
  }
  return false;
}

bool IsPlainAscii(unsigned char byte) {
  return byte >= 0x20 && byte < 0x7f && byte != '"' && byte != '\\' && byte != '<' && byte != '>';
}

// The quoted, escaped `text`; false on bytes the library's UTF-8 reader
// refuses (it then drops them, a case left to it). Like that reader, it
// takes overlong forms as the code point they spell.
bool AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  size_t plain_from = 0;
  size_t at = 0;
  while (at < text.size()) {
    const auto lead = static_cast<unsigned char>(text[at]);
    if (IsPlainAscii(lead)) {
      ++at;
      continue;
    }
    out->append(text.data() + plain_from, at - plain_from);
    uint32_t code_point = lead;
    size_t length = 1;
    if (lead >= 0x80) {
      if (lead < 0xc0 || lead >= 0xf8) return false;
      length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
      code_point = lead & (lead < 0xe0 ? 0x1fu : lead < 0xf0 ? 0x0fu : 0x07u);
      if (text.size() - at < length) return false;
      for (size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[at + k]);
        if (next < 0x80 || next > 0xbf) return false;
        code_point = (code_point << 6) | (next & 0x3fu);
      }
      if ((code_point >= 0xd800 && code_point <= 0xdfff) || code_point > 0x10ffff) return false;
    }
    if (!AppendEscapedCodePoint(code_point, out)) out->append(text.data() + at, length);
    at += length;
    plain_from = at;
  }
  out->append(text.data() + plain_from, text.size() - plain_from);
  out->push_back('"');
  return true;
}

// ---- Plans, built once per message type ----

bool IsPlainJsonName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool plain =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!plain) return false;
  }
  return true;
}

class PlanRegistry {
 public:
  const MessagePlan* Find(const pb::Descriptor* descriptor) ABSL_LOCKS_EXCLUDED(mutex_) {
    {
      absl::ReaderMutexLock lock(&mutex_);
      const auto found = plans_.find(descriptor);
      if (found != plans_.end()) return found->second.get();
    }
    absl::MutexLock lock(&mutex_);
    return BuildLocked(descriptor);
  }

 private:
  MessagePlan* BuildLocked(const pb::Descriptor* descriptor) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    auto [slot, inserted] = plans_.try_emplace(descriptor);
    if (!inserted) return slot->second.get();
    // In the map before its fields, so a type that contains itself finds it.
    slot->second = std::make_unique<MessagePlan>();
    MessagePlan* plan = slot->second.get();
    if (descriptor->file()->syntax() != pb::FileDescriptor::SYNTAX_PROTO3 ||
        descriptor->full_name().starts_with(kWellKnownPrefix)) {
      plan->printable = false;
      return plan;
    }
    for (int i = 0; i < descriptor->field_count(); ++i) {
      const pb::FieldDescriptor* field = descriptor->field(i);
      if (field->is_map() || !IsPlainJsonName(field->json_name())) {
        plan->printable = false;
        return plan;
      }
      FieldPlan field_plan;
      field_plan.field = field;
      field_plan.key = absl::StrCat("\"", field->json_name(), "\":");
      if (!KindOf(field, &field_plan)) {
        plan->printable = false;
        return plan;
      }
      const bool scalar = field_plan.kind != ValueKind::kMessage &&
                          field_plan.kind != ValueKind::kTimestamp &&
                          field_plan.kind != ValueKind::kDuration;
      const bool is_time =
          field_plan.kind == ValueKind::kTimestamp || field_plan.kind == ValueKind::kDuration;
      const bool appended =
          !field->is_repeated() && ((scalar && field->containing_oneof() != nullptr) || is_time);
      (appended ? plan->trailing : plan->leading).push_back(std::move(field_plan));
    }
    std::sort(plan->trailing.begin(), plan->trailing.end(),
              [](const FieldPlan& a, const FieldPlan& b) {
                return a.field->number() < b.field->number();
              });
    return plan;
  }

  bool KindOf(const pb::FieldDescriptor* field, FieldPlan* plan)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    switch (field->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        plan->kind = ValueKind::kInt32;
        return true;
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        plan->kind = ValueKind::kUint32;
        return true;
      case pb::FieldDescriptor::CPPTYPE_INT64:
        plan->kind = ValueKind::kInt64;
        return true;
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        plan->kind = ValueKind::kUint64;
        return true;
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        plan->kind = ValueKind::kDouble;
        return true;
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        plan->kind = ValueKind::kFloat;
        return true;
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        plan->kind = ValueKind::kBool;
        return true;
      case pb::FieldDescriptor::CPPTYPE_STRING:
        plan->kind = field->type() == pb::FieldDescriptor::TYPE_BYTES ? ValueKind::kBytes
                                                                      : ValueKind::kString;
        return true;
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        // google.protobuf.NullValue prints as null.
        if (field->enum_type()->full_name().starts_with(kWellKnownPrefix)) return false;
        plan->kind = ValueKind::kEnum;
        plan->enum_names = EnumNamesLocked(field->enum_type());
        return true;
      case pb::FieldDescriptor::CPPTYPE_MESSAGE: {
        if (field->type() != pb::FieldDescriptor::TYPE_MESSAGE) return false;  // a group
        const std::string& name = field->message_type()->full_name();
        if (name == kTimestampName) {
          plan->kind = ValueKind::kTimestamp;
        } else if (name == kDurationName) {
          plan->kind = ValueKind::kDuration;
        } else if (name.starts_with(kWellKnownPrefix)) {
          return false;  // Any, Struct, wrappers, FieldMask...: the library's forms
        } else {
          plan->kind = ValueKind::kMessage;
          plan->message = BuildLocked(field->message_type());
        }
        return true;
      }
    }
    return false;
  }

  const EnumNames* EnumNamesLocked(const pb::EnumDescriptor* descriptor)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    auto [slot, inserted] = enums_.try_emplace(descriptor);
    if (!inserted) return slot->second.get();
    slot->second = std::make_unique<EnumNames>();
    EnumNames* names = slot->second.get();
    names->descriptor = descriptor;
    if (descriptor->value_count() == 0) return names;
    int min = descriptor->value(0)->number();
    int max = min;
    for (int i = 1; i < descriptor->value_count(); ++i) {
      min = std::min(min, descriptor->value(i)->number());
      max = std::max(max, descriptor->value(i)->number());
    }
    constexpr int64_t kMaxTable = 1024;  // sparse enums look values up instead
    if (int64_t{max} - min >= kMaxTable) return names;
    names->min_number = min;
    names->by_offset.assign(static_cast<size_t>(max - min + 1), nullptr);
    for (int i = 0; i < descriptor->value_count(); ++i) {
      const pb::EnumValueDescriptor* value = descriptor->value(i);
      const std::string*& slot_name = names->by_offset[static_cast<size_t>(value->number() - min)];
      if (slot_name == nullptr) slot_name = &value->name();
    }
    return names;
  }

  absl::Mutex mutex_;
  absl::flat_hash_map<const pb::Descriptor*, std::unique_ptr<MessagePlan>> plans_
      ABSL_GUARDED_BY(mutex_);
  absl::flat_hash_map<const pb::EnumDescriptor*, std::unique_ptr<EnumNames>> enums_
      ABSL_GUARDED_BY(mutex_);
};

PlanRegistry& Plans() {
  static PlanRegistry* const registry = new PlanRegistry();  // never destroyed
  return *registry;
}

// ---- Values ----

// `value` in exactly `width` decimal digits (it fits).
void AppendDigits(int64_t value, int width, std::string* out) {
  char buffer[20];
  for (int i = width - 1; i >= 0; --i) {
    buffer[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out->append(buffer, static_cast<size_t>(width));
}

// Milli-, micro- or nanoseconds, whichever is exact; nothing for zero.
void AppendNanos(int32_t nanos, std::string* out) {
  if (nanos == 0) return;
  out->push_back('.');
  if (nanos % 1000000 == 0) {
    AppendDigits(nanos / 1000000, 3, out);
  } else if (nanos % 1000 == 0) {
    AppendDigits(nanos / 1000, 6, out);
  } else {
    AppendDigits(nanos, 9, out);
  }
}

// Year, month, day of a count of days since 1970-01-01 (proleptic
// Gregorian calendar).
void CivilFromDays(int64_t days, int64_t* year, int* month, int* day) {
  days += 719468;  // from 0000-03-01
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;  // March is 0
  *day = static_cast<int>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  *month = static_cast<int>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  *year = year_of_era + era * 400 + (*month <= 2 ? 1 : 0);
}

bool AppendTimestamp(const pb::Message& timestamp, std::string* out) {
  const pb::Descriptor* descriptor = timestamp.GetDescriptor();
  const pb::Reflection* reflection = timestamp.GetReflection();
  const int64_t seconds = reflection->GetInt64(timestamp, descriptor->field(0));
  const int32_t nanos = reflection->GetInt32(timestamp, descriptor->field(1));
  if (seconds < kMinTimestampSeconds || seconds > kMaxTimestampSeconds || nanos < 0 ||
      nanos >= kNanosPerSecond) {
    return false;
  }
  const int64_t days = (seconds >= 0 ? seconds : seconds - 86399) / 86400;
  const int64_t second_of_day = seconds - days * 86400;
  int64_t year = 0;
  int month = 0;
  int day = 0;
  CivilFromDays(days, &year, &month, &day);
  out->push_back('"');
  AppendDigits(year, 4, out);
  out->push_back('-');
  AppendDigits(month, 2, out);
  out->push_back('-');
  AppendDigits(day, 2, out);
  out->push_back('T');
  AppendDigits(second_of_day / 3600, 2, out);
  out->push_back(':');
  AppendDigits(second_of_day / 60 % 60, 2, out);
  out->push_back(':');
  AppendDigits(second_of_day % 60, 2, out);
  AppendNanos(nanos, out);
  out->append("Z\"");
  return true;
}

bool AppendDuration(const pb::Message& duration, std::string* out) {
  const pb::Descriptor* descriptor = duration.GetDescriptor();
  const pb::Reflection* reflection = duration.GetReflection();
  const int64_t seconds = reflection->GetInt64(duration, descriptor->field(0));
  const int32_t nanos = reflection->GetInt32(duration, descriptor->field(1));
  if (seconds < -kMaxDurationSeconds || seconds > kMaxDurationSeconds ||
      nanos <= -kNanosPerSecond || nanos >= kNanosPerSecond || (seconds > 0 && nanos < 0) ||
      (seconds < 0 && nanos > 0)) {
    return false;  // the library refuses these (or signs them its own way)
  }
  const bool negative = seconds < 0 || nanos < 0;
  out->append(negative ? "\"-" : "\"");
  absl::StrAppend(out, negative ? -seconds : seconds);
  AppendNanos(negative ? -nanos : nanos, out);
  out->append("s\"");
  return true;
}

void AppendDouble(double value, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
  } else if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else {
    out->append(pb::SimpleDtoa(value));
  }
}

void AppendFloat(float value, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
  } else if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else {
    out->append(pb::SimpleFtoa(value));
  }
}

void AppendEnum(const EnumNames& names, int number, std::string* out) {
  const std::string* name = names.Find(number);
  if (name == nullptr) {
    absl::StrAppend(out, number);  // a value this build does not know
    return;
  }
  out->push_back('"');
  out->append(*name);
  out->push_back('"');
}

void AppendBytes(const std::string& bytes, std::string* out) {
  std::string base64;
  pb::Base64Escape(bytes, &base64);
  out->push_back('"');
  out->append(base64);
  out->push_back('"');
}

class Printer {
 public:
  explicit Printer(std::string* out) : out_(out) {}

  bool PrintMessage(const pb::Message& message, const MessagePlan& plan, int depth) {
    if (!plan.printable || depth > kMaxDepth) return false;
    const pb::Reflection* reflection = message.GetReflection();
    out_->push_back('{');
    bool first = true;
    const auto start_field = [&](const FieldPlan& field) {
      if (!first) out_->push_back(',');
      first = false;
      out_->append(field.key);
    };
    for (const FieldPlan& field : plan.leading) {
      if (field.field->is_repeated()) {
        start_field(field);
        out_->push_back('[');
        const int size = reflection->FieldSize(message, field.field);
        for (int i = 0; i < size; ++i) {
          if (i > 0) out_->push_back(',');
          if (!PrintElement(message, *reflection, field, i, depth)) return false;
        }
        out_->push_back(']');
      } else if (field.kind == ValueKind::kMessage) {
        if (!reflection->HasField(message, field.field)) continue;
        start_field(field);
        if (!PrintMessage(reflection->GetMessage(message, field.field), *field.message,
                          depth + 1)) {
          return false;
        }
      } else {
        start_field(field);
        if (!PrintSingular(message, *reflection, field)) return false;
      }
    }
    for (const FieldPlan& field : plan.trailing) {
      if (!reflection->HasField(message, field.field)) continue;
      start_field(field);
      if (!PrintSingular(message, *reflection, field)) return false;
    }
    out_->push_back('}');
    return true;
  }

 private:
  bool PrintSingular(const pb::Message& message, const pb::Reflection& reflection,
                     const FieldPlan& plan) {
    const pb::FieldDescriptor* field = plan.field;
    switch (plan.kind) {
      case ValueKind::kInt32:
        absl::StrAppend(out_, reflection.GetInt32(message, field));
        return true;
      case ValueKind::kUint32:
        absl::StrAppend(out_, reflection.GetUInt32(message, field));
        return true;
      case ValueKind::kInt64:
        absl::StrAppend(out_, "\"", reflection.GetInt64(message, field), "\"");
        return true;
      case ValueKind::kUint64:
        absl::StrAppend(out_, "\"", reflection.GetUInt64(message, field), "\"");
        return true;
      case ValueKind::kDouble:
        AppendDouble(reflection.GetDouble(message, field), out_);
        return true;
      case ValueKind::kFloat:
        AppendFloat(reflection.GetFloat(message, field), out_);
        return true;
      case ValueKind::kBool:
        out_->append(reflection.GetBool(message, field) ? "true" : "false");
        return true;
      case ValueKind::kEnum:
        AppendEnum(*plan.enum_names, reflection.GetEnumValue(message, field), out_);
        return true;
      case ValueKind::kString:
        return AppendJsonString(reflection.GetStringReference(message, field, &scratch_), out_);
      case ValueKind::kBytes:
        AppendBytes(reflection.GetStringReference(message, field, &scratch_), out_);
        return true;
      case ValueKind::kTimestamp:
        return AppendTimestamp(reflection.GetMessage(message, field), out_);
      case ValueKind::kDuration:
        return AppendDuration(reflection.GetMessage(message, field), out_);
      case ValueKind::kMessage:
        break;  // not a singular scalar
    }
    return false;
  }

  bool PrintElement(const pb::Message& message, const pb::Reflection& reflection,
                    const FieldPlan& plan, int index, int depth) {
    const pb::FieldDescriptor* field = plan.field;
    switch (plan.kind) {
      case ValueKind::kInt32:
        absl::StrAppend(out_, reflection.GetRepeatedInt32(message, field, index));
        return true;
      case ValueKind::kUint32:
        absl::StrAppend(out_, reflection.GetRepeatedUInt32(message, field, index));
        return true;
      case ValueKind::kInt64:
        absl::StrAppend(out_, "\"", reflection.GetRepeatedInt64(message, field, index), "\"");
        return true;
      case ValueKind::kUint64:
        absl::StrAppend(out_, "\"", reflection.GetRepeatedUInt64(message, field, index), "\"");
        return true;
      case ValueKind::kDouble:
        AppendDouble(reflection.GetRepeatedDouble(message, field, index), out_);
        return true;
      case ValueKind::kFloat:
        AppendFloat(reflection.GetRepeatedFloat(message, field, index), out_);
        return true;
      case ValueKind::kBool:
        out_->append(reflection.GetRepeatedBool(message, field, index) ? "true" : "false");
        return true;
      case ValueKind::kEnum:
        AppendEnum(*plan.enum_names, reflection.GetRepeatedEnumValue(message, field, index), out_);
        return true;
      case ValueKind::kString:
        return AppendJsonString(
            reflection.GetRepeatedStringReference(message, field, index, &scratch_), out_);
      case ValueKind::kBytes:
        AppendBytes(reflection.GetRepeatedStringReference(message, field, index, &scratch_), out_);
        return true;
      case ValueKind::kTimestamp:
        return AppendTimestamp(reflection.GetRepeatedMessage(message, field, index), out_);
      case ValueKind::kDuration:
        return AppendDuration(reflection.GetRepeatedMessage(message, field, index), out_);
      case ValueKind::kMessage:
        return PrintMessage(reflection.GetRepeatedMessage(message, field, index), *plan.message,
                            depth + 1);
    }
    return false;
  }

  std::string* out_;
  std::string scratch_;  // for strings reflection cannot hand out by reference
};

}  // namespace

bool PrintJsonFast(const google::protobuf::Message& message, std::string* out) {
  const MessagePlan* plan = Plans().Find(message.GetDescriptor());
  Printer printer(out);
  return printer.PrintMessage(message, *plan, 0);
}

}  // namespace draughts::gateway
