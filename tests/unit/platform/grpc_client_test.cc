#include "platform/grpc_client.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "metrics_test_util.h"
#include "platform/serve.h"
#include "platform/testing/echo_service.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

using EchoClient = GrpcClient<platform::testing::EchoService>;
using platform::testing::CounterValue;
using platform::testing::EchoReply;
using platform::testing::EchoRequest;
using platform::testing::HistogramCount;

constexpr char kEchoMethod[] = "/draughts.platform.testing.EchoService/Echo";

EchoRequest Request(std::string text, grpc::StatusCode fail_with = grpc::StatusCode::OK,
                    int fail_times = 0, int delay_ms = 0) {
  EchoRequest request;
  request.set_text(std::move(text));
  request.set_fail_with_code(static_cast<int>(fail_with));
  request.set_fail_times(fail_times);
  request.set_delay_ms(delay_ms);
  return request;
}

// A loopback listener that forwards each connection to `target_port` only
// after `hold`: a backend whose connection setup is slow, as a loaded
// machine's can be.
class SlowSetupRelay {
 public:
  SlowSetupRelay(int target_port, absl::Duration hold) : target_port_(target_port), hold_(hold) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address = Loopback(0);
    socklen_t length = sizeof(address);
    if (bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        listen(listener_, 8) != 0 ||
        getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      return;
    }
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { AcceptLoop(); });
  }
  ~SlowSetupRelay() {
    stopping_.store(true);
    shutdown(listener_, SHUT_RDWR);
    if (acceptor_.joinable()) acceptor_.join();
    for (std::thread& pipe : pipes_) pipe.join();
    close(listener_);
  }
  int port() const { return port_; }

 private:
  static sockaddr_in Loopback(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
  }
  void AcceptLoop() {
    while (!stopping_.load()) {
      int client = accept(listener_, nullptr, nullptr);
      if (client < 0) return;
      pipes_.emplace_back([this, client] { Relay(client); });
    }
  }
  void Relay(int client) {
    absl::SleepFor(hold_);
    int backend = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address = Loopback(target_port_);
    if (connect(backend, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0) {
      pollfd ends[2] = {{client, POLLIN, 0}, {backend, POLLIN, 0}};
      char buffer[16384];
      while (!stopping_.load() && poll(ends, 2, 100) >= 0) {
        bool closed = false;
        for (int from = 0; from < 2 && !closed; ++from) {
          if (ends[from].revents == 0) continue;
          ssize_t got = read(ends[from].fd, buffer, sizeof(buffer));
          closed = got <= 0 || write(ends[1 - from].fd, buffer, got) != got;
        }
        if (closed) break;
      }
    }
    close(backend);
    close(client);
  }

  int target_port_;
  absl::Duration hold_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  std::vector<std::thread> pipes_;
};

class GrpcClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServeOptions serve;
    serve.address = "127.0.0.1:0";
    serve.metrics_registry = std::make_shared<prometheus::Registry>();
    auto server = RunningServer::Start(serve, {&echo_});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(server).value();
  }

  std::unique_ptr<EchoClient> Client(RetryPolicy retry = {}, std::string target = "") {
    GrpcClientOptions options;
    options.target = target.empty() ? absl::StrCat("127.0.0.1:", server_->port()) : target;
    options.retry = retry;
    options.metrics_registry = registry_;
    auto client = EchoClient::Create(options);
    EXPECT_TRUE(client.ok()) << client.status();
    return client.ok() ? std::move(client).value() : nullptr;
  }

  double Handled(const std::string& code) {
    return CounterValue(*registry_, "draughts_rpc_client_handled_total",
                        {{"method", kEchoMethod}, {"code", code}});
  }
  double Retries() {
    return CounterValue(*registry_, "draughts_rpc_client_retries_total", {{"method", kEchoMethod}});
  }

  platform::testing::EchoServiceImpl echo_;
  std::unique_ptr<RunningServer> server_;
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
};

