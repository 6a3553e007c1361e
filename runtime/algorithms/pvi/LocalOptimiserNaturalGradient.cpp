#include "runtime/algorithms/pvi/LocalOptimiserNaturalGradient.hpp"

#include <algorithm>
#include <exception>
#include <random>
#include <stdexcept>

#include "runtime/estimation/Expectations.hpp"
#include "runtime/families/Family.hpp"

namespace pvi::algorithms {

template <class Family>
NaturalGradientOptimiser<Family>::NaturalGradientOptimiser(NaturalGradientOptions options) : options_(options) {
  if (!(options_.stepSize > 0.0 && options_.stepSize <= 1.0))
    throw std::invalid_argument("NaturalGradientOptions: stepSize must be in (0, 1]");
  if (options_.maxSteps == 0) throw std::invalid_argument("NaturalGradientOptions: maxSteps must be positive");
}

template <class Family>
federation::LocalSolution<Family> NaturalGradientOptimiser<Family>::optimise(
    const federation::LocalProblem<Family>& p) const {
  using Natural = typename Family::Natural;
  federation::LocalSolution<Family> sol;
  try {
    std::mt19937_64 rng(p.seed);
    const estimation::EstimationOptions est{options_.samples, options_.useExactExpectations, nullptr};
    // change = eta_k' - eta_k, accumulated directly so that small steps keep their precision.
    Natural change = p.factor - p.factor;
    Natural q = p.posterior;
    std::optional<MeanFieldStandard> locals;
    if (p.locals) locals = independentLocals(*p.locals, "the natural-gradient optimiser");
    std::optional<ConditionalGaussian> conditional;
    for (std::size_t step = 0; step < options_.maxSteps; ++step) {
      const typename Family::Standard qs = toStandard(q);
      if (locals) conditional = independentConditional(*locals);
      const estimation::ExpectedDerivatives<Family> e =
          estimation::estimateDerivatives<Family>(*p.likelihood, qs, conditional ? &*conditional : nullptr, est, rng);
      if (step == 0) sol.initialExpectedLogLik = e.value;
      sol.objective = federation::localObjective(p.cavity, qs, e.value, conditional);
      sol.steps = step + 1;

      // z: eta_k <- eta_k + s (target - eta_k), with eta_k = factor + change.
      const Natural target = likelihoodNatural(qs, e.gradZ, e.hessZ);
      const Natural direction = target - (p.factor + change);
      double s = options_.stepSize;
      bool accepted = false;
      Natural candidateChange, candidateQ;
      for (std::size_t h = 0; h <= options_.maxHalvings; ++h) {
        candidateChange = change + s * direction;
        candidateQ = p.cavity + (p.factor + candidateChange);
        if (allFinite(candidateChange) && checkDistribution(candidateQ)) {
          accepted = true;
          break;
        }
        s *= 0.5;
        ++sol.innerHalvings;
      }
      if (!accepted) {
        if (step == 0) {
          sol.reason = "no valid natural-gradient step after " + std::to_string(options_.maxHalvings) + " halvings";
          return sol;
        }
        sol.stoppedEarly = true;
        break;
      }

      // w: eta_w <- eta_w + s_w (target_w - eta_w), no cavity.
      double wChange = 0.0;
      if (locals) {
        const MeanFieldNatural etaW = toNatural(*locals);
        const MeanFieldNatural targetW = likelihoodNatural(*locals, e.gradW, e.hessW);
        const MeanFieldNatural dirW = targetW - etaW;
        double sw = options_.stepSize;
        for (std::size_t h = 0; h <= options_.maxHalvings; ++h) {
          const MeanFieldNatural cand = etaW + sw * dirW;
          if (allFinite(cand) && checkDistribution(cand)) {
            locals = toStandard(cand);
            wChange = maxAbs(sw * dirW) / std::max(1.0, maxAbs(etaW));
            break;
          }
          sw *= 0.5;
          ++sol.innerHalvings;
        }
      }

      const double zChange = maxAbs(s * direction) / std::max(1.0, maxAbs(p.factor + change));
      change = candidateChange;
      q = candidateQ;
      if (std::max(zChange, wChange) <= options_.tolerance) {
        sol.stoppedEarly = true;
        break;
      }
    }
    sol.change = change;
    if (locals) sol.locals = independentConditional(*locals);
    sol.ok = true;
  } catch (const std::exception& e) {
    sol.ok = false;
    sol.reason = e.what();
  }
  return sol;
}

#define PVI_INSTANTIATE(F) template class NaturalGradientOptimiser<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
