#pragma once
// The Pareto k-hat of importance ratios: how heavy the right tail of w = p / q is, the diagnostic
// of Pareto-smoothed importance sampling (Vehtari, Simpson, Gelman, Yao and Gabry, "Pareto
// smoothed importance sampling", JMLR 2024) that Yao, Vehtari, Simpson and Gelman ("Yes, but did
// it work?", 2018) use to judge a variational approximation q: k-hat below 0.7 means the
// approximation is usable (and importance sampling can correct it), above 0.7 it is not. As the R
// package loo 2.5 computes it (psis with r_eff): the generalized Pareto distribution fitted to
// the largest M = ceil(min(0.2 S, 3 sqrt(S / r_eff))) ratios above the next one, by Zhang and
// Stephens' (2009) estimator with loo's weakly informative prior.
#include <Eigen/Core>
#include <vector>

namespace pvi::diagnostics {

// k-hat of exp(logRatios) (S draws, log p(x) - log q(x) at draws x from q, any additive constant).
// +inf when the tail has fewer than 5 draws or is constant; NaN when a ratio is NaN.
double paretoKhat(const Eigen::Ref<const Eigen::VectorXd>& logRatios, double rEff = 1.0);

// The shape k of a generalized Pareto distribution fitted to positive exceedances (sorted
// ascending) by Zhang and Stephens' posterior-mean estimator, shrunk towards 0.5 as loo does
// (k n / (n + 10) + 5 / (n + 10)). loo's gpdfit.
double generalizedParetoShape(const std::vector<double>& sortedExceedances);

}  // namespace pvi::diagnostics
