// Reads metric values back out of a prometheus registry for assertions.
#ifndef DRAUGHTS_TESTS_UNIT_PLATFORM_METRICS_TEST_UTIL_H_
#define DRAUGHTS_TESTS_UNIT_PLATFORM_METRICS_TEST_UTIL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "prometheus/registry.h"

namespace draughts::platform::testing {

// The metric of family `name` whose labels are exactly `labels`, if any.
std::optional<prometheus::ClientMetric> FindMetric(
    prometheus::Registry& registry, const std::string& name,
    const std::map<std::string, std::string>& labels);

// Counter value, 0 when the series does not exist yet.
double CounterValue(prometheus::Registry& registry, const std::string& name,
                    const std::map<std::string, std::string>& labels);

// Counter or gauge value (by the family's type), 0 when the series does not
// exist yet.
double MetricValue(prometheus::Registry& registry, const std::string& name,
                   const std::map<std::string, std::string>& labels = {});

// Number of observations of a histogram series, 0 when absent.
uint64_t HistogramCount(prometheus::Registry& registry, const std::string& name,
                        const std::map<std::string, std::string>& labels);

// Number of series of family `name` having label `key` == `value`.
int SeriesWithLabel(prometheus::Registry& registry, const std::string& name, const std::string& key,
                    const std::string& value);

}  // namespace draughts::platform::testing

#endif  // DRAUGHTS_TESTS_UNIT_PLATFORM_METRICS_TEST_UTIL_H_
