#include "runtime/algorithms/pvi/LocalOptimiserGradientStep.hpp"

#include <exception>
#include <random>
#include <stdexcept>

#include "runtime/estimation/Expectations.hpp"
#include "runtime/families/Family.hpp"

namespace pvi::algorithms {

template <class Family>
GradientStepOptimiser<Family>::GradientStepOptimiser(GradientStepOptions options) : options_(options) {
  if (!(options_.learningRate > 0.0)) throw std::invalid_argument("GradientStepOptions: learningRate must be > 0");
  if (options_.steps == 0) throw std::invalid_argument("GradientStepOptions: steps must be positive");
}

template <class Family>
federation::LocalSolution<Family> GradientStepOptimiser<Family>::optimise(
    const federation::LocalProblem<Family>& p) const {
  using Natural = typename Family::Natural;
  federation::LocalSolution<Family> sol;
  try {
    std::mt19937_64 rng(p.seed);
    const estimation::EstimationOptions est{options_.samples, options_.useExactExpectations, nullptr};
    Natural change = p.factor - p.factor;  // eta_q' - eta_q
    Natural q = p.posterior;
    std::optional<MeanFieldStandard> locals;
    if (p.locals) locals = independentLocals(*p.locals, "the gradient-step optimiser");
    std::optional<ConditionalGaussian> conditional;
    for (std::size_t step = 0; step < options_.steps; ++step) {
      const typename Family::Standard qs = toStandard(q);
      if (locals) conditional = independentConditional(*locals);
      const estimation::ExpectedDerivatives<Family> e =
          estimation::estimateDerivatives<Family>(*p.likelihood, qs, conditional ? &*conditional : nullptr, est, rng);
      if (step == 0) sol.initialExpectedLogLik = e.value;
      sol.objective = federation::localObjective(p.cavity, qs, e.value, conditional);
      sol.steps = step + 1;

      // Natural gradient of F_k at q', then the Euclidean gradient C * (natural gradient). At the
      // first step q' = q and eta_cav - eta_q' = -eta_k exactly.
      const Natural natural = step == 0 ? likelihoodNatural(qs, e.gradZ, e.hessZ) - p.factor
                                        : likelihoodNatural(qs, e.gradZ, e.hessZ) + p.cavity - q;
      const Natural gradient = fisherProduct(qs, natural);
      double lr = options_.learningRate;
      bool accepted = false;
      for (std::size_t h = 0; h <= options_.maxHalvings; ++h) {
        const Natural candidateChange = change + lr * gradient;
        const Natural candidateQ = p.posterior + candidateChange;
        if (allFinite(candidateChange) && checkDistribution(candidateQ)) {
          change = candidateChange;
          q = candidateQ;
          accepted = true;
          break;
        }
        lr *= 0.5;
        ++sol.innerHalvings;
      }
      if (!accepted) {
        if (step == 0) {
          sol.reason = "no valid gradient step after " + std::to_string(options_.maxHalvings) + " halvings";
          return sol;
        }
        sol.stoppedEarly = true;
        break;
      }
      if (locals) {
        const MeanFieldNatural etaW = toNatural(*locals);
        const MeanFieldNatural gradW = fisherProduct(*locals, likelihoodNatural(*locals, e.gradW, e.hessW) - etaW);
        double lrw = options_.learningRate;
        for (std::size_t h = 0; h <= options_.maxHalvings; ++h) {
          const MeanFieldNatural cand = etaW + lrw * gradW;
          if (allFinite(cand) && checkDistribution(cand)) {
            locals = toStandard(cand);
            break;
          }
          lrw *= 0.5;
          ++sol.innerHalvings;
        }
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

#define PVI_INSTANTIATE(F) template class GradientStepOptimiser<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
