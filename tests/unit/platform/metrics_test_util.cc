#include "metrics_test_util.h"

#include <vector>

#include "prometheus/metric_family.h"

namespace draughts::platform::testing {
namespace {

bool LabelsEqual(const prometheus::ClientMetric& metric,
                 const std::map<std::string, std::string>& labels) {
  if (metric.label.size() != labels.size()) return false;
  for (const prometheus::ClientMetric::Label& label : metric.label) {
    auto it = labels.find(label.name);
    if (it == labels.end() || it->second != label.value) return false;
  }
  return true;
}

}  // namespace

std::optional<prometheus::ClientMetric> FindMetric(
    prometheus::Registry& registry, const std::string& name,
    const std::map<std::string, std::string>& labels) {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const prometheus::ClientMetric& metric : family.metric) {
      if (LabelsEqual(metric, labels)) return metric;
    }
  }
  return std::nullopt;
}

double CounterValue(prometheus::Registry& registry, const std::string& name,
                    const std::map<std::string, std::string>& labels) {
  auto metric = FindMetric(registry, name, labels);
  return metric ? metric->counter.value : 0.0;
}

double MetricValue(prometheus::Registry& registry, const std::string& name,
                   const std::map<std::string, std::string>& labels) {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const prometheus::ClientMetric& metric : family.metric) {
      if (!LabelsEqual(metric, labels)) continue;
      return family.type == prometheus::MetricType::Gauge ? metric.gauge.value
                                                          : metric.counter.value;
    }
  }
  return 0.0;
}

uint64_t HistogramCount(prometheus::Registry& registry, const std::string& name,
                        const std::map<std::string, std::string>& labels) {
  auto metric = FindMetric(registry, name, labels);
  return metric ? metric->histogram.sample_count : 0;
}

int SeriesWithLabel(prometheus::Registry& registry, const std::string& name, const std::string& key,
                    const std::string& value) {
  int count = 0;
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const prometheus::ClientMetric& metric : family.metric) {
      for (const prometheus::ClientMetric::Label& label : metric.label) {
        if (label.name == key && label.value == value) ++count;
      }
    }
  }
  return count;
}

}  // namespace draughts::platform::testing
