// `--algorithm sfvi` and `sfvi-avg`: SFVI (algorithms/sfvi/Sfvi.hpp) or SFVI-Avg (SfviAvg.hpp)
// over the model's partitions as silos, with
// the structured q(w_j | z) of AlgorithmChoice::locals, hyperparameters learned unless --theta
// fixes them, and the stopping rule and verdicts of the variational fits (StoppingRule.hpp,
// Convergence.hpp).
#include <algorithm>
#include <sstream>
#include <string>
#include <thread>

#include "runtime/algorithms/sfvi/Sfvi.hpp"
#include "runtime/algorithms/sfvi/SfviAvg.hpp"
#include "runtime/families/Family.hpp"
#include "runtime/fit/Convergence.hpp"
#include "runtime/fit/Fit.hpp"
#include "runtime/fit/StoppingRule.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi {

namespace {

std::string shortNumber(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

}  // namespace

template <class Family>
FitResult runSfviFit(const FactorModel& model, const FitOptions& o, const AlgorithmChoice& choice,
                     const RoundCallback& afterRound) {
  algorithms::SfviOptions<Family> so;
  so.rounds = choice.rounds;
  so.iterationsPerRound = o.iterationsPerRound;
  so.learningRate = o.learningRate;
  so.initialSd = o.initialSd;
  so.samples = o.samples;
  so.innerDraws = choice.innerDraws;
  so.laplaceLocals = choice.laplaceLocals;
  so.refineSamples = choice.refineSamples;
  so.seed = o.seed;
  // One draw of z serves every silo (each evaluates its term there), so a draw costs one pass over
  // the data, as one draw per client does in PVI; 16 times as many keep the noise control's
  // comparisons of rounds meaningful (Six Cities: standard error 3 with 64 draws, 0.8 with 1024).
  so.elboSamples = 16 * o.elboSamples;
  so.threads = support::threadsFor(o.threads);
  so.theta = o.theta;
  so.learnTheta = o.theta.empty();
  so.localShape = localShapeOf(choice.locals);
  so.shapedGlobals = choice.skewedGlobals;
  if (!o.theta.empty() && o.theta.size() != model.hyperDim())
    throw FitConfigurationError("the model has " + std::to_string(model.hyperDim()) + " hyperparameters, but " +
                                std::to_string(o.theta.size()) + " values were given");

  FitResult result;
  result.choice = choice;
  StoppingRule stopping{o.patience};
  so.afterRound = [&](const support::TraceRecord& rec, const typename Family::Standard& q) {
    result.trace.push_back(rec);
    if (afterRound) afterRound(rec, choice);
    const bool plateaued = stopping.update(rec, q.m, marginalSds(q));
    if (plateaued) stopping = StoppingRule{o.patience};  // a refinement stage needs a plateau of its own
    return plateaued;
  };
  const algorithms::SfviResult<Family> r = choice.algorithm == Algorithm::SfviAvg
                                               ? algorithms::runSfviAvg<Family>(model, so)
                                               : algorithms::runSfvi<Family>(model, so);

  result.theta = r.theta;
  result.prior =
      std::string("the server evaluates log p(z, theta) at every draw (") + algorithmName(choice.algorithm) + ")";
  result.start = o.initialSd == 1.0
                     ? std::string("started at N(0, I) on the unconstrained scale, every q(w | z) at N(0, I)")
                     : "started at N(0, " + shortNumber(o.initialSd) +
                           "^2 I) on the unconstrained scale (--initial-sd), every q(w | z) alike";
  if (model.hyperDim() > 0)
    result.prior += so.learnTheta ? "; hyperparameters learned as point estimates (empirical Bayes)"
                                  : "; hyperparameters fixed by --theta";
  result.rounds = r.rounds;
  result.seconds = r.seconds;
  result.stop = r.stoppedEarly ? StopReason::ElboPlateau : StopReason::RoundLimit;
  GaussianPosterior posterior = gaussianPosterior(r.q, r.locals);
  posterior.shape = r.globalShape;
  posterior.innerDraws = so.innerDraws;
  posterior.laplaceLocals = so.laplaceLocals;
  result.posterior = std::move(posterior);
  result.counters = r.counters;
  result.events = r.events;
  settleVerdict(result, choice.rounds);
  if (result.usable && !r.fellBack.empty()) {  // q is an earlier round's: never "converged"
    result.converged = false;
    result.status = "not converged: " + r.fellBack;
  }
  return result;
}

template FitResult runSfviFit<FullGaussian>(const FactorModel&, const FitOptions&, const AlgorithmChoice&,
                                            const RoundCallback&);
template FitResult runSfviFit<MeanFieldGaussian>(const FactorModel&, const FitOptions&, const AlgorithmChoice&,
                                                 const RoundCallback&);

}  // namespace pvi