TEST_F(GrpcClientTest, AnswersWithTheTypedResponseAndCountsTheCall) {
  auto client = Client();
  absl::StatusOr<EchoReply> reply = client->Call(&EchoClient::Stub::Echo, Request("hello"));
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->text(), "hello");
  // The generated Stub's member works too.
  auto again = client->Call(&platform::testing::EchoService::Stub::Echo, Request("again"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->text(), "again");
  EXPECT_EQ(Handled("OK"), 2);
  EXPECT_EQ(
      HistogramCount(*registry_, "draughts_rpc_client_handling_seconds", {{"method", kEchoMethod}}),
      2u);
  EXPECT_EQ(Retries(), 0);
}

TEST_F(GrpcClientTest, UnavailableIsRetriedUntilTheBackendAnswers) {
  RetryPolicy retry;
  retry.max_attempts = 4;
  retry.initial_backoff = absl::Milliseconds(10);
  auto client = Client(retry);
  auto reply = client->Call(&EchoClient::Stub::Echo,
                            Request("flaky", grpc::StatusCode::UNAVAILABLE, /*fail_times=*/3),
                            {.safe_to_retry = true});
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->text(), "flaky");
  EXPECT_EQ(echo_.calls(), 4);
  EXPECT_EQ(Retries(), 3);
  EXPECT_EQ(Handled("OK"), 1);
  EXPECT_EQ(Handled("UNAVAILABLE"), 0);  // one call, counted once by its outcome
}

