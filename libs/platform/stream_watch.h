// A server stream on gRPC's callback API that follows a live feed with no
// thread waiting on it (WatchGame, WatchTable, WatchChat). The service
// opens the feed (reads Redis, positions a subscription) on a
// BlockingPool and hands it to the StreamWatch; from then on the feed's
// tailer signals arrivals (MessageFeed::SetReadyCallback), the WatchPump's
// thread takes the messages and starts the write, and each finished write
// starts the next one: one write in flight per watcher, messages in feed
// order. A synchronous server kept a thread per open stream instead (2,000
// of them per service at the load test's crowd), each woken to check for a
// cancelled client.
#ifndef DRAUGHTS_PLATFORM_STREAM_WATCH_H_
#define DRAUGHTS_PLATFORM_STREAM_WATCH_H_

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/blocking_pool.h"
#include "platform/message_feed.h"
#include "platform/status.h"

namespace draughts::platform {

// What the pump knows of a watch: the part shared by the reactor, the pump
// and the feed's callback, which outlives the reactor while the pump still
// holds it.
class PumpedWatch {
 public:
  virtual ~PumpedWatch() = default;
  // Moves what the feed has to the client (any thread; no lock of the feed
  // held).
  virtual void Pump() = 0;
  // Ends the call with `status` (any thread; once a write in flight
  // completed).
  virtual void End(const grpc::Status& status) = 0;
};

// The thread that turns "messages arrived" into writes, and the list of
// open watches (to end them all at shutdown, and to refuse those that
// begin after it). One per service.
class WatchPump {
 public:
  WatchPump();
  ~WatchPump();  // after every watch is done
  WatchPump(const WatchPump&) = delete;
  WatchPump& operator=(const WatchPump&) = delete;

  void Ready(std::weak_ptr<PumpedWatch> watch);
  // Registers an open watch; once Drain has run, refuses it and returns
  // the status it must end with.
  std::optional<grpc::Status> Add(const std::shared_ptr<PumpedWatch>& watch);
  void Remove(const PumpedWatch* watch);
  // The server is draining: ends every open watch with `status`, and every
  // watch that begins from now on.
  void Drain(const grpc::Status& status);

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable ready_changed_;
  std::vector<std::weak_ptr<PumpedWatch>> ready_;
  std::unordered_set<std::shared_ptr<PumpedWatch>> open_;
  std::optional<grpc::Status> draining_;
  bool stopping_ = false;
  std::thread thread_;
};

template <typename Message>
struct StreamWatchOptions {
  // The stream ends with OK once a message for which this is true is
  // written (GameEnded, TableClosed); null: only the client or the server
  // ends it.
  std::function<bool(const Message&)> is_last;
  // Called when the watch begins delivering and when it is done (metrics);
  // `on_end` only after `on_start`.
  std::function<void()> on_start;
  std::function<void()> on_end;
  // Headers go out as soon as the feed is positioned, so that a client
  // knows the watch is set up before the first message comes.
  bool headers_when_positioned = false;
};

// Deletes itself when the call is done, as callback reactors do.
template <typename Message>
class StreamWatch final : public grpc::ServerWriteReactor<Message> {
 public:
  StreamWatch(WatchPump* pump, StreamWatchOptions<Message> options)
      : pump_(pump), options_(std::move(options)), state_(std::make_shared<State>()) {
    state_->reactor = this;
  }

  // Starts delivering `feed`'s messages (any thread).
  void Begin(std::unique_ptr<MessageFeed<Message>> feed) {
    if (options_.on_start) options_.on_start();
    started_ = true;
    // Once the lock is released the call may end and this reactor go away:
    // only the shared state is used after that.
    std::shared_ptr<State> state = state_;
    {
      std::lock_guard<std::mutex> lock(state->mu);
      state->begun = true;
      if (state->cancelled_before_begin) {
        state->EndLocked(ClientGone());
        return;
      }
      state->feed = std::move(feed);
      std::weak_ptr<PumpedWatch> weak = state;
      WatchPump* pump = pump_;
      if (!state->feed->SetReadyCallback([pump, weak] { pump->Ready(weak); })) {
        state->EndLocked(
            grpc::Status(grpc::StatusCode::INTERNAL, "the feed cannot signal arrivals"));
        return;
      }
      if (std::optional<grpc::Status> refused = pump_->Add(state); refused.has_value()) {
        state->EndLocked(*refused);
        return;
      }
      // Under the lock: only Finish, also under it, could end the call
      // first. OnSendInitialMetadataDone takes no lock of ours.
      if (options_.headers_when_positioned) this->StartSendInitialMetadata();
    }
    // Messages that came before the callback was set.
    state->Pump();
  }

