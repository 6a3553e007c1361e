#pragma once
// Whether a variational fit can be trusted to have converged, and whether its result is usable at
// all (docs/fitting.md, "Converged"). "Converged" needs all of:
//   - the fit stopped by itself (a round changed q by at most the tolerance, or the ELBO stopped
//     rising), not at the round limit;
//   - no update was rejected in the last round;
//   - the final ELBO is finite and near its best: within 4 Monte Carlo standard errors (of the
//     larger of the two estimates) plus 1e-6 of its size.
// "Unusable" (the fit failed; nothing that looks like a result is written) is any of:
//   - the ELBO or q is not finite;
//   - no update was ever accepted (q is where it started: the prior);
//   - the ELBO is below -1e100: q puts its mass where the model's density is effectively zero
//     (a diverged fit).
#include <string>

#include "runtime/fit/Fit.hpp"

namespace pvi {

inline constexpr double kDivergedElbo = -1e100;

struct ConvergenceVerdict {
  bool converged = false;
  bool usable = true;
  // One line: "converged (...)", or what happened ("not converged: ...", "the fit failed: ...").
  std::string summary;
};

// Of a variational fit (FitResult::trace, ::elbo, ::counters, ::posterior, ::stop); `maxRounds` is
// the round limit it ran under.
ConvergenceVerdict judgeConvergence(const FitResult& fit, std::size_t maxRounds);

// The end of a variational fit: its ELBO is the last round's estimate, and converged, usable and
// status are judgeConvergence's.
void settleVerdict(FitResult& fit, std::size_t maxRounds);

}  // namespace pvi
