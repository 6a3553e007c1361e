#include "runtime/algorithms/sfvi/Sfvi.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "runtime/algorithms/sfvi/GlobalStep.hpp"
#include "runtime/algorithms/sfvi/SiloSet.hpp"
#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::algorithms {

template <class Family>
SfviResult<Family> runSfvi(const FactorModel& model, const SfviOptions<Family>& o) {
  using Standard = typename Family::Standard;
  SfviRun<Family> run(model, o, "sfvi");
  SiloSet<Family>& silos = run.silos;
  GlobalStep<Family>& global = run.global;
  SfviResult<Family>& result = run.result;
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  const std::size_t J = model.numPartitions();
  const std::size_t h = run.theta0.size();
  std::mt19937_64 serverRng(support::deriveSeed(o.seed, 0x5f71ULL));
  const std::size_t perSiloUp = sentNumbers(run.start) + h;
  std::size_t samples = o.samples;

  // The best round so far, for the noise control (see Sfvi.hpp).
  struct Snapshot {
    typename Family::Stable st;
    GlobalShape shape;
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
    global.reset(best.st, best.theta, best.shape);
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
        const Eigen::MatrixXd sent = global.sendDraws(eps);
        const std::vector<SiloReply<Family>> replies =
            silos.stepAll(global.mean(), global.root(), global.theta(), sent, iteration, rate, global.shaped());
        // The server's own term log p(z, theta) at the same draws, then the silos' in order.
        estimation::ExpectedDerivatives<Family> e = global.priorTerm(run.prior, sent);
        for (const SiloReply<Family>& r : replies) {
          e.gradZ += r.gradZ;
          e.crossZ += r.crossZ;
          if (h > 0) e.gradTheta += r.gradTheta;
          if (global.shaped()) e.drawCross += r.drawCross;
        }
        global.ascend(std::move(e), rate, averageNow);
        const std::size_t perSiloDown = sentNumbers(run.start) + h + static_cast<std::size_t>(d) * samples;
        result.counters.messagesDown += J;
        result.counters.messagesUp += J;
        result.counters.bytesDown += J * perSiloDown * sizeof(double);
        // A skewed q(z) needs each silo's gradients per draw too (D numbers per draw).
        const std::size_t perDrawUp = global.shaped() ? static_cast<std::size_t>(d) * samples : 0;
        result.counters.bytesUp += J * (perSiloUp + perDrawUp) * sizeof(double);
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

    support::TraceRecord rec = run.roundRecord(round);
    const double mean = rec.freeEnergy, se = rec.freeEnergyStandardError;
    if (std::isfinite(mean) && mean > best.elbo) {
      best.st = global.stable();
      best.shape = global.shape();
      best.theta = global.theta();
      best.locals = silos.conditionals(global.mean());
      best.elbo = mean;
      best.se = se;
      best.round = round;
      result.fellBack.clear();
    } else if (!std::isfinite(mean) || mean < best.elbo - 4.0 * std::hypot(se, best.se)) {
      // (4 standard errors of the difference of two independent estimates: with max(se, best.se)
      // instead, a flat ELBO over 100 rounds tripped it by chance, as `best` is their maximum.)
      std::ostringstream why;
      why << "round " << round << ": the ELBO fell to " << mean << " from round " << best.round << "'s " << best.elbo;
      if (!restoreBest(why.str())) {
        result.fellBack = why.str() + ", with no way back (see the events)";
        break;
      }
      rec.freeEnergy = best.elbo;  // q is round best.round's again
      rec.freeEnergyStandardError = best.se;
    }
    const bool plateau = run.closeRound(rec, before);
    // A skewed q(z) first settles as a Gaussian, then its shape is freed (at the first plateau, or
    // half-way through the rounds): while q(w_j | z) are still far from their optimum, the shape's
    // gradient follows them and drives it far off (a Gaussian random-intercept model: skew 1.1
    // after the first round).
    if (global.shaped() && !global.shapeFree() && (plateau || 2 * round >= o.rounds) && round < o.rounds) {
      global.freeShape();
      result.stoppedEarly = false;
      result.events.push_back("round " + std::to_string(round) +
                              (plateau ? ": the ELBO stopped rising" : ": half the rounds are done") +
                              " with q(z) Gaussian: going on with its shape free");
      continue;
    }
    if (plateau) {
      if (samples >= o.refineSamples) break;
      result.stoppedEarly = false;
      result.events.push_back("round " + std::to_string(round) + ": the ELBO stopped rising with " +
                              std::to_string(samples) + " draws per iteration: going on with " +
                              std::to_string(std::min(2 * samples, o.refineSamples)) +
                              " (gradient noise biases q's sds low)");
      samples = std::min(2 * samples, o.refineSamples);
    }
  }
  return run.finish(samples);
}

#define PVI_INSTANTIATE(F) template SfviResult<F> runSfvi<F>(const FactorModel&, const SfviOptions<F>&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