TEST_F(GrpcClientTest, RetriesStopAfterMaxAttemptsWithTheLastStatus) {
  RetryPolicy retry;
  retry.max_attempts = 3;
  retry.initial_backoff = absl::Milliseconds(10);
  auto client = Client(retry);
  auto reply = client->Call(&EchoClient::Stub::Echo,
                            Request("down", grpc::StatusCode::UNAVAILABLE, /*fail_times=*/5),
                            {.safe_to_retry = true});
  EXPECT_EQ(reply.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(reply.status().message().find("after 3 attempts"), std::string::npos) << reply.status();
  EXPECT_EQ(echo_.calls(), 3);
  EXPECT_EQ(Retries(), 2);
  EXPECT_EQ(Handled("UNAVAILABLE"), 1);
}

TEST_F(GrpcClientTest, CallsNotMarkedSafeAreNotRetried) {
  RetryPolicy retry;
  retry.initial_backoff = absl::Milliseconds(10);
  auto client = Client(retry);
  auto reply = client->Call(&EchoClient::Stub::Echo,
                            Request("once", grpc::StatusCode::UNAVAILABLE, /*fail_times=*/1));
  EXPECT_EQ(reply.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(reply.status().message(), "failing as asked: once");
  EXPECT_EQ(echo_.calls(), 1);
  EXPECT_EQ(Retries(), 0);
}

TEST_F(GrpcClientTest, OtherCodesAreAnswersAndNeverRetried) {
  RetryPolicy retry;
  retry.initial_backoff = absl::Milliseconds(10);
  auto client = Client(retry);
  for (grpc::StatusCode code : {grpc::StatusCode::ABORTED, grpc::StatusCode::FAILED_PRECONDITION,
                                grpc::StatusCode::INTERNAL, grpc::StatusCode::RESOURCE_EXHAUSTED}) {
    // A text of its own per code: the server fails each text once only.
    auto reply = client->Call(&EchoClient::Stub::Echo,
                              Request(absl::StrCat("no-", static_cast<int>(code)), code,
                                      /*fail_times=*/1),
                              {.safe_to_retry = true});
    EXPECT_EQ(static_cast<int>(reply.status().code()), static_cast<int>(code));
  }
  EXPECT_EQ(echo_.calls(), 4);
  EXPECT_EQ(Retries(), 0);
  EXPECT_EQ(Handled("ABORTED"), 1);
  EXPECT_EQ(Handled("INTERNAL"), 1);
}

TEST_F(GrpcClientTest, DeadlineBoundsTheCallAndIsNotRetried) {
  auto client = Client();
  absl::Time begin = absl::Now();
  auto reply = client->Call(&EchoClient::Stub::Echo,
                            Request("slow", grpc::StatusCode::OK, 0, /*delay_ms=*/2000),
                            {.timeout = absl::Milliseconds(200), .safe_to_retry = true});
  absl::Duration took = absl::Now() - begin;
  EXPECT_EQ(reply.status().code(), absl::StatusCode::kDeadlineExceeded);
  // Waited for the deadline, not failed at once; gRPC's timers may fire a
  // little early (184 ms seen in a CI run for this 200 ms deadline).
  EXPECT_GE(took, absl::Milliseconds(150));
  EXPECT_LT(took, absl::Seconds(1));
  EXPECT_EQ(Retries(), 0);
  EXPECT_EQ(Handled("DEADLINE_EXCEEDED"), 1);
}

// What a call refused until its deadline answers: the last refusal, or,
// when the last retry started with little time left and a loaded machine
// let the deadline pass during it, DEADLINE_EXCEEDED. Never OK nor another
// code.
bool EndedByRefusalsOrDeadline(absl::StatusCode code) {
  return code == absl::StatusCode::kUnavailable || code == absl::StatusCode::kDeadlineExceeded;
}

TEST_F(GrpcClientTest, RetriesNeverOutlastTheDeadline) {
  RetryPolicy retry;
  retry.max_attempts = 100;
  retry.initial_backoff = absl::Milliseconds(50);
  retry.max_backoff = absl::Milliseconds(50);
  auto client = Client(retry);
  absl::Time begin = absl::Now();
  auto reply =
      client->Call(&EchoClient::Stub::Echo, Request("forever", grpc::StatusCode::UNAVAILABLE),
                   {.timeout = absl::Milliseconds(400), .safe_to_retry = true});
  EXPECT_TRUE(EndedByRefusalsOrDeadline(reply.status().code())) << reply.status();
  EXPECT_LT(absl::Now() - begin, absl::Milliseconds(600));
  EXPECT_GE(echo_.calls(), 3);
  EXPECT_LT(echo_.calls(), 20);
}

TEST_F(GrpcClientTest, ABackendThatStartsLateIsFoundByTheRetries) {
  auto port = platform::testing::PickFreePort();
  ASSERT_TRUE(port.ok());
  RetryPolicy retry;
  retry.max_attempts = 30;
  retry.initial_backoff = absl::Milliseconds(50);
  retry.max_backoff = absl::Milliseconds(200);
  auto client = Client(retry, absl::StrCat("127.0.0.1:", *port));
  platform::testing::EchoServiceImpl late_echo;
  auto starter = std::async(std::launch::async, [&] {
    absl::SleepFor(absl::Milliseconds(400));
    ServeOptions serve;
    serve.address = absl::StrCat("127.0.0.1:", *port);
    serve.metrics_registry = std::make_shared<prometheus::Registry>();
    return RunningServer::Start(serve, {&late_echo});
  });
  auto reply = client->Call(&EchoClient::Stub::Echo, Request("late"),
                            {.timeout = absl::Seconds(5), .safe_to_retry = true});
  auto late_server = starter.get();
  ASSERT_TRUE(late_server.ok()) << late_server.status();
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->text(), "late");
  EXPECT_GE(Retries(), 1);
}

// gRPC gives up on a connection whose setup takes longer than its minimum
// connect timeout; a loaded machine (CI under ASan) took over 100 ms.
TEST_F(GrpcClientTest, AConnectionSlowToSetUpIsWaitedFor) {
  SlowSetupRelay relay(server_->port(), absl::Milliseconds(600));
  ASSERT_GT(relay.port(), 0);
  auto client = Client({}, absl::StrCat("127.0.0.1:", relay.port()));
  auto reply = client->Call(&EchoClient::Stub::Echo, Request("slow setup"),
                            {.timeout = absl::Seconds(5), .safe_to_retry = true});
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->text(), "slow setup");
}

