#pragma once
// Whether a sampler's chains mixed: R-hat and ESS of every parameter (runtime/diagnostics/),
// divergences and tree-depth hits, against Stan's thresholds (docs/sampling.md).
#include <string>
#include <vector>

#include "runtime/fit/Fit.hpp"

namespace pvi {

// Stan's thresholds for a warning, and ours for "plainly did not mix" (the fit failed).
inline constexpr double kRhatWarning = 1.01;
inline constexpr double kEssWarning = 400.0;
inline constexpr double kRhatFailure = 1.1;

// `names` names the columns of `posterior.draws`.
MixingSummary summariseMixing(const SampledPosterior& posterior, const std::vector<std::string>& names);

}  // namespace pvi
