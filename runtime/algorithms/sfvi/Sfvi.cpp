#include "runtime/algorithms/sfvi/Sfvi.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

#include "runtime/algorithms/sfvi/GlobalStep.hpp"
#include "runtime/algorithms/sfvi/SiloSet.hpp"
#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::algorithms {

std::size_t sentNumbers(const FullStandard& q) {
  const auto d = static_cast<std::size_t>(q.dim());
  return d + d * (d + 1) / 2;
}
std::size_t sentNumbers(const MeanFieldStandard& q) { return 2 * static_cast<std::size_t>(q.dim()); }

template <class Family>
std::vector<double> checkedTheta(const FactorModel& model, const SfviOptions<Family>& o, const char* algorithm) {
  if (o.rounds == 0 || o.iterationsPerRound == 0 || o.samples == 0)
    throw std::invalid_argument(std::string(algorithm) + ": rounds, iterations per round and samples must be positive");
  if (!(o.learningRate > 0.0))
    throw std::invalid_argument(std::string(algorithm) + ": the learning rate must be positive");
  const std::size_t h = model.hyperDim();
  std::vector<double> theta = o.theta.empty() ? std::vector<double>(h, 0.0) : o.theta;
  if (theta.size() != h)
    throw std::invalid_argument(std::string(algorithm) + ": the model has " + std::to_string(h) + " hyperparameters, " +
                                std::to_string(theta.size()) + " values given");
  return theta;
}