TEST_F(GrpcClientTest, BadOptionsAreRefused) {
  GrpcClientOptions options;
  options.metrics_registry = registry_;
  EXPECT_EQ(EchoClient::Create(options).status().code(), absl::StatusCode::kInvalidArgument);
  options.target = "127.0.0.1:1";
  options.retry.max_attempts = 0;
  EXPECT_EQ(EchoClient::Create(options).status().code(), absl::StatusCode::kInvalidArgument);
  options.retry.max_attempts = 2;
  options.retry.jitter = 1.5;
  EXPECT_EQ(EchoClient::Create(options).status().code(), absl::StatusCode::kInvalidArgument);
  options.retry.jitter = 0.1;
  options.timeout = absl::ZeroDuration();
  EXPECT_EQ(EchoClient::Create(options).status().code(), absl::StatusCode::kInvalidArgument);
  options.timeout = absl::Seconds(1);
  options.connect_timeout = absl::ZeroDuration();
  EXPECT_EQ(EchoClient::Create(options).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(GrpcClientTest, ClientsShareOneRegistry) {
  auto first = Client();
  auto second = Client();
  ASSERT_TRUE(first->Call(&EchoClient::Stub::Echo, Request("1")).ok());
  ASSERT_TRUE(second->Call(&EchoClient::Stub::Echo, Request("2")).ok());
  EXPECT_EQ(Handled("OK"), 2);
}

// CallAsync: the same call through gRPC's callback API.
absl::StatusOr<EchoReply> CallAsyncAndWait(EchoClient& client, EchoRequest request,
                                           CallOptions options = {}) {
  std::promise<absl::StatusOr<EchoReply>> answered;
  client.CallAsync(
      &EchoClient::Stub::async_interface::Echo, std::move(request), options,
      [&answered](absl::StatusOr<EchoReply> reply) { answered.set_value(std::move(reply)); });
  return answered.get_future().get();
}

TEST_F(GrpcClientTest, AsyncCallsAnswerRetryAndCountAsTheBlockingOnes) {
  RetryPolicy retry;
  retry.max_attempts = 3;
  retry.initial_backoff = absl::Milliseconds(10);
  auto client = Client(retry);
  absl::StatusOr<EchoReply> reply = CallAsyncAndWait(*client, Request("hello"));
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->text(), "hello");
  EXPECT_EQ(Handled("OK"), 1);

  reply = CallAsyncAndWait(*client, Request("flaky", grpc::StatusCode::UNAVAILABLE, 2),
                           {.safe_to_retry = true});
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->text(), "flaky");
  EXPECT_EQ(echo_.calls(), 4);
  EXPECT_EQ(Retries(), 2);
  EXPECT_EQ(Handled("OK"), 2);

  reply = CallAsyncAndWait(*client, Request("down", grpc::StatusCode::UNAVAILABLE, 5),
                           {.safe_to_retry = true});
  EXPECT_EQ(reply.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(reply.status().message().find("after 3 attempts"), std::string::npos) << reply.status();
  EXPECT_EQ(echo_.calls(), 7);
  EXPECT_EQ(Handled("UNAVAILABLE"), 1);

  // Not marked safe: one attempt; other codes are answers.
  reply = CallAsyncAndWait(*client, Request("once", grpc::StatusCode::UNAVAILABLE, 1));
  EXPECT_EQ(reply.status().code(), absl::StatusCode::kUnavailable);
  reply = CallAsyncAndWait(*client, Request("bad", grpc::StatusCode::INVALID_ARGUMENT, 1),
                           {.safe_to_retry = true});
  EXPECT_EQ(reply.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(echo_.calls(), 9);
}

TEST_F(GrpcClientTest, AsyncRetriesNeverOutlastTheDeadline) {
  RetryPolicy retry;
  retry.max_attempts = 100;
  retry.initial_backoff = absl::Milliseconds(50);
  auto client = Client(retry);
  const absl::Time start = absl::Now();
  auto reply = CallAsyncAndWait(*client, Request("forever", grpc::StatusCode::UNAVAILABLE),
                                {.timeout = absl::Milliseconds(300), .safe_to_retry = true});
  EXPECT_TRUE(EndedByRefusalsOrDeadline(reply.status().code())) << reply.status();
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  EXPECT_LT(echo_.calls(), 100);
}

// A stub that answers from a script, as a service's unit test would use
// instead of a server.
class ScriptedStub : public platform::testing::EchoService::StubInterface {
 public:
  explicit ScriptedStub(std::vector<grpc::StatusCode> answers) : answers_(std::move(answers)) {}

  grpc::Status Echo(grpc::ClientContext* context, const EchoRequest& request,
                    EchoReply* reply) override {
    deadlines_.push_back(absl::FromChrono(context->deadline()));
    grpc::StatusCode code = answers_.at(calls_++);
    if (code != grpc::StatusCode::OK) return grpc::Status(code, "scripted");
    reply->set_text(request.text());
    return grpc::Status::OK;
  }

  int calls() const { return calls_; }
  const std::vector<absl::Time>& deadlines() const { return deadlines_; }

 private:
  grpc::ClientAsyncResponseReaderInterface<EchoReply>* AsyncEchoRaw(
      grpc::ClientContext*, const EchoRequest&, grpc::CompletionQueue*) override {
    return nullptr;
  }
  grpc::ClientAsyncResponseReaderInterface<EchoReply>* PrepareAsyncEchoRaw(
      grpc::ClientContext*, const EchoRequest&, grpc::CompletionQueue*) override {
    return nullptr;
  }

  std::vector<grpc::StatusCode> answers_;
  int calls_ = 0;
  std::vector<absl::Time> deadlines_;
};

TEST(GrpcClientWithAStubTest, RetriesAgainstAFakeStubShareOneDeadline) {
  auto registry = std::make_shared<prometheus::Registry>();
  GrpcClientOptions options;
  options.target = "127.0.0.1:1";  // never dialled: the stub answers
  options.retry.initial_backoff = absl::Milliseconds(5);
  options.metrics_registry = registry;
  auto core = GrpcClientCore::Create(options);
  ASSERT_TRUE(core.ok()) << core.status();
  auto owned = std::make_unique<ScriptedStub>(std::vector<grpc::StatusCode>{
      grpc::StatusCode::UNAVAILABLE, grpc::StatusCode::UNAVAILABLE, grpc::StatusCode::OK});
  ScriptedStub* stub = owned.get();
  EchoClient client(*core, std::move(owned));

  absl::Time before = absl::Now();
  auto reply = client.Call(&EchoClient::Stub::Echo, Request("fake"),
                           {.timeout = absl::Seconds(7), .safe_to_retry = true});
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->text(), "fake");
  ASSERT_EQ(stub->calls(), 3);
  // Every attempt ran against the one deadline of the call.
  EXPECT_EQ(stub->deadlines()[0], stub->deadlines()[2]);
  EXPECT_GE(stub->deadlines()[0], before + absl::Seconds(7));
  EXPECT_LT(stub->deadlines()[0], absl::Now() + absl::Seconds(7));
  // No channel call, so no method name: the series says so.
  EXPECT_EQ(CounterValue(*registry, "draughts_rpc_client_retries_total", {{"method", "unknown"}}),
            2);

  // The generated Stub's member cannot run on a fake: a clear error.
  auto wrong = client.Call(&platform::testing::EchoService::Stub::Echo, Request("x"));
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kFailedPrecondition);
  // A stub without the callback API refuses asynchronous calls at once.
  auto async = CallAsyncAndWait(client, Request("x"));
  EXPECT_EQ(async.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(stub->calls(), 3);
}

}  // namespace
}  // namespace draughts::platform
