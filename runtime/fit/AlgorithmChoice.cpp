#include "runtime/fit/AlgorithmChoice.hpp"

#include <algorithm>
#include <sstream>

namespace pvi {

namespace {

// Above this global dimension a full covariance costs too much per message (D(D+3)/2 numbers)
// and per local step (a D x D Cholesky), so auto uses the mean-field family.
constexpr std::size_t kFullCovarianceMaxDim = 200;
// "A small global dimension" in the design's rule: EP-mu would be preferred below it.
constexpr std::size_t kSmallGlobalDim = 20;
constexpr std::size_t kDefaultRounds = 30;

std::string notImplemented(Algorithm a) {
  return "algorithm '" + algorithmName(a) +
         "' is not implemented yet; use --algorithm pvi (or auto, which picks among implemented algorithms)";
}

}  // namespace

AlgorithmChoice chooseAlgorithm(const ModelShape& shape, const FitOptions& o) {
  if (o.algorithm != Algorithm::Auto && o.algorithm != Algorithm::Pvi)
    throw FitConfigurationError(notImplemented(o.algorithm));
  if (o.damping != 0.0 && !(o.damping > 0.0 && o.damping <= 1.0))
    throw FitConfigurationError("damping must be in (0, 1], got " + std::to_string(o.damping));
  if (o.localSteps == 0) throw FitConfigurationError("the number of local steps must be positive");
  if (o.samples == 0) throw FitConfigurationError("the number of Monte Carlo samples must be positive");
  if (o.roundBudget && *o.roundBudget == 0) throw FitConfigurationError("the round budget must be positive");
  if (!(o.tolerance >= 0.0)) throw FitConfigurationError("the tolerance must be non-negative");
  if (!(o.learningRate > 0.0)) throw FitConfigurationError("the learning rate must be positive");

  AlgorithmChoice c;
  c.algorithm = Algorithm::Pvi;
  c.family = o.family ? *o.family : shape.globalDim <= kFullCovarianceMaxDim ? FamilyKind::Full : FamilyKind::MeanField;
  // Sequential PVI with rho = 1 needs the fewest rounds (one pass is assumed density filtering);
  // synchronous PVI runs clients in parallel but must be damped by about 1 / M.
  c.schedule = o.schedule ? *o.schedule : shape.localDim == 0 ? ScheduleKind::Synchronous : ScheduleKind::Sequential;
  const std::size_t participants = std::max<std::size_t>(shape.partitions, 1) + 1;  // + the refined prior
  c.damping = o.damping != 0.0                         ? o.damping
              : c.schedule == ScheduleKind::Sequential ? 1.0
                                                       : std::min(1.0, 2.0 / static_cast<double>(participants));
  c.rounds = o.rounds != 0 ? o.rounds : kDefaultRounds;
  if (o.roundBudget) c.rounds = std::min(c.rounds, *o.roundBudget);

  std::ostringstream why;
  if (o.algorithm == Algorithm::Pvi) {
    why << "pvi as requested";
  } else if (shape.localDim == 0) {
    why << "pvi: the model has no local latents";
  } else if (shape.globalDim <= kSmallGlobalDim) {
    why << "pvi: the model has local latents and " << shape.globalDim
        << " global dimensions, where ep-mu would be preferred, but ep-mu is not implemented yet";
  } else {
    why << "pvi: the model has local latents and " << shape.globalDim << " global dimensions, where "
        << (o.roundBudget ? "sfvi-avg" : "sfvi") << " would be preferred, but it is not implemented yet";
  }
  why << " (" << scheduleName(c.schedule) << " schedule, " << familyName(c.family) << " Gaussian over "
      << shape.globalDim << " dimensions, " << shape.partitions << " partitions, up to " << c.rounds
      << " rounds, damping " << c.damping << ")";
  c.reason = why.str();
  return c;
}

}  // namespace pvi
