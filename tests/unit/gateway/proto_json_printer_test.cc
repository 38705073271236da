// The fast JSON printer against protobuf's own MessageToJsonString: every
// message type of the protos the gateway prints, filled at random through
// reflection, must print byte for byte the same; plus a test-only proto with
// every field kind, a few exact expectations, and the cases left to the
// library.
#include "gateway/proto_json_printer.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/duration.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/timestamp.pb.h>
#include <google/protobuf/type.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "draughts/v1/web_game.pb.h"
#include "draughts/v1/web_history.pb.h"
#include "draughts/v1/web_lobby.pb.h"
#include "draughts/v1/web_socket.pb.h"
#include "gateway/proto_json.h"

namespace draughts::gateway {
namespace {

namespace pb = google::protobuf;

// What the gateway printed before the fast printer: the library, "{}" when
// it fails.
std::string LibraryJson(const pb::Message& message, bool* ok = nullptr) {
  pb::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string out;
  const bool printed = pb::util::MessageToJsonString(message, &out, options).ok();
  if (ok != nullptr) *ok = printed;
  return printed ? out : "{}";
}

// ---- Random messages ----

class RandomFiller {
 public:
  explicit RandomFiller(uint64_t seed) : random_(seed) {}

  void Fill(pb::Message* message, int depth) {
    const pb::Descriptor* descriptor = message->GetDescriptor();
    const pb::Reflection* reflection = message->GetReflection();
    for (int i = 0; i < descriptor->oneof_decl_count(); ++i) {
      const pb::OneofDescriptor* oneof = descriptor->oneof_decl(i);
      if (oneof->is_synthetic() || Chance(0.2)) continue;
      const pb::FieldDescriptor* field = oneof->field(Below(oneof->field_count()));
      if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        FillMessageField(reflection->MutableMessage(message, field), field, depth);
      } else {
        SetScalar(message, field);
      }
    }
    for (int i = 0; i < descriptor->field_count(); ++i) {
      const pb::FieldDescriptor* field = descriptor->field(i);
      const pb::OneofDescriptor* oneof = field->containing_oneof();
      if (oneof != nullptr && !oneof->is_synthetic()) continue;  // done above
      const bool is_message = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
      if (field->is_repeated()) {
        const int count = is_message && depth >= 3 ? Below(2) : Below(4);
        for (int k = 0; k < count; ++k) {
          if (is_message) {
            FillMessageField(reflection->AddMessage(message, field), field, depth);
          } else {
            AddScalar(message, field);
          }
        }
      } else if (is_message) {
        if (depth < 4 && Chance(0.6)) {
          FillMessageField(reflection->MutableMessage(message, field), field, depth);
        }
      } else if (Chance(oneof != nullptr ? 0.5 : 0.7)) {  // proto3 optional: present or not
        SetScalar(message, field);
      }
    }
  }