  // Ends the call before or instead of Begin (any thread; the opener gave
  // up, or there is nothing to deliver).
  void End(const grpc::Status& status) {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->begun = true;  // nothing else will begin
    state_->EndLocked(status);
  }

  void OnWriteDone(bool ok) override {
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      state_->writing = false;
      if (!ok) {
        state_->EndLocked(ClientGone());
        return;
      }
      if (state_->finish_after_write.has_value()) {
        grpc::Status status = *state_->finish_after_write;
        state_->finish_after_write.reset();
        state_->EndLocked(status);
        return;
      }
      if (options_.is_last && options_.is_last(in_flight_)) {
        state_->EndLocked(grpc::Status::OK);
        return;
      }
    }
    state_->Pump();
  }

  void OnCancel() override {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!state_->begun) {
      state_->cancelled_before_begin = true;
      return;
    }
    state_->EndLocked(ClientGone());
  }

  void OnDone() override {
    pump_->Remove(state_.get());
    std::unique_ptr<MessageFeed<Message>> feed;
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      state_->reactor = nullptr;
      feed = std::move(state_->feed);
    }
    feed.reset();  // unregisters from the feed, no lock of ours held
    if (started_ && options_.on_end) options_.on_end();
    delete this;
  }

 private:
  struct State final : PumpedWatch {
    std::mutex mu;
    StreamWatch* reactor = nullptr;  // null once the call is done
    std::unique_ptr<MessageFeed<Message>> feed;
    std::deque<Message> queue;
    bool writing = false;
    bool finishing = false;
    // Begin or End has run; a cancellation before it waits for it (the
    // opener still holds the reactor).
    bool begun = false;
    bool cancelled_before_begin = false;
    // Set when the call must end once the write in flight completes.
    std::optional<grpc::Status> finish_after_write;

    void Pump() override {
      std::unique_lock<std::mutex> lock(mu);
      if (reactor == nullptr || finishing || writing || finish_after_write.has_value() ||
          feed == nullptr) {
        return;
      }
      if (queue.empty()) {
        // Does not wait; reads Redis only to catch up over a gap.
        absl::StatusOr<std::vector<Message>> messages = feed->Next(absl::ZeroDuration());
        if (!messages.ok()) {
          EndLocked(ToGrpcStatus(messages.status()));
          return;
        }
        for (Message& message : *messages) queue.push_back(std::move(message));
      }
      if (queue.empty()) return;
      StreamWatch* writer = reactor;
      writer->in_flight_ = std::move(queue.front());
      queue.pop_front();
      writing = true;
      lock.unlock();
      writer->StartWrite(&writer->in_flight_);
    }

    void End(const grpc::Status& status) override {
      std::lock_guard<std::mutex> lock(mu);
      EndLocked(status);
    }

    // With `mu` held.
    void EndLocked(const grpc::Status& status) {
      if (finishing || reactor == nullptr) return;
      if (writing) {
        if (!finish_after_write.has_value()) finish_after_write = status;
        return;
      }
      finishing = true;
      reactor->Finish(status);
    }
  };

  static grpc::Status ClientGone() {
    return grpc::Status(grpc::StatusCode::CANCELLED, "the client went away");
  }

  WatchPump* pump_;
  StreamWatchOptions<Message> options_;
  bool started_ = false;
  std::shared_ptr<State> state_;
  Message in_flight_;
};

// Starts a StreamWatch whose feed `open` positions, on `openers` (opening
// reads Redis or asks another service: never on gRPC's threads). `open`
// returns the feed, null when there is nothing to send (the call ends with
// OK), or the status the call ends with. A drain begun meanwhile ends it
// (WatchPump::Drain).
template <typename Message>
grpc::ServerWriteReactor<Message>* OpenStreamWatch(
    WatchPump& pump, BlockingPool& openers, StreamWatchOptions<Message> options,
    std::function<absl::StatusOr<std::unique_ptr<MessageFeed<Message>>>()> open) {
  auto* watch = new StreamWatch<Message>(&pump, std::move(options));
  openers.Run([watch, open = std::move(open)] {
    absl::StatusOr<std::unique_ptr<MessageFeed<Message>>> opened = open();
    if (!opened.ok()) {
      watch->End(ToGrpcStatus(opened.status()));
    } else if (*opened == nullptr) {
      watch->End(grpc::Status::OK);
    } else {
      watch->Begin(*std::move(opened));
    }
  });
  return watch;
}

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_STREAM_WATCH_H_
