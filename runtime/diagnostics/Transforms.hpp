#pragma once
// The transforms of Vehtari et al. (2021) applied before R-hat and ESS: rank normalisation
// (section 4.1) and folding (section 4.2).
#include "runtime/diagnostics/Draws.hpp"

namespace pvi::diagnostics {

// The rank of each draw among all draws (all chains pooled), 1 to S, ties given the average of
// their ranks (R's rank, ties.method = "average"). A NaN draw has rank NaN.
Eigen::MatrixXd averageRanks(const IterationsByChains& draws);

// z = Phi^-1((r - 3/8) / (S + 1/4)) for the average rank r of each draw among all S draws (Blom's
// offset; posterior's z_scale). A NaN draw stays NaN; infinite draws are ranked like any other.
Eigen::MatrixXd rankNormalise(const IterationsByChains& draws);

// |x - median(x)|, the median of all draws (posterior's fold_draws).
Eigen::MatrixXd fold(const IterationsByChains& draws);

}  // namespace pvi::diagnostics
