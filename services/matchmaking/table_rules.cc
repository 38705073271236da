#include "matchmaking/table_rules.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"
#include "platform/utf8.h"
#include "platform/variant_config.h"
#include "rules/variant.h"

namespace draughts::matchmaking {
namespace {

std::string DescribeTime(absl::Duration time) {
  if (time == absl::ZeroDuration()) return "no limit";
  return absl::FormatDuration(time);
}

}  // namespace

absl::StatusOr<TimeChoices> TimeChoicesFor(const std::string& variant,
                                           const v1::VariantOptions& options,
                                           bool allow_one_second) {
  DRAUGHTS_ASSIGN_OR_RETURN(rules::Variant rules, platform::ConfigureVariant(variant, options));
  TimeChoices choices;
  if (rules.board == rules::BoardSize::k10x10 || rules.board == rules::BoardSize::k12x12) {
    choices.offered = {absl::Seconds(30), absl::Minutes(1), absl::Minutes(2), absl::Minutes(5)};
    choices.default_time = absl::Minutes(1);
  } else {
    choices.offered = {absl::ZeroDuration(), absl::Seconds(30), absl::Seconds(60)};
    choices.default_time = absl::ZeroDuration();
  }
  if (allow_one_second) choices.offered.push_back(absl::Seconds(1));
  return choices;
}

absl::StatusOr<absl::Duration> ChooseTimePerMove(const std::string& variant,
                                                 const v1::VariantOptions& options,
                                                 const google::protobuf::Duration* requested,
                                                 bool allow_one_second) {
  DRAUGHTS_ASSIGN_OR_RETURN(TimeChoices choices,
                            TimeChoicesFor(variant, options, allow_one_second));
  if (requested == nullptr) return choices.default_time;
  DRAUGHTS_ASSIGN_OR_RETURN(absl::Duration time,
                            platform::CheckProtoDuration(*requested, "time_per_move"));
  if (std::find(choices.offered.begin(), choices.offered.end(), time) == choices.offered.end()) {
    std::vector<std::string> names;
    for (absl::Duration offered : choices.offered) names.push_back(DescribeTime(offered));
    return absl::InvalidArgumentError(absl::StrCat("time_per_move ", DescribeTime(time),
                                                   " is not offered for ", variant,
                                                   " (offered: ", absl::StrJoin(names, ", "), ")"));
  }
  return time;
}

absl::Status CheckRequester(const v1::Seat& requester) {
  if (requester.kind() == v1::SEAT_KIND_BOT) {
    return absl::InvalidArgumentError("requester must be a person or a guest, not a bot");
  }
  if (requester.kind() != v1::SEAT_KIND_PERSON && requester.kind() != v1::SEAT_KIND_GUEST) {
    return absl::InvalidArgumentError("requester is missing (kind PERSON or GUEST)");
  }
  if (requester.player_id().empty() || requester.player_id().size() > 128) {
    return absl::InvalidArgumentError("requester.player_id must be 1-128 bytes");
  }
  const std::optional<std::size_t> length = platform::CountCodePoints(requester.display_name());
  if (!length.has_value() || *length < 1 || *length > 40) {
    return absl::InvalidArgumentError("requester.display_name must be 1-40 characters");
  }
  return absl::OkStatus();
}

v1::Seat BotSeat(v1::BotLevel level, const std::string& engine_id) {
  v1::Seat seat;
  seat.set_kind(v1::SEAT_KIND_BOT);
  seat.set_bot_level(level == v1::BOT_LEVEL_UNSPECIFIED ? v1::BOT_LEVEL_MEDIUM : level);
  seat.set_engine_id(engine_id);
  if (!engine_id.empty()) {
    seat.set_display_name(absl::StrCat("Computer (", engine_id.substr(0, 29), ")"));
  } else if (seat.bot_level() == v1::BOT_LEVEL_EASY) {
    seat.set_display_name("Computer (Easy)");
  } else if (seat.bot_level() == v1::BOT_LEVEL_HARD) {
    seat.set_display_name("Computer (Hard)");
  } else {
    seat.set_display_name("Computer (Medium)");
  }
  return seat;
}

std::vector<int> SeatsOf(const v1::Table& table, const std::string& player_id) {
  std::vector<int> seats;
  if (player_id.empty()) return seats;
  for (const v1::TableSeat& seat : table.seats()) {
    if (seat.has_occupant() && seat.occupant().kind() != v1::SEAT_KIND_BOT &&
        seat.occupant().player_id() == player_id) {
      seats.push_back(seat.index());
    }
  }
  return seats;
}

bool IsOpen(const v1::TableSeat& seat) {
  return !seat.has_occupant();
}

bool HasOpenSeat(const v1::Table& table) {
  return std::any_of(table.seats().begin(), table.seats().end(), IsOpen);
}

bool HasPeople(const v1::Table& table) {
  return std::any_of(table.seats().begin(), table.seats().end(), [](const v1::TableSeat& seat) {
    return seat.has_occupant() && seat.occupant().kind() != v1::SEAT_KIND_BOT;
  });
}

v1::Color SeatZeroColor(const v1::Table& table, v1::Color creator_color,
                        const std::function<bool()>& coin) {
  const v1::Color last = table.seats(0).color();
  if (table.games_played() == 0 || last == v1::COLOR_UNSPECIFIED) {
    if (table.vs_computer() && creator_color != v1::COLOR_UNSPECIFIED) return creator_color;
    return coin() ? v1::COLOR_WHITE : v1::COLOR_BLACK;
  }
  const bool alternate =
      !table.options().has_alternate_first_player() || table.options().alternate_first_player();
  if (!alternate) return last;
  return last == v1::COLOR_WHITE ? v1::COLOR_BLACK : v1::COLOR_WHITE;
}

int PairingWindow::After(absl::Duration waited) const {
  if (waited < absl::ZeroDuration()) waited = absl::ZeroDuration();
  int64_t steps = widen_every > absl::ZeroDuration() ? waited / widen_every : 0;
  int64_t window = base + steps * static_cast<int64_t>(widen_by);
  return static_cast<int>(std::min<int64_t>(window, std::max(base, max)));
}

}  // namespace draughts::matchmaking
