#include "runtime/fit/FitOptions.hpp"

#include <stdexcept>

namespace pvi {

const std::vector<std::string>& algorithmNames() {
  static const std::vector<std::string> names = {"auto", "pvi", "nuts", "sfvi", "sfvi-avg", "ep", "ep-eta", "ep-mu"};
  return names;
}

std::string algorithmName(Algorithm a) { return algorithmNames().at(static_cast<std::size_t>(a)); }

namespace {

// The enumerator whose name (in `names`, in enumerator order) is `name`.
template <class Enum>
Enum parseName(const std::vector<std::string>& names, const std::string& name, const char* what) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<Enum>(i);
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw std::invalid_argument(std::string("unknown ") + what + " '" + name + "' (expected one of: " + list + ")");
}

}  // namespace

Algorithm parseAlgorithm(const std::string& name) { return parseName<Algorithm>(algorithmNames(), name, "algorithm"); }

const std::vector<std::string>& scheduleNames() {
  static const std::vector<std::string> names = {"synchronous", "sequential"};
  return names;
}
std::string scheduleName(ScheduleKind s) { return scheduleNames().at(static_cast<std::size_t>(s)); }
ScheduleKind parseSchedule(const std::string& name) {
  return parseName<ScheduleKind>(scheduleNames(), name, "schedule");
}

const std::vector<std::string>& familyNames() {
  static const std::vector<std::string> names = {"full", "mean-field"};
  return names;
}
std::string familyName(FamilyKind f) { return familyNames().at(static_cast<std::size_t>(f)); }
FamilyKind parseFamily(const std::string& name) { return parseName<FamilyKind>(familyNames(), name, "family"); }

const std::vector<std::string>& localsNames() {
  static const std::vector<std::string> names = {"structured", "structured-diagonal", "skewed", "gaussian",
                                                 "independent"};
  return names;
}
std::string localsName(LocalsKind l) { return localsNames().at(static_cast<std::size_t>(l)); }
LocalsKind parseLocals(const std::string& name) { return parseName<LocalsKind>(localsNames(), name, "locals"); }
ConditionalShape localShapeOf(LocalsKind l) {
  switch (l) {
    case LocalsKind::Structured: return {true, true, true};
    case LocalsKind::StructuredDiagonal: return {true, true, false};
    case LocalsKind::Skewed: return {true, true, false, true};
    case LocalsKind::Gaussian: return {true, false, true};
    case LocalsKind::Independent: break;
  }
  return {false, false, false};
}

const std::vector<std::string>& metricNames() {
  static const std::vector<std::string> names = {"diag", "dense"};
  return names;
}
// Conditional is the EP site chains' own metric, not one a user chooses for NUTS.
std::string metricName(samplers::MetricKind m) {
  return m == samplers::MetricKind::Conditional ? "conditional" : metricNames().at(static_cast<std::size_t>(m));
}
samplers::MetricKind parseMetric(const std::string& name) {
  return parseName<samplers::MetricKind>(metricNames(), name, "metric");
}

const std::vector<std::string>& adaptationNames() {
  static const std::vector<std::string> names = {"fisher", "windowed"};
  return names;
}
std::string adaptationName(samplers::Adaptation a) { return adaptationNames().at(static_cast<std::size_t>(a)); }
samplers::Adaptation parseAdaptation(const std::string& name) {
  return parseName<samplers::Adaptation>(adaptationNames(), name, "adaptation");
}

std::size_t defaultWarmup(samplers::Adaptation a) { return a == samplers::Adaptation::Fisher ? 300 : 1000; }

}  // namespace pvi
