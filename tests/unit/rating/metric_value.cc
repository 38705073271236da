#include "metric_value.h"

#include <vector>

#include "prometheus/metric_family.h"

namespace draughts::rating::testing {

double MetricValue(prometheus::Registry& registry, const std::string& name,
                   const std::map<std::string, std::string>& labels) {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const prometheus::ClientMetric& metric : family.metric) {
      std::map<std::string, std::string> found;
      for (const prometheus::ClientMetric::Label& label : metric.label) {
        found[label.name] = label.value;
      }
      if (found != labels) continue;
      return family.type == prometheus::MetricType::Gauge ? metric.gauge.value
                                                          : metric.counter.value;
    }
  }
  return 0;
}

}  // namespace draughts::rating::testing