 private:
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(random_) < p; }
  int Below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }
  template <typename T>
  T Pick(const std::vector<T>& choices) {
    return choices[static_cast<size_t>(Below(static_cast<int>(choices.size())))];
  }

  void FillMessageField(pb::Message* child, const pb::FieldDescriptor* field, int depth) {
    const std::string& name = field->message_type()->full_name();
    const pb::Reflection* reflection = child->GetReflection();
    const pb::Descriptor* descriptor = child->GetDescriptor();
    if (name == "google.protobuf.Timestamp") {
      const int64_t seconds =
          Chance(0.5) ? std::uniform_int_distribution<int64_t>(-62135596800, 253402300799)(random_)
                      : Pick<int64_t>({0, 1, -1, 1795000000, -86400, 253402300799, -62135596800});
      reflection->SetInt64(child, descriptor->field(0), seconds);
      reflection->SetInt32(child, descriptor->field(1), Nanos());
    } else if (name == "google.protobuf.Duration") {
      const int64_t seconds = Chance(0.5)
                                  ? std::uniform_int_distribution<int64_t>(0, 315576000000)(random_)
                                  : Pick<int64_t>({0, 1, 59, 120, 315576000000});
      const bool negative = Chance(0.3);
      reflection->SetInt64(child, descriptor->field(0), negative ? -seconds : seconds);
      reflection->SetInt32(child, descriptor->field(1), negative ? -Nanos() : Nanos());
    } else {
      Fill(child, depth + 1);
    }
  }

  int32_t Nanos() {
    switch (Below(4)) {
      case 0:
        return 0;
      case 1:
        return Below(1000) * 1000000;
      case 2:
        return Below(1000000) * 1000;
      default:
        return Below(1000000000);
    }
  }

  std::string Text() {
    static const std::vector<std::string> kPieces = {
        "",
        "plain",
        "q\"uote",
        "back\\slash",
        "/slash",
        std::string("nul\0byte", 8),
        "\x01\x08\x09\x0a\x0b\x0c\x0d\x1f",
        "\x7f",
        "<script>&amp;=</script>",
        "'single'",
        "caf\xc3\xa9",
        "\xc2\x80\xc2\x9f\xc2\xa0",              // C1 controls, then a no-break space
        "\xc2\xad",                              // soft hyphen
        "\xd8\x80\xdb\x9d\xdc\x8f",              // U+0600, U+06DD, U+070F
        "\xe1\x9e\xb4",                          // U+17B4
        "\xe2\x80\x8b\xe2\x80\x8f",              // U+200B, U+200F
        "\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xae",  // U+2028, U+2029, U+202E
        "\xe2\x81\xa0\xe2\x81\xaa",              // U+2060, U+206A
        "\xef\xbb\xbf\xef\xbf\xb9\xef\xbf\xbc",  // U+FEFF, U+FFF9, U+FFFC
        "\xe6\x97\xa5\xe6\x9c\xac",              // Japanese
        "\xf0\x9f\x98\x80",                      // an emoji
        "\xf3\xa0\x80\x81\xf3\xa0\x81\xbf",      // U+E0001, U+E007F
        "\xf0\x9d\x85\xb3\xf0\x9d\x85\xbb",      // U+1D173, U+1D17B
        "\xf4\x8f\xbf\xbf",                      // U+10FFFF
    };
    std::string text;
    const int count = Below(4);
    for (int i = 0; i < count; ++i) text += Pick(kPieces);
    return text;
  }

  std::string Bytes() {
    std::string bytes(static_cast<size_t>(Below(9)), '\0');
    for (char& c : bytes) c = static_cast<char>(Below(256));
    return bytes;
  }

  int32_t Int32() {
    return Chance(0.5) ? Pick<int32_t>({0, 1, -1, std::numeric_limits<int32_t>::min(),
                                        std::numeric_limits<int32_t>::max(), 40, 1000000})
                       : static_cast<int32_t>(random_());
  }
  int64_t Int64() {
    return Chance(0.5) ? Pick<int64_t>({0, 1, -1, std::numeric_limits<int64_t>::min(),
                                        std::numeric_limits<int64_t>::max(), 9007199254740993,
                                        -9007199254740993})
                       : static_cast<int64_t>(random_());
  }
  double Double() {
    const double inf = std::numeric_limits<double>::infinity();
    return Chance(0.6) ? Pick<double>({0.0, -0.0, 0.1, 3.0, -2.5, 1e300, -1e-300, 1.0 / 3, 5e-324,
                                       1e15, 1e16, 123456789.125, 0.30000000000000004, inf, -inf,
                                       std::numeric_limits<double>::quiet_NaN()})
                       : std::ldexp(std::uniform_real_distribution<double>(-1, 1)(random_),
                                    Below(200) - 100);
  }
  float Float() {
    const float inf = std::numeric_limits<float>::infinity();
    return Chance(0.6)
               ? Pick<float>({0.0f, -0.0f, 0.1f, 3.0f, 1e38f, -1e-38f, 1.0f / 3, 16777217.0f, inf,
                              -inf, std::numeric_limits<float>::quiet_NaN()})
               : std::ldexp(std::uniform_real_distribution<float>(-1, 1)(random_), Below(100) - 50);
  }
  int EnumNumber(const pb::EnumDescriptor* type) {
    if (Chance(0.1)) return Pick<int>({99, -7, 12345});  // unknown to this build
    return type->value(Below(type->value_count()))->number();
  }

  void SetScalar(pb::Message* message, const pb::FieldDescriptor* field) {
    const pb::Reflection* r = message->GetReflection();
    switch (field->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        return r->SetInt32(message, field, Int32());
      case pb::FieldDescriptor::CPPTYPE_INT64:
        return r->SetInt64(message, field, Int64());
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        return r->SetUInt32(message, field, static_cast<uint32_t>(Int32()));
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        return r->SetUInt64(message, field, static_cast<uint64_t>(Int64()));
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        return r->SetDouble(message, field, Double());
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        return r->SetFloat(message, field, Float());
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        return r->SetBool(message, field, Chance(0.5));
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        return r->SetEnumValue(message, field, EnumNumber(field->enum_type()));
      case pb::FieldDescriptor::CPPTYPE_STRING:
        return r->SetString(message, field,
                            field->type() == pb::FieldDescriptor::TYPE_BYTES ? Bytes() : Text());
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        return;
    }
  }

  void AddScalar(pb::Message* message, const pb::FieldDescriptor* field) {
    const pb::Reflection* r = message->GetReflection();
    switch (field->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        return r->AddInt32(message, field, Int32());
      case pb::FieldDescriptor::CPPTYPE_INT64:
        return r->AddInt64(message, field, Int64());
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        return r->AddUInt32(message, field, static_cast<uint32_t>(Int32()));
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        return r->AddUInt64(message, field, static_cast<uint64_t>(Int64()));
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        return r->AddDouble(message, field, Double());
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        return r->AddFloat(message, field, Float());
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        return r->AddBool(message, field, Chance(0.5));
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        return r->AddEnumValue(message, field, EnumNumber(field->enum_type()));
      case pb::FieldDescriptor::CPPTYPE_STRING:
        return r->AddString(message, field,
                            field->type() == pb::FieldDescriptor::TYPE_BYTES ? Bytes() : Text());
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        return;
    }
  }

  std::mt19937_64 random_;
};

