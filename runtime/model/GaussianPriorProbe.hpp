#pragma once
// Recognises an exactly Gaussian prior from the prior's log density alone, for models that
// cannot declare it (a CompiledModel: the factor ABI has no such query), so that PVI can hold the
// prior exactly as factor 0 instead of refining it (Federation.hpp), and global VI and the
// baselines (which need an exact prior) can run.
//
// At the fixed hyperparameters theta, with g(z) = grad_z log p(z, theta):
//   1. the Hessian a quadratic would have, column by column: H e_i = g(e_i) - g(0);
//   2. H must be symmetric and negative definite: P = -H, m = P^{-1} g(0);
//   3. at z = 0, at every e_i and at `checkPoints` random points z ~ N(m, s^2 P^{-1}) with
//      s = 0.5, 2, 8, 0.5, ... the density must be that of N(m, P^{-1}), normaliser included,
//      and the gradient must be -P (z - m), to a relative tolerance (rounding only);
//   4. the prior must not depend on theta (grad_theta exactly 0 everywhere).
// A density that passes is quadratic along D + 1 + checkPoints points at several scales; a smooth
// non-Gaussian prior (Student-t, a log-Jacobian of a transform, a missing normaliser) fails
// step 3. D + 1 + checkPoints gradient evaluations.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/model/FactorModel.hpp"

namespace pvi {

struct PriorProbeOptions {
  std::size_t checkPoints = 6;
  double relativeTolerance = 1e-9;  // of max(1, |value|) for values, of max(1, |gradient|) for gradients
  std::uint64_t seed = 1;
  // Look for an independent (diagonal) Gaussian only, as a mean-field fit can hold nothing else:
  // step 1 is one gradient difference along the all-ones direction, P = diag(-(g(1) - g(0))),
  // and the result has `variances` instead of a D x D covariance. 2 + checkPoints gradient
  // evaluations and O(D) memory; a prior with correlations fails step 3.
  bool diagonalOnly = false;
};

struct PriorProbeResult {
  std::optional<GaussianPrior> prior;  // N(m, P^{-1}), covariance row-major
  std::string reason;                  // why not Gaussian (empty when it is)
};

PriorProbeResult probeGaussianPrior(const FactorModel& model, const std::vector<double>& theta,
                                    const PriorProbeOptions& options = {});

}  // namespace pvi
