#include "platform/shutdown_signal.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include "absl/time/clock.h"

namespace draughts::platform {
namespace {

TEST(ShutdownSignalTest, WaitForTimesOutWithoutTrigger) {
  auto signal = ShutdownSignal::Manual();
  ASSERT_TRUE(signal.ok());
  absl::Time begin = absl::Now();
  EXPECT_EQ((*signal)->WaitFor(absl::Milliseconds(100)), std::nullopt);
  EXPECT_GE(absl::Now() - begin, absl::Milliseconds(100));
}

TEST(ShutdownSignalTest, TriggerFromAnotherThreadWakesTheWaiter) {
  auto signal = ShutdownSignal::Manual();
  ASSERT_TRUE(signal.ok());
  std::thread trigger([&] {
    absl::SleepFor(absl::Milliseconds(50));
    (*signal)->Trigger(SIGUSR2);
  });
  EXPECT_EQ((*signal)->Wait(), SIGUSR2);
  trigger.join();
}

TEST(ShutdownSignalTest, EachTriggerIsDeliveredOnce) {
  auto signal = ShutdownSignal::Manual();
  ASSERT_TRUE(signal.ok());
  (*signal)->Trigger(1);
  (*signal)->Trigger(2);
  EXPECT_EQ((*signal)->WaitFor(absl::ZeroDuration()), 1);
  EXPECT_EQ((*signal)->WaitFor(absl::ZeroDuration()), 2);
  EXPECT_EQ((*signal)->WaitFor(absl::ZeroDuration()), std::nullopt);
}

TEST(ShutdownSignalTest, InstalledHandlerTurnsTheSignalIntoAWakeUp) {
  auto signal = ShutdownSignal::Install({SIGUSR1});
  ASSERT_TRUE(signal.ok()) << signal.status();
  ASSERT_EQ(::kill(::getpid(), SIGUSR1), 0);
  EXPECT_EQ((*signal)->WaitFor(absl::Seconds(5)), SIGUSR1);
}

TEST(ShutdownSignalTest, OnlyOneInstalledInstanceAtATime) {
  auto first = ShutdownSignal::Install({SIGUSR1});
  ASSERT_TRUE(first.ok());
  auto second = ShutdownSignal::Install({SIGUSR1});
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  first->reset();
  auto third = ShutdownSignal::Install({SIGUSR1});
  EXPECT_TRUE(third.ok()) << third.status();
}

TEST(ShutdownSignalTest, DestructionRestoresThePreviousHandler) {
  struct sigaction before;
  ASSERT_EQ(::sigaction(SIGUSR1, nullptr, &before), 0);
  {
    auto signal = ShutdownSignal::Install({SIGUSR1});
    ASSERT_TRUE(signal.ok());
    struct sigaction during;
    ASSERT_EQ(::sigaction(SIGUSR1, nullptr, &during), 0);
    EXPECT_NE(during.sa_handler, before.sa_handler);
  }
  struct sigaction after;
  ASSERT_EQ(::sigaction(SIGUSR1, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
}

TEST(ShutdownSignalTest, InvalidSignalIsAnErrorAndLeavesNothingInstalled) {
  auto bad = ShutdownSignal::Install({SIGUSR1, 9999});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto good = ShutdownSignal::Install({SIGUSR1});
  EXPECT_TRUE(good.ok()) << good.status();
}

}  // namespace
}  // namespace draughts::platform
