// Reads one series of a Prometheus registry in tests.
#ifndef DRAUGHTS_TESTS_UNIT_RATING_METRIC_VALUE_H_
#define DRAUGHTS_TESTS_UNIT_RATING_METRIC_VALUE_H_

#include <map>
#include <string>

#include "prometheus/registry.h"

namespace draughts::rating::testing {

// The value of the counter or gauge series with exactly these labels (0 if
// absent).
double MetricValue(prometheus::Registry& registry, const std::string& name,
                   const std::map<std::string, std::string>& labels = {});

}  // namespace draughts::rating::testing

#endif  // DRAUGHTS_TESTS_UNIT_RATING_METRIC_VALUE_H_
