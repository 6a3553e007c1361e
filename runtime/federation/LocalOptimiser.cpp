#include "runtime/federation/LocalOptimiser.hpp"

namespace pvi::federation {
namespace {

template <class Natural, class Standard>
double objective(const Natural& cavity, const Standard& q, double expectedF,
                 const std::optional<ConditionalGaussian>& locals) {
  double value = expectedF + inner(cavity, toMean(q)) + entropy(q);
  if (locals) value += conditionalEntropy(*locals);
  return value;
}

}  // namespace

double localObjective(const FullNatural& cavity, const FullStandard& q, double expectedF,
                      const std::optional<ConditionalGaussian>& locals) {
  return objective(cavity, q, expectedF, locals);
}

double localObjective(const MeanFieldNatural& cavity, const MeanFieldStandard& q, double expectedF,
                      const std::optional<ConditionalGaussian>& locals) {
  return objective(cavity, q, expectedF, locals);
}

}  // namespace pvi::federation