// ---- Which types ----

void CollectMessages(const pb::Descriptor* descriptor, std::vector<const pb::Descriptor*>* out) {
  out->push_back(descriptor);
  for (int i = 0; i < descriptor->nested_type_count(); ++i) {
    CollectMessages(descriptor->nested_type(i), out);
  }
}

// Every message type of the web protos and of the draughts.v1 files they
// import, found from the file descriptors so new types are covered.
std::vector<const pb::Descriptor*> GatewayMessageTypes() {
  std::vector<const pb::FileDescriptor*> pending = {
      v1::ServerFrame::descriptor()->file(), v1::GameSnapshotFrame::descriptor()->file(),
      v1::Replay::descriptor()->file(), v1::WebTableResponse::descriptor()->file()};
  std::set<const pb::FileDescriptor*> seen;
  std::vector<const pb::Descriptor*> types;
  while (!pending.empty()) {
    const pb::FileDescriptor* file = pending.back();
    pending.pop_back();
    if (file->package() != "draughts.v1" || !seen.insert(file).second) continue;
    for (int i = 0; i < file->message_type_count(); ++i)
      CollectMessages(file->message_type(i), &types);
    for (int i = 0; i < file->dependency_count(); ++i) pending.push_back(file->dependency(i));
  }
  return types;
}

void ExpectSameAsLibrary(const pb::Message& message, int* printed_fast) {
  bool library_ok = false;
  const std::string expected = LibraryJson(message, &library_ok);
  std::string fast;
  if (PrintJsonFast(message, &fast)) {
    ++*printed_fast;
    EXPECT_TRUE(library_ok) << message.GetTypeName() << " " << message.ShortDebugString();
    EXPECT_EQ(fast, expected) << message.GetTypeName();
  }
  EXPECT_EQ(MessageToJson(message), expected) << message.GetTypeName();
}

