#pragma once
// The Pareto k-hat of importance ratios: how heavy the right tail of w = p / q is, the diagnostic
// of Pareto-smoothed importance sampling (Vehtari, Simpson, Gelman, Yao and Gabry, "Pareto
// smoothed importance sampling", JMLR 2024) that Yao, Vehtari, Simpson and Gelman ("Yes, but did
// it work?", 2018) use to judge a variational approximation q: k-hat below 0.7 means the
// approximation is usable (and importance sampling can correct it), above 0.7 it is not. As the R
// package loo 2.5 computes it (psis with r_eff): the generalized Pareto distribution fitted to
// the largest M = ceil(min(0.2 S, 3 sqrt(S / r_eff))) ratios above the next one, by Zhang and
// Stephens' (2009) estimator with loo's weakly informative prior.
//
// The same fit smooths the ratios (Pareto-smoothed importance sampling, loo's psis): the M largest
// are replaced by the fitted distribution's quantiles at (i - 1/2) / M, and every weight is
// truncated at the largest raw ratio, which bounds the variance that one draw can add.
#include <Eigen/Core>
#include <vector>

namespace pvi::diagnostics {

// k-hat of exp(logRatios) (S draws, log p(x) - log q(x) at draws x from q, any additive constant).
// +inf when the tail has fewer than 5 draws or is constant; NaN when a ratio is NaN.
double paretoKhat(const Eigen::Ref<const Eigen::VectorXd>& logRatios, double rEff = 1.0);

// log smoothed weights (the ratios' scale: unchanged below the tail) and the k-hat of the fit.
// With a NaN ratio, khat is NaN and the weights are the ratios; with a tail too short or
// constant, khat is +inf and the weights are the ratios.
struct SmoothedWeights {
  Eigen::VectorXd logWeights;
  double khat;
};
SmoothedWeights paretoSmoothedWeights(const Eigen::Ref<const Eigen::VectorXd>& logRatios, double rEff = 1.0);

// A generalized Pareto distribution fitted to positive exceedances (sorted ascending), as loo's
// gpdfit: the shape k by Zhang and Stephens' posterior-mean estimator, shrunk towards 0.5
// (k n / (n + 10) + 5 / (n + 10)), and the scale sigma from the shape before that shrinkage.
struct GeneralizedPareto {
  double k, sigma;
};
GeneralizedPareto fitGeneralizedPareto(const std::vector<double>& sortedExceedances);

}  // namespace pvi::diagnostics