template <class Family>
SfviResult<Family> runSfvi(const FactorModel& model, const SfviOptions<Family>& o) {
  using Standard = typename Family::Standard;
  using Traits = FamilyTraits<Family>;
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  const std::size_t J = model.numPartitions();
  const std::vector<double> theta0 = checkedTheta(model, o, "sfvi");
  const std::size_t h = theta0.size();
  SiloSet<Family> silos(model, o, theta0);
  const estimation::PriorLikelihood prior(model, theta0);
  const Standard q0 = o.start ? *o.start : Traits::isotropic(d, 1.0);
  GlobalStep<Family> global(q0, theta0, o.learnTheta);
  std::mt19937_64 serverRng(support::deriveSeed(o.seed, 0x5f71ULL));

  SfviResult<Family> result;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t perSiloUp = sentNumbers(q0) + h;
  std::size_t samples = o.samples;

  // The best round so far, for the noise control (see Sfvi.hpp).
  struct Snapshot {
    typename Family::Stable st;
    std::vector<double> theta;
    std::vector<ConditionalGaussian> locals;
    double elbo = -std::numeric_limits<double>::infinity(), se = 0.0;
    std::size_t round = 0;
  };
  Snapshot best;
  // Back to the best round with twice the draws; false when there is none to go back to or the
  // draws are at their ceiling (the caller stops).
  const auto restoreBest = [&](const std::string& why) {
    if (best.round == 0 || samples >= o.maxSamples) {
      result.events.push_back(
          why + (best.round == 0 ? ": no earlier round to go back to"
                                 : ": already at " + std::to_string(samples) + " draws per iteration; the fit stops"));
      return false;
    }
    global.reset(best.st, best.theta);
    const auto root = global.root();
    for (std::size_t j = 0; j < J; ++j) silos[j].reset(best.locals[j], global.mean(), root);
    samples = std::min(2 * samples, o.maxSamples);
    result.events.push_back(why + ": back to round " + std::to_string(best.round) + "'s q with " +
                            std::to_string(samples) + " draws per iteration");
    result.fellBack = why + ", and the fit went back to round " + std::to_string(best.round) +
                      "'s q, which no later round has beaten";
    return true;
  };

  std::size_t iteration = 0;
  for (std::size_t round = 1; round <= o.rounds; ++round) {
    const Standard before = global.standard();
    const double rate = o.learningRate / std::sqrt(static_cast<double>(round));
    bool failed = false;
    for (std::size_t k = 1; k <= o.iterationsPerRound; ++k) {
      ++iteration;
      try {
        const Eigen::MatrixXd eps = standardNormals(d, static_cast<Eigen::Index>(samples), serverRng);
        const bool averageNow = 2 * k > o.iterationsPerRound;
        if (averageNow && 2 * (k - 1) <= o.iterationsPerRound)
          for (std::size_t j = 0; j < J; ++j) silos[j].startAveraging();
        const std::vector<SiloReply<Family>> replies =
            silos.stepAll(global.mean(), global.root(), global.theta(), eps, iteration, rate);
        // The server's own term log p(z, theta) at the same draws, then the silos' in order.
        estimation::ExpectedDerivatives<Family> e = global.priorTerm(prior, eps);
        for (const SiloReply<Family>& r : replies) {
          e.gradZ += r.gradZ;
          e.crossZ += r.crossZ;
          if (h > 0) e.gradTheta += r.gradTheta;
        }
        global.ascend(e, rate, averageNow);
        const std::size_t perSiloDown = sentNumbers(q0) + h + static_cast<std::size_t>(d) * samples;
        result.counters.messagesDown += J;
        result.counters.messagesUp += J;
        result.counters.bytesDown += J * perSiloDown * sizeof(double);
        result.counters.bytesUp += J * perSiloUp * sizeof(double);
        ++result.counters.serverUpdates;
        result.counters.accepted += J;
        if (o.afterIteration) o.afterIteration(iteration, global.standard(), global.theta());
      } catch (const std::runtime_error& e) {
        if (!restoreBest("round " + std::to_string(round) + ", iteration " + std::to_string(iteration) + ": " +
                         e.what()))
          throw std::runtime_error(std::string("sfvi: ") + e.what());
        failed = true;
        break;
      }
    }
    if (failed) continue;
    // The round's result: the averaged iterate; the next round starts there, in fresh white
    // coordinates and Adam states (the silos too).
    global.settle();
    const auto root = global.root();
    for (std::size_t j = 0; j < J; ++j) silos[j].rebase(global.mean(), root, true);

    std::string failure;
    const auto [mean, se] = silos.elbo(global, prior, round, o.elboSamples, &failure);
    if (!failure.empty())
      result.events.push_back("round " + std::to_string(round) + ": the ELBO is not finite (" + failure + ")");
    result.counters.evaluationMessages += 2 * J;
    result.counters.rounds = round;
    support::TraceRecord rec;
    rec.round = round;
    rec.counters = result.counters;
    rec.freeEnergy = mean;
    rec.freeEnergyStandardError = se;
    if (std::isfinite(mean) && mean > best.elbo) {
      best.st = global.stable();
      best.theta = global.theta();
      best.locals.clear();
      for (std::size_t j = 0; j < J; ++j)
        best.locals.push_back(silos[j].localDim() > 0 ? silos[j].conditional(global.mean()) : ConditionalGaussian{});
      best.elbo = mean;
      best.se = se;
      best.round = round;
      result.fellBack.clear();
    } else if (!std::isfinite(mean) || mean < best.elbo - 4.0 * std::max(se, best.se)) {
      std::ostringstream why;
      why << "round " << round << ": the ELBO fell to " << mean << " from round " << best.round << "'s " << best.elbo;
      if (!restoreBest(why.str())) {
        result.fellBack = why.str() + ", with no way back (see the events)";
        break;
      }
      rec.freeEnergy = best.elbo;  // q is round best.round's again
      rec.freeEnergyStandardError = best.se;
    }
    const Standard q = global.standard();
    Eigen::MatrixXd cov;
    Eigen::VectorXd var0;
    Traits::exportMoments(before, cov, var0);
    const Eigen::VectorXd sdBefore = (var0.size() ? var0 : Eigen::VectorXd(cov.diagonal())).cwiseSqrt();
    rec.maxChange = ((q.m - before.m).cwiseAbs().cwiseQuotient(sdBefore)).maxCoeff();
    rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.trace.push_back(rec);
    result.rounds = round;
    if (o.afterRound && o.afterRound(rec, q)) {
      result.stoppedEarly = true;
      break;
    }
  }
  result.samples = samples;
  result.q = global.standard();
  result.theta = global.theta();
  for (std::size_t j = 0; j < J; ++j)
    result.locals.push_back(model.localDim(j) > 0 ? silos[j].conditional(global.mean()) : ConditionalGaussian{});
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

#define PVI_INSTANTIATE(F)                                                      \
  template SfviResult<F> runSfvi<F>(const FactorModel&, const SfviOptions<F>&); \
  template std::vector<double> checkedTheta<F>(const FactorModel&, const SfviOptions<F>&, const char*);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