TEST(ProtoJsonPrinterTest, EveryGatewayMessageTypePrintsAsTheLibraryDoes) {
  const std::vector<const pb::Descriptor*> types = GatewayMessageTypes();
  ASSERT_GT(types.size(), 50u);  // web_socket, web_game, game, events, ...
  RandomFiller filler(20261202);
  int messages = 0;
  int printed_fast = 0;
  for (const pb::Descriptor* type : types) {
    const pb::Message* prototype = pb::MessageFactory::generated_factory()->GetPrototype(type);
    ASSERT_NE(prototype, nullptr) << type->full_name();
    ExpectSameAsLibrary(*prototype, &printed_fast);  // everything default
    ++messages;
    for (int i = 0; i < 6; ++i) {
      std::unique_ptr<pb::Message> message(prototype->New());
      filler.Fill(message.get(), 0);
      ExpectSameAsLibrary(*message, &printed_fast);
      ++messages;
    }
  }
  // Everything filled is valid, so nothing may have been left to the library.
  EXPECT_EQ(printed_fast, messages);
  EXPECT_GT(messages, 300);
}

TEST(ProtoJsonPrinterTest, RandomServerFramesPrintAsTheLibraryDoes) {
  RandomFiller filler(7);
  int printed_fast = 0;
  for (int i = 0; i < 300; ++i) {
    v1::ServerFrame frame;
    filler.Fill(&frame, 0);
    ExpectSameAsLibrary(frame, &printed_fast);
  }
  EXPECT_EQ(printed_fast, 300);
}

// ---- A proto with every field kind (test only) ----

// Numbers out of declaration order, to tell declaration order from number
// order; a oneof and proto3 optionals of several kinds of value. (Built
// field by field: protobuf's .proto parser is not among the installed
// headers.)
using FieldType = pb::FieldDescriptorProto::Type;

struct FieldSpec {
  const char* name;
  int number;
  FieldType type;
  const char* type_name = "";  // messages and enums
  bool repeated = false;
  bool in_choice = false;  // the oneof `choice`
  bool optional = false;   // proto3 `optional`
};

void AddMessage(pb::FileDescriptorProto* file, const char* name,
                const std::vector<FieldSpec>& fields) {
  pb::DescriptorProto* message = file->add_message_type();
  message->set_name(name);
  bool has_choice = false;
  for (const FieldSpec& spec : fields) has_choice = has_choice || spec.in_choice;
  if (has_choice) message->add_oneof_decl()->set_name("choice");
  for (const FieldSpec& spec : fields) {
    pb::FieldDescriptorProto* field = message->add_field();
    field->set_name(spec.name);
    field->set_number(spec.number);
    field->set_type(spec.type);
    if (*spec.type_name != '\0') field->set_type_name(spec.type_name);
    field->set_label(spec.repeated ? pb::FieldDescriptorProto::LABEL_REPEATED
                                   : pb::FieldDescriptorProto::LABEL_OPTIONAL);
    if (spec.in_choice) field->set_oneof_index(0);
  }
  // Synthetic oneofs come after the real ones.
  for (int i = 0; i < message->field_size(); ++i) {
    if (!fields[static_cast<size_t>(i)].optional) continue;
    pb::FieldDescriptorProto* field = message->mutable_field(i);
    field->set_proto3_optional(true);
    field->set_oneof_index(message->oneof_decl_size());
    message->add_oneof_decl()->set_name("_" + field->name());
  }
}

