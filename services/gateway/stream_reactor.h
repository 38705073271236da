// One server stream of a socket (the game socket's WatchGame; the table
// socket's WatchTable, WatchGame, WatchChat) read with gRPC's callback API:
// no thread per stream. The reactor lives until gRPC calls OnDone, then
// deletes itself; the socket keeps a StreamHandle, whose Cancel() is safe at
// any time, before or after that.
//
//   handle = StartStream<v1::GameEvent>(
//       [&](grpc::ClientContext* c, grpc::ClientReadReactor<v1::GameEvent>* r) {
//         stub.async()->WatchGame(c, &request, r); },
//       on_event, on_done);
//
// on_event and on_done run on gRPC's threads, one at a time per stream
// (post them to the socket's strand); on_done runs exactly once, last.
#ifndef DRAUGHTS_GATEWAY_STREAM_REACTOR_H_
#define DRAUGHTS_GATEWAY_STREAM_REACTOR_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/client_callback.h>

#include <functional>
#include <memory>
#include <utility>

#include "absl/synchronization/mutex.h"

namespace draughts::gateway {

// Cancels a stream whose reactor may already be gone.
class StreamHandle {
 public:
  void Cancel() {
    absl::MutexLock lock(&mu_);
    cancelled_ = true;
    if (context_ != nullptr) context_->TryCancel();
  }

 private:
  template <typename Event>
  friend class StreamReactor;
  absl::Mutex mu_;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
  grpc::ClientContext* context_ ABSL_GUARDED_BY(mu_) = nullptr;
};

template <typename Event>
class StreamReactor : public grpc::ClientReadReactor<Event> {
 public:
  using Starter = std::function<void(grpc::ClientContext*, grpc::ClientReadReactor<Event>*)>;
  using EventHandler = std::function<void(Event)>;
  using DoneHandler = std::function<void(const grpc::Status&)>;

  static std::shared_ptr<StreamHandle> Start(const Starter& starter, EventHandler on_event,
                                             DoneHandler on_done) {
    auto* reactor = new StreamReactor(std::move(on_event), std::move(on_done));
    std::shared_ptr<StreamHandle> handle = reactor->handle_;
    {
      absl::MutexLock lock(&handle->mu_);
      handle->context_ = &reactor->context_;
    }
    starter(&reactor->context_, reactor);
    reactor->StartRead(&reactor->event_);
    reactor->StartCall();
    return handle;
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // the stream ended: OnDone follows
    on_event_(std::move(event_));
    event_.Clear();
    this->StartRead(&event_);
  }

  void OnDone(const grpc::Status& status) override {
    {
      absl::MutexLock lock(&handle_->mu_);
      handle_->context_ = nullptr;
    }
    on_done_(status);
    delete this;
  }

 private:
  StreamReactor(EventHandler on_event, DoneHandler on_done)
      : handle_(std::make_shared<StreamHandle>()),
        on_event_(std::move(on_event)),
        on_done_(std::move(on_done)) {}

  std::shared_ptr<StreamHandle> handle_;
  grpc::ClientContext context_;
  Event event_;
  EventHandler on_event_;
  DoneHandler on_done_;
};

template <typename Event>
std::shared_ptr<StreamHandle> StartStream(const typename StreamReactor<Event>::Starter& starter,
                                          typename StreamReactor<Event>::EventHandler on_event,
                                          typename StreamReactor<Event>::DoneHandler on_done) {
  return StreamReactor<Event>::Start(starter, std::move(on_event), std::move(on_done));
}

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_STREAM_REACTOR_H_
