#include "runtime/fit/Convergence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pvi {

namespace {

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

bool finitePosterior(const FittedPosterior& p) {
  if (!p.isGaussian()) return true;
  const GaussianPosterior& g = p.gaussian();
  return g.mean.allFinite() && g.covariance.allFinite() && g.variances.allFinite();
}

}  // namespace

void settleVerdict(FitResult& fit, std::size_t maxRounds) {
  fit.elbo = fit.trace.empty()
                 ? estimation::Estimate{}
                 : estimation::Estimate{fit.trace.back().freeEnergy, fit.trace.back().freeEnergyStandardError};
  const ConvergenceVerdict verdict = judgeConvergence(fit, maxRounds);
  fit.converged = verdict.converged;
  fit.usable = verdict.usable;
  fit.status = verdict.summary;
}

ConvergenceVerdict judgeConvergence(const FitResult& fit, std::size_t maxRounds) {
  ConvergenceVerdict v;
  const double elbo = fit.elbo.value;
  // Unusable results first.
  std::string failure;
  if (!std::isfinite(elbo) || !finitePosterior(fit.posterior))
    failure = "the approximation is not finite";
  else if (fit.counters.accepted == 0 && fit.counters.rejected > 0)
    failure = "every one of the " + std::to_string(fit.counters.rejected) +
              " updates was rejected: the approximation is still the prior";
  else if (elbo < kDivergedElbo)
    failure = "the fit diverged (ELBO " + number(elbo) +
              "): the approximation sits where the model's density is effectively zero";
  if (!failure.empty()) {
    v.usable = false;
    v.summary = "the fit failed: " + failure;
    return v;
  }

  std::vector<std::string> why;
  if (fit.stop == StopReason::RoundLimit)
    why.push_back("the round limit (" + std::to_string(maxRounds) + ") was reached");
  if (fit.trace.size() >= 1) {
    const std::size_t last = fit.trace.back().counters.rejected;
    const std::size_t before = fit.trace.size() >= 2 ? fit.trace[fit.trace.size() - 2].counters.rejected : 0;
    if (last > before) why.push_back(std::to_string(last - before) + " update(s) were rejected in the last round");
  }
  double best = -INFINITY, bestSe = 0.0;
  for (const support::TraceRecord& r : fit.trace)
    if (std::isfinite(r.freeEnergy) && r.freeEnergy > best) best = r.freeEnergy, bestSe = r.freeEnergyStandardError;
  const double se = std::max(std::isfinite(bestSe) ? bestSe : 0.0,
                             std::isfinite(fit.elbo.standardError) ? fit.elbo.standardError : 0.0);
  if (std::isfinite(best) && elbo < best - 4.0 * se - 1e-6 * std::abs(best))
    why.push_back("the final ELBO (" + number(elbo) + ") is below its best (" + number(best) +
                  ") by more than 4 standard errors");
  if (why.empty()) {
    v.converged = true;
    v.summary = fit.stop == StopReason::Tolerance ? "converged: a round changed q by less than the tolerance"
                                                  : "converged: the ELBO stopped rising";
    return v;
  }
  v.summary = "not converged: ";
  for (std::size_t i = 0; i < why.size(); ++i) v.summary += (i ? "; " : "") + why[i];
  return v;
}

}  // namespace pvi
