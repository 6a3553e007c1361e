#include "runtime/algorithms/pvi/LocalOptimiserAdam.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <exception>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "runtime/algorithms/pvi/ConditionalCoordinates.hpp"
#include "runtime/algorithms/pvi/LocalGradient.hpp"
#include "runtime/algorithms/pvi/WhitenedCoordinates.hpp"
#include "runtime/estimation/Expectations.hpp"
#include "runtime/families/Family.hpp"
#include "runtime/optim/Adam.hpp"
#include "runtime/optim/RunningMean.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::algorithms {
namespace {

// The standard form from the root already computed (no second exponentiation / validity check).
FullStandard standardOf(const FullStable& s, const Eigen::MatrixXd& L) {
  return {s.m, symmetricPart(L * L.transpose())};
}
MeanFieldStandard standardOf(const MeanFieldStable& s, const Eigen::VectorXd& sd) { return {s.m, sd.cwiseProduct(sd)}; }

std::vector<std::size_t> drawMiniBatch(std::size_t n, std::size_t size, std::mt19937_64& rng) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  for (std::size_t i = 0; i < size; ++i) {  // partial Fisher-Yates
    const std::size_t j = i + static_cast<std::size_t>(support::uniform01(rng) * static_cast<double>(n - i));
    std::swap(all[i], all[std::min(j, n - 1)]);
  }
  all.resize(size);
  return all;
}

}  // namespace

template <class Family>
AdamOptimiser<Family>::AdamOptimiser(AdamOptions options) : options_(options) {
  if (!(options_.learningRate > 0.0)) throw std::invalid_argument("AdamOptions: learningRate must be > 0");
  if (!(options_.finalLearningRateFraction >= 0.0 && options_.finalLearningRateFraction <= 1.0))
    throw std::invalid_argument("AdamOptions: finalLearningRateFraction must be in [0, 1]");
  if (!(options_.averageFrom >= 0.0 && options_.averageFrom <= 1.0))
    throw std::invalid_argument("AdamOptions: averageFrom must be in [0, 1]");
  if (options_.steps == 0 || options_.samples == 0)
    throw std::invalid_argument("AdamOptions: steps and samples must be positive");
}

