// GameCalls answered from queues the test fills, recording every request.
#ifndef DRAUGHTS_TESTS_UNIT_CLOCK_FAKE_GAME_CALLS_H_
#define DRAUGHTS_TESTS_UNIT_CLOCK_FAKE_GAME_CALLS_H_

#include <deque>
#include <vector>

#include "clock/game_calls.h"

namespace draughts::clock::testing {

class FakeGameCalls final : public GameCalls {
 public:
  absl::StatusOr<v1::PlayAutomaticMoveResponse> PlayAutomaticMove(
      const v1::PlayAutomaticMoveRequest& request) override {
    automatic_moves.push_back(request);
    return Next(automatic_answers);
  }
  absl::StatusOr<v1::RecordPresenceResponse> RecordPresence(
      const v1::RecordPresenceRequest& request) override {
    presence.push_back(request);
    return Next(presence_answers);
  }
  absl::StatusOr<v1::DeclareAbandonedResponse> DeclareAbandoned(
      const v1::DeclareAbandonedRequest& request) override {
    abandons.push_back(request);
    return Next(abandon_answers);
  }

  // Answers in order; an empty queue answers OK with a default response.
  std::deque<absl::StatusOr<v1::PlayAutomaticMoveResponse>> automatic_answers;
  std::deque<absl::StatusOr<v1::RecordPresenceResponse>> presence_answers;
  std::deque<absl::StatusOr<v1::DeclareAbandonedResponse>> abandon_answers;
  std::vector<v1::PlayAutomaticMoveRequest> automatic_moves;
  std::vector<v1::RecordPresenceRequest> presence;
  std::vector<v1::DeclareAbandonedRequest> abandons;

 private:
  template <typename T>
  static absl::StatusOr<T> Next(std::deque<absl::StatusOr<T>>& answers) {
    if (answers.empty()) return T();
    absl::StatusOr<T> answer = std::move(answers.front());
    answers.pop_front();
    return answer;
  }
};

}  // namespace draughts::clock::testing

#endif  // DRAUGHTS_TESTS_UNIT_CLOCK_FAKE_GAME_CALLS_H_