pb::FileDescriptorProto AllKindsFile() {
  using T = pb::FieldDescriptorProto;
  pb::FileDescriptorProto file;
  file.set_name("jsontest/all_kinds.proto");
  file.set_package("jsontest");
  file.set_syntax("proto3");
  file.add_dependency("google/protobuf/timestamp.proto");
  file.add_dependency("google/protobuf/duration.proto");
  pb::EnumDescriptorProto* kind = file.add_enum_type();
  kind->set_name("Kind");
  for (const auto& [name, number] : std::vector<std::pair<const char*, int>>{
           {"KIND_UNSPECIFIED", 0}, {"KIND_A", 1}, {"KIND_FAR", 1000000}, {"KIND_NEGATIVE", -2}}) {
    pb::EnumValueDescriptorProto* value = kind->add_value();
    value->set_name(name);
    value->set_number(number);
  }
  const char* kTimestamp = ".google.protobuf.Timestamp";
  const char* kDuration = ".google.protobuf.Duration";
  AddMessage(&file, "Inner",
             {{"text", 2, T::TYPE_STRING},
              {"count", 1, T::TYPE_INT32},
              {"children", 3, T::TYPE_MESSAGE, ".jsontest.Inner", true},
              {"kind", 4, T::TYPE_ENUM, ".jsontest.Kind"}});
  AddMessage(&file, "AllKinds",
             {{"str", 30, T::TYPE_STRING},
              {"i32", 1, T::TYPE_INT32},
              {"i64", 2, T::TYPE_INT64},
              {"u32", 3, T::TYPE_UINT32},
              {"u64", 4, T::TYPE_UINT64},
              {"s32", 5, T::TYPE_SINT32},
              {"s64", 6, T::TYPE_SINT64},
              {"f32", 7, T::TYPE_FIXED32},
              {"f64", 8, T::TYPE_FIXED64},
              {"sf32", 9, T::TYPE_SFIXED32},
              {"sf64", 10, T::TYPE_SFIXED64},
              {"fl", 11, T::TYPE_FLOAT},
              {"db", 12, T::TYPE_DOUBLE},
              {"b", 13, T::TYPE_BOOL},
              {"by", 15, T::TYPE_BYTES},
              {"kind", 16, T::TYPE_ENUM, ".jsontest.Kind"},
              {"ts", 29, T::TYPE_MESSAGE, kTimestamp},
              {"inner", 17, T::TYPE_MESSAGE, ".jsontest.Inner"},
              {"dur", 19, T::TYPE_MESSAGE, kDuration},
              {"r_str", 20, T::TYPE_STRING, "", true},
              {"r_i32", 21, T::TYPE_INT32, "", true},
              {"r_i64", 22, T::TYPE_INT64, "", true},
              {"r_u64", 23, T::TYPE_UINT64, "", true},
              {"r_s32", 24, T::TYPE_SINT32, "", true},
              {"r_f64", 25, T::TYPE_FIXED64, "", true},
              {"r_fl", 26, T::TYPE_FLOAT, "", true},
              {"r_db", 27, T::TYPE_DOUBLE, "", true},
              {"r_b", 28, T::TYPE_BOOL, "", true},
              {"r_by", 31, T::TYPE_BYTES, "", true},
              {"r_kind", 32, T::TYPE_ENUM, ".jsontest.Kind", true},
              {"r_inner", 33, T::TYPE_MESSAGE, ".jsontest.Inner", true},
              {"r_ts", 34, T::TYPE_MESSAGE, kTimestamp, true},
              {"r_dur", 35, T::TYPE_MESSAGE, kDuration, true},
              {"opt_str", 42, T::TYPE_STRING, "", false, false, true},
              {"opt_i32", 40, T::TYPE_INT32, "", false, false, true},
              {"opt_kind", 41, T::TYPE_ENUM, ".jsontest.Kind", false, false, true},
              {"opt_inner", 43, T::TYPE_MESSAGE, ".jsontest.Inner", false, false, true},
              {"opt_db", 44, T::TYPE_DOUBLE, "", false, false, true},
              {"c_inner", 52, T::TYPE_MESSAGE, ".jsontest.Inner", false, true},
              {"c_str", 51, T::TYPE_STRING, "", false, true},
              {"c_i64", 50, T::TYPE_INT64, "", false, true},
              {"c_ts", 53, T::TYPE_MESSAGE, kTimestamp, false, true},
              {"c_db", 54, T::TYPE_DOUBLE, "", false, true},
              {"c_by", 55, T::TYPE_BYTES, "", false, true},
              {"snake_case_name_2", 60, T::TYPE_STRING},
              {"declared_last_numbered_first", 14, T::TYPE_INT32}});
  return file;
}