template <class Family>
federation::LocalSolution<Family> AdamOptimiser<Family>::optimise(const federation::LocalProblem<Family>& p) const {
  using Stable = typename Family::Stable;
  federation::LocalSolution<Family> sol;
  try {
    const estimation::LocalLikelihood& f = *p.likelihood;
    if (options_.miniBatchSize > 0 && f.numObservations() == 0)
      throw std::invalid_argument("mini-batching requested but the likelihood cannot evaluate subsets");
    std::mt19937_64 rng(p.seed);
    // Adam works in white coordinates (WhitenedCoordinates.hpp) relative to the received q and,
    // for q(w), relative to the starting q(w): every parameter starts at 0 and a step is measured
    // in standard deviations, whatever the units of the data.
    // From the warm start when there is one (the whitening origin is then the warm start).
    Stable st = toStable(toStandard(p.start ? *p.start : p.posterior));
    const auto origin = whiteningOrigin(st);
    Stable white = whiteOrigin(origin);
    const auto nz = static_cast<Eigen::Index>(stableSize(st));
    // q(w | z) is anchored at q(z)'s current mean throughout (the paper's parameterisation), and
    // its white coordinates are relative to the conditional the update starts from.
    std::optional<ConditionalGaussian> locals;
    ConditionalOrigin localOrigin;
    if (p.locals) {
      locals = reanchored(*p.locals, st.m);
      localOrigin = conditionalOrigin(*locals, reparamRoot(st));
    }
    const Eigen::Index nl = locals ? localOrigin.size : 0;
    // The variational parameters: q(z)'s white coordinates, then q(w | z)'s.
    Eigen::VectorXd params = Eigen::VectorXd::Zero(nz + nl);
    optim::AdamState adam(params.size());
    const optim::AdamSettings settings{options_.beta1, options_.beta2, options_.epsilon};
    Eigen::VectorXd grad(params.size());
    optim::RunningMean averaged;
    // The early-stopping windows: the objective's sum and sum of squares over the current window,
    // the best window's mean and variance of the mean, and the iterates' sums over the windows
    // since the best (the plateau's average if the optimiser stops).
    double best = -std::numeric_limits<double>::infinity(), bestVariance = 0.0;
    double windowSum = 0.0, windowSquares = 0.0, windowShift = 0.0;
    std::size_t windowCount = 0, badWindows = 0;
    Eigen::VectorXd windowIterates = Eigen::VectorXd::Zero(params.size());
    std::deque<Eigen::VectorXd> plateau;
    estimation::EstimationOptions est{options_.samples, options_.useExactExpectations, nullptr};
    std::vector<std::size_t> rows;
    const std::size_t nObs = f.numObservations();
    const std::size_t batch = std::min(options_.miniBatchSize, nObs);

    // q(z)'s stable parameters and q(w) from the flat vector.
    const auto unpack = [&] {
      unflattenStable(params.head(nz), white);
      st = fromWhite(origin, white);
      if (nl > 0) locals = fromWhite(localOrigin, params.tail(nl), st.m);
    };
    for (std::size_t t = 1; t <= options_.steps; ++t) {
      unpack();
      if (batch > 0 && batch < nObs) {
        rows = drawMiniBatch(nObs, batch, rng);
        est.miniBatch = &rows;
      }
      const auto root = reparamRoot(st);
      const estimation::ExpectedDerivatives<Family> e =
          estimation::estimateDerivatives<Family>(f, st.m, root, locals ? &*locals : nullptr, est, rng);
      const EarlyStopping& es = options_.earlyStopping;
      // The objective only where it is read (a shaped q(w | z)'s entropy costs quadrature per local).
      const bool objectiveRead = es.window > 0 || t == options_.steps;
      const double objective =
          objectiveRead ? federation::localObjective(p.cavity, standardOf(st, root), e.value, locals) : 0.0;
      if (t == 1) sol.initialExpectedLogLik = e.value;
      if (objectiveRead) sol.objective = objective;
      sol.steps = t;

      flattenStable(whiteGradientOf(origin, white, st, root, e, p.cavity), grad.head(nz));
      if (nl > 0) whiteGradient(localOrigin, *locals, e.local, grad.tail(nl));
      if (!grad.allFinite()) throw std::runtime_error("non-finite gradient of the local free energy");

      optim::adamAscend(
          adam, params, grad,
          optim::linearlyDecayed(options_.learningRate, options_.finalLearningRateFraction, t, options_.steps),
          settings);
      if (static_cast<double>(t) > options_.averageFrom * static_cast<double>(options_.steps)) {
        averaged.add(params);
      }

      if (es.window > 0) {
        if (windowCount == 0) windowShift = objective;  // sums about the first value: no cancellation
        windowSum += objective - windowShift;
        windowSquares += (objective - windowShift) * (objective - windowShift);
        windowIterates += params;
        if (++windowCount == es.window) {
          const double n = static_cast<double>(es.window);
          const double shifted = windowSum / n, mean = windowShift + shifted;
          const double variance = std::max(0.0, windowSquares / n - shifted * shifted) / std::max(1.0, n - 1.0);
          const double margin = std::max(es.standardErrors * std::sqrt(variance + bestVariance),
                                         es.tolerance * std::max(1.0, std::abs(best)));
          // The first finite window always counts; a non-finite one never does.
          if (std::isfinite(mean) && !(mean <= best + margin)) {
            best = mean;
            bestVariance = variance;
            badWindows = 0;
            plateau.clear();
          } else {
            ++badWindows;
          }
          plateau.push_back(windowIterates / n);
          windowSum = windowSquares = 0.0;
          windowCount = 0;
          windowIterates.setZero();
          if (badWindows >= es.patience) {
            sol.stoppedEarly = true;
            // The plateau: the best window and those after it (equal weights: equal lengths).
            averaged = optim::RunningMean();
            for (const Eigen::VectorXd& w : plateau) averaged.add(w);
            break;
          }
        }
      }
    }
    if (!averaged.empty()) params = averaged.mean();  // the average of the last iterates (see AdamOptions)
    unpack();
    const typename Family::Natural qNew = toNatural(toStandard(st));
    sol.change = qNew - p.posterior;
    if (!allFinite(sol.change)) throw std::runtime_error("non-finite change of the natural parameters");
    sol.locals = locals;
    sol.ok = true;
  } catch (const std::exception& e) {
    sol.ok = false;
    sol.reason = e.what();
  }
  return sol;
}

#define PVI_INSTANTIATE(F) template class AdamOptimiser<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
