#include "platform/rpc_metrics.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "metrics_test_util.h"
#include "platform/serve.h"
#include "platform/testing/echo_service.h"

namespace draughts::platform {
namespace {

using testing::CounterValue;
using testing::HistogramCount;
using testing::SeriesWithLabel;

constexpr char kEcho[] = "/draughts.platform.testing.EchoService/Echo";
constexpr char kStarted[] = "draughts_rpc_server_started_total";
constexpr char kHandled[] = "draughts_rpc_server_handled_total";
constexpr char kLatency[] = "draughts_rpc_server_handling_seconds";

class RpcMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServeOptions options;
    options.address = "127.0.0.1:0";
    options.metrics_registry = registry_;
    auto server = RunningServer::Start(options, {&echo_});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(server).value();
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                   grpc::InsecureChannelCredentials());
    stub_ = platform::testing::EchoService::NewStub(channel_);
  }

  grpc::Status Echo(int fail_with_code) {
    grpc::ClientContext context;
    platform::testing::EchoRequest request;
    request.set_text("hi");
    request.set_fail_with_code(fail_with_code);
    platform::testing::EchoReply reply;
    return stub_->Echo(&context, request, &reply);
  }

  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  platform::testing::EchoServiceImpl echo_;
  std::unique_ptr<RunningServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<platform::testing::EchoService::Stub> stub_;
};

TEST_F(RpcMetricsTest, CountsCallsErrorsByCodeAndLatencyPerMethod) {
  ASSERT_TRUE(Echo(0).ok());
  ASSERT_TRUE(Echo(0).ok());
  ASSERT_EQ(Echo(static_cast<int>(grpc::StatusCode::NOT_FOUND)).error_code(),
            grpc::StatusCode::NOT_FOUND);
  ASSERT_EQ(Echo(static_cast<int>(grpc::StatusCode::ABORTED)).error_code(),
            grpc::StatusCode::ABORTED);
  ASSERT_EQ(Echo(static_cast<int>(grpc::StatusCode::ABORTED)).error_code(),
            grpc::StatusCode::ABORTED);

  auto& registry = *registry_;
  EXPECT_EQ(CounterValue(registry, kStarted, {{"method", kEcho}}), 5);
  EXPECT_EQ(CounterValue(registry, kHandled, {{"method", kEcho}, {"code", "OK"}}), 2);
  EXPECT_EQ(CounterValue(registry, kHandled, {{"method", kEcho}, {"code", "NOT_FOUND"}}), 1);
  EXPECT_EQ(CounterValue(registry, kHandled, {{"method", kEcho}, {"code", "ABORTED"}}), 2);
  EXPECT_EQ(CounterValue(registry, kHandled, {{"method", kEcho}, {"code", "INTERNAL"}}), 0);
  EXPECT_EQ(HistogramCount(registry, kLatency, {{"method", kEcho}}), 5u);
  EXPECT_EQ(echo_.calls(), 5);
}

TEST_F(RpcMetricsTest, LatencyReflectsHandlerTime) {
  grpc::ClientContext context;
  platform::testing::EchoRequest request;
  request.set_delay_ms(120);
  platform::testing::EchoReply reply;
  ASSERT_TRUE(stub_->Echo(&context, request, &reply).ok());
  auto metric = testing::FindMetric(*registry_, kLatency, {{"method", kEcho}});
  ASSERT_TRUE(metric.has_value());
  EXPECT_GE(metric->histogram.sample_sum, 0.12);
  EXPECT_LT(metric->histogram.sample_sum, 10.0);
}

TEST_F(RpcMetricsTest, UnknownMethodsDoNotCreateTheirOwnLabel) {
  grpc::GenericStub generic(channel_);
  grpc::CompletionQueue cq;
  grpc::ClientContext context;
  grpc::ByteBuffer request;
  auto call = generic.PrepareUnaryCall(&context, "/no.such.Service/Anything", request, &cq);
  call->StartCall();
  grpc::ByteBuffer response;
  grpc::Status status;
  call->Finish(&response, &status, reinterpret_cast<void*>(1));
  void* tag = nullptr;
  bool ok = false;
  ASSERT_TRUE(cq.Next(&tag, &ok));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
  EXPECT_EQ(SeriesWithLabel(*registry_, kStarted, "method", "/no.such.Service/Anything"), 0);
  EXPECT_EQ(SeriesWithLabel(*registry_, kHandled, "method", "/no.such.Service/Anything"), 0);
}

TEST(MethodLabelTest, KnownMethodsKeepTheirPathOthersAreUnknown) {
  EXPECT_EQ(MethodLabel(kEcho), kEcho);
  EXPECT_EQ(MethodLabel("/grpc.health.v1.Health/Check"), "/grpc.health.v1.Health/Check");
  EXPECT_EQ(MethodLabel("/grpc.health.v1.Health/Watch"), "/grpc.health.v1.Health/Watch");
  EXPECT_EQ(MethodLabel("/grpc.health.v1.Health/Other"), "unknown");
  EXPECT_EQ(MethodLabel("/draughts.platform.testing.EchoService/Nope"), "unknown");
  EXPECT_EQ(MethodLabel("/x/y"), "unknown");
  EXPECT_EQ(MethodLabel(""), "unknown");
  EXPECT_EQ(MethodLabel("no-slash"), "unknown");
  EXPECT_EQ(MethodLabel("/trailing/"), "unknown");
}

TEST(GrpcCodeNameTest, NamesEveryCode) {
  EXPECT_EQ(GrpcCodeName(0), "OK");
  EXPECT_EQ(GrpcCodeName(5), "NOT_FOUND");
  EXPECT_EQ(GrpcCodeName(10), "ABORTED");
  EXPECT_EQ(GrpcCodeName(16), "UNAUTHENTICATED");
  EXPECT_EQ(GrpcCodeName(17), "UNKNOWN");
  EXPECT_EQ(GrpcCodeName(-1), "UNKNOWN");
}

TEST(RpcMetricsFactoryTest, NullRegistryIsAnError) {
  EXPECT_EQ(MakeRpcMetricsInterceptorFactory(nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(RpcMetricsFactoryTest, NameClashWithAnotherMetricTypeIsAnError) {
  auto registry = std::make_shared<prometheus::Registry>();
  prometheus::BuildGauge().Name(kStarted).Help("a gauge with our name").Register(*registry);
  auto factory = MakeRpcMetricsInterceptorFactory(registry);
  EXPECT_EQ(factory.status().code(), absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace draughts::platform