class AllKindsTest : public testing::Test {
 protected:
  void SetUp() override {
    // Linked in, so the pool below finds them through its underlay.
    ASSERT_NE(pb::Timestamp::descriptor(), nullptr);
    ASSERT_NE(pb::Duration::descriptor(), nullptr);
    ASSERT_NE(pool_.BuildFile(AllKindsFile()), nullptr);
    factory_.SetDelegateToGeneratedFactory(true);
  }

  std::unique_ptr<pb::Message> New(const std::string& name) {
    const pb::Descriptor* descriptor = pool_.FindMessageTypeByName(name);
    EXPECT_NE(descriptor, nullptr) << name;
    return std::unique_ptr<pb::Message>(factory_.GetPrototype(descriptor)->New());
  }

  pb::DescriptorPool pool_{pb::DescriptorPool::generated_pool()};
  pb::DynamicMessageFactory factory_{&pool_};
};

TEST_F(AllKindsTest, RandomMessagesOfEveryFieldKindPrintAsTheLibraryDoes) {
  RandomFiller filler(42);
  int printed_fast = 0;
  constexpr int kMessages = 400;
  for (int i = 0; i < kMessages; ++i) {
    std::unique_ptr<pb::Message> message = New("jsontest.AllKinds");
    filler.Fill(message.get(), 0);
    ExpectSameAsLibrary(*message, &printed_fast);
  }
  EXPECT_EQ(printed_fast, kMessages);
}

TEST_F(AllKindsTest, SetScalarsOfAOneofAndTimesComeLast) {
  std::unique_ptr<pb::Message> message = New("jsontest.Inner");
  const pb::Descriptor* inner = message->GetDescriptor();
  message->GetReflection()->SetString(message.get(), inner->FindFieldByName("text"), "a<b");
  std::string fast;
  ASSERT_TRUE(PrintJsonFast(*message, &fast));
  EXPECT_EQ(fast, R"({"text":"a\u003cb","count":0,"children":[],"kind":"KIND_UNSPECIFIED"})");

  std::unique_ptr<pb::Message> all = New("jsontest.AllKinds");
  const pb::Descriptor* descriptor = all->GetDescriptor();
  const pb::Reflection* reflection = all->GetReflection();
  reflection->SetInt32(all.get(), descriptor->FindFieldByName("opt_i32"), 0);  // present
  reflection->SetInt64(all.get(), descriptor->FindFieldByName("c_i64"), -5);
  pb::Message* ts = reflection->MutableMessage(all.get(), descriptor->FindFieldByName("ts"));
  ts->GetReflection()->SetInt64(ts, ts->GetDescriptor()->field(0), 1795000000);
  ts->GetReflection()->SetInt32(ts, ts->GetDescriptor()->field(1), 500000000);
  fast.clear();
  ASSERT_TRUE(PrintJsonFast(*all, &fast));
  EXPECT_EQ(fast, LibraryJson(*all));
  const std::string tail =
      R"(,"snakeCaseName2":"","declaredLastNumberedFirst":0,"ts":"2026-11-18T11:06:40.500Z",)"
      R"("optI32":0,"cI64":"-5"})";
  ASSERT_GE(fast.size(), tail.size());
  EXPECT_EQ(fast.substr(fast.size() - tail.size()), tail) << fast;
}

// ---- Exact frames ----

