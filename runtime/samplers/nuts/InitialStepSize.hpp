#pragma once
// Stan's heuristic for a first step size (base_hmc::init_stepsize): from `stepSize`, double or
// halve it until one leapfrog step from `point` with a fresh momentum crosses an acceptance
// probability of 0.8. Used at the start of warm-up and whenever the metric changes.
#include <random>

#include "runtime/samplers/nuts/Nuts.hpp"

namespace pvi::samplers {

// Throws SamplerError when the step size runs away (above 1e7, or to 0): the posterior is
// improper or the model's density is not smooth there.
double initialStepSize(Nuts& nuts, const PhasePoint& point, const EuclideanMetric& metric, double stepSize,
                       std::mt19937_64& rng, std::size_t& gradientEvaluations);

}  // namespace pvi::samplers
