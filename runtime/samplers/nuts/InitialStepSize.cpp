#include "runtime/samplers/nuts/InitialStepSize.hpp"

#include <cmath>

#include "runtime/samplers/nuts/SamplerError.hpp"

namespace pvi::samplers {

double initialStepSize(Nuts& nuts, const PhasePoint& point, const EuclideanMetric& metric, double eps,
                       std::mt19937_64& rng, std::size_t& gradientEvaluations) {
  if (!(eps > 0.0) || eps > 1e7 || std::isnan(eps)) return eps;
  PhasePoint z = point;
  // The change of energy over one step from `point` with a fresh momentum.
  const auto deltaH = [&] {
    z = point;
    metric.sampleMomentum(rng, z.p);
    metric.velocity(z.p, z.v);
    const double H0 = z.hamiltonian();
    nuts.leapfrog(z, metric, eps);
    ++gradientEvaluations;
    return H0 - z.hamiltonian();
  };
  const double log08 = std::log(0.8);
  const int direction = deltaH() > log08 ? 1 : -1;
  while (true) {
    const double d = deltaH();
    if (direction == 1 && !(d > log08)) break;
    if (direction == -1 && !(d < log08)) break;
    eps = direction == 1 ? 2.0 * eps : 0.5 * eps;
    if (eps > 1e7)
      throw SamplerError(
          "the step size grew without bound while searching for a first step size: the posterior "
          "may be improper (a parameter without a proper prior?)");
    if (eps == 0.0)
      throw SamplerError(
          "the step size fell to zero while searching for a first step size: the log density is "
          "not smooth or not finite near the starting point");
  }
  return eps;
}

}  // namespace pvi::samplers