TEST(ProtoJsonPrinterTest, KnownFrames) {
  v1::ServerFrame ack;
  ack.set_request_id("r\"1");
  ack.mutable_ack()->set_started(true);
  std::string fast;
  ASSERT_TRUE(PrintJsonFast(ack, &fast));
  EXPECT_EQ(fast, R"({"requestId":"r\"1","ack":{"started":true}})");

  // The move timer, as a snapshot carries it.
  v1::ServerFrame::ClockView clock;
  v1::ServerFrame::ClockView* view = &clock;
  view->set_game_id("g1");
  view->set_armed(true);
  view->set_color(v1::COLOR_WHITE);
  view->set_expected_ply(12);
  view->set_black_timeouts(1);
  view->mutable_deadline()->set_seconds(1795000000);
  view->mutable_remaining()->set_seconds(1);
  view->mutable_remaining()->set_nanos(500000000);
  view->mutable_server_time()->set_seconds(1794999998);
  view->mutable_server_time()->set_nanos(123000);
  fast.clear();
  ASSERT_TRUE(PrintJsonFast(clock, &fast));
  EXPECT_EQ(fast, R"({"gameId":"g1","armed":true,"color":"COLOR_WHITE",)"
                  R"("expectedPly":12,"whiteTimeouts":0,"blackTimeouts":1,)"
                  R"("deadline":"2026-11-18T11:06:40Z","remaining":"1.500s",)"
                  R"("serverTime":"2026-11-18T11:06:38.000123Z"})");
  EXPECT_EQ(MessageToJson(clock), fast);

  v1::ServerFrame::Snapshot snapshot;
  snapshot.add_your_colors(static_cast<v1::Color>(77));  // unknown: a number
  snapshot.mutable_game()->set_version(-3);
  fast.clear();
  ASSERT_TRUE(PrintJsonFast(snapshot, &fast));
  EXPECT_NE(fast.find(R"("yourColors":[77])"), std::string::npos) << fast;
  EXPECT_NE(fast.find(R"("version":"-3")"), std::string::npos) << fast;
  EXPECT_EQ(fast.find("moveDeadline"), std::string::npos) << fast;  // unset message
  EXPECT_EQ(fast, LibraryJson(snapshot));
}

// ---- Left to the library ----

TEST(ProtoJsonPrinterTest, WhatItDeclinesStillPrintsAsTheLibraryDoes) {
  // Invalid UTF-8 (the library drops such bytes its own way; its complaint
  // about serializing them is expected here).
  const pb::LogSilencer quiet;
  for (const char* bad : {"a\x80z", "\xff", "ab\xc3", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
    v1::ServerFrame frame;
    frame.mutable_error()->set_message(bad);
    std::string fast;
    EXPECT_FALSE(PrintJsonFast(frame, &fast)) << bad;
    EXPECT_EQ(MessageToJson(frame), LibraryJson(frame));
  }
  // A Timestamp out of range: the library fails, the gateway prints {}.
  v1::ServerFrame frame;
  frame.mutable_snapshot()->mutable_clock()->mutable_deadline()->set_seconds(253402300800);
  std::string fast;
  EXPECT_FALSE(PrintJsonFast(frame, &fast));
  EXPECT_EQ(MessageToJson(frame), "{}");
  // Types with forms of their own: Struct, and a Type holding an Any.
  pb::Struct object;
  (*object.mutable_fields())["k"].set_string_value("v");
  fast.clear();
  EXPECT_FALSE(PrintJsonFast(object, &fast));
  EXPECT_EQ(MessageToJson(object), R"({"k":"v"})");
  pb::Type type;
  type.set_name("t");
  type.add_options()->mutable_value()->PackFrom(object);
  fast.clear();
  EXPECT_FALSE(PrintJsonFast(type, &fast));
  EXPECT_EQ(MessageToJson(type), LibraryJson(type));
}

TEST(ProtoJsonPrinterTest, ManyThreadsPrintTheSame) {
  RandomFiller filler(99);
  std::vector<v1::ServerFrame> frames(40);
  std::vector<std::string> expected;
  for (v1::ServerFrame& frame : frames) {
    filler.Fill(&frame, 0);
    expected.push_back(LibraryJson(frame));
  }
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        for (size_t i = 0; i < frames.size(); ++i) {
          if (MessageToJson(frames[i]) != expected[i]) ++mismatches[static_cast<size_t>(t)];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace draughts::gateway
