#include "runtime/algorithms/sfvi/Sfvi.hpp"

#include <chrono>
#include <cmath>
#include <exception>
#include <future>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>

#include "runtime/algorithms/pvi/LocalGradient.hpp"
#include "runtime/algorithms/pvi/WhitenedCoordinates.hpp"
#include "runtime/algorithms/sfvi/Silo.hpp"
#include "runtime/estimation/Expectations.hpp"
#include "runtime/families/Family.hpp"
#include "runtime/optim/Adam.hpp"
#include "runtime/support/Seeds.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi::algorithms {
namespace {

Eigen::MatrixXd rootOf(const FullStable& s) { return choleskyFactor(s); }
Eigen::VectorXd rootOf(const MeanFieldStable& s) { return standardDeviations(s); }

// Numbers in q(z)'s parameters as sent: mean and the lower triangle of L (full), or mean and sds.
std::size_t qNumbers(const FullStandard& q) {
  const auto d = static_cast<std::size_t>(q.dim());
  return d + d * (d + 1) / 2;
}
std::size_t qNumbers(const MeanFieldStandard& q) { return 2 * static_cast<std::size_t>(q.dim()); }

}  // namespace

template <class Family>
SfviResult<Family> runSfvi(const FactorModel& model, const SfviOptions<Family>& o) {
  using Stable = typename Family::Stable;
  using Standard = typename Family::Standard;
  using Traits = FamilyTraits<Family>;
  if (o.rounds == 0 || o.iterationsPerRound == 0 || o.samples == 0)
    throw std::invalid_argument("sfvi: rounds, iterations per round and samples must be positive");
  if (!(o.learningRate > 0.0)) throw std::invalid_argument("sfvi: the learning rate must be positive");
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  const std::size_t J = model.numPartitions();
  const auto h = static_cast<Eigen::Index>(model.hyperDim());
  std::vector<double> theta = o.theta.empty() ? std::vector<double>(static_cast<std::size_t>(h), 0.0) : o.theta;
  if (theta.size() != static_cast<std::size_t>(h))
    throw std::invalid_argument("sfvi: the model has " + std::to_string(h) + " hyperparameters, " +
                                std::to_string(theta.size()) + " values given");
  const bool learnTheta = o.learnTheta && h > 0;

  // The silos, each with its own likelihood and q(w_j | z).
  std::vector<std::unique_ptr<SfviSilo<Family>>> silos;
  for (std::size_t j = 0; j < J; ++j) {
    const auto dw = static_cast<Eigen::Index>(model.localDim(j));
    ConditionalGaussian start = ConditionalGaussian::independent(Eigen::VectorXd::Zero(dw), Eigen::VectorXd::Ones(dw));
    if (dw > 0) start = withShape(start, o.localShape, d);
    silos.push_back(std::make_unique<SfviSilo<Family>>(
        std::make_shared<estimation::PartitionLikelihood>(model, j, theta), std::move(start)));
  }
  const estimation::PriorLikelihood prior(model, theta);

  Standard q0 = o.start ? *o.start : Traits::isotropic(d, 1.0);
  Stable st = toStable(q0);
  auto origin = whiteningOrigin(st);
  Stable white = whiteOrigin(origin);
  const auto nz = static_cast<Eigen::Index>(stableSize(st));
  Eigen::VectorXd params = Eigen::VectorXd::Zero(nz + (learnTheta ? h : 0));
  if (learnTheta) params.tail(h) = Eigen::Map<const Eigen::VectorXd>(theta.data(), h);
  optim::AdamState adam(params.size());
  Eigen::VectorXd averaged;
  std::size_t averagedSteps = 0;
  const typename Family::Natural flat = Family::Natural::flat(d);

  std::mt19937_64 serverRng(support::deriveSeed(o.seed, 0x5f71ULL));
  std::vector<std::mt19937_64> siloRngs;
  for (std::size_t j = 0; j < J; ++j) siloRngs.emplace_back(support::deriveSeed(o.seed, 0x5f72ULL, j));
  std::unique_ptr<support::ThreadPool> pool;
  if (o.threads > 1 && J > 1) pool = std::make_unique<support::ThreadPool>(std::min(o.threads, J));

  SfviResult<Family> result;
  const auto t0 = std::chrono::steady_clock::now();
  const auto unpack = [&] {
    unflattenStable(params.head(nz), white);
    st = fromWhite(origin, white);
    if (learnTheta)
      for (Eigen::Index i = 0; i < h; ++i) theta[static_cast<std::size_t>(i)] = params[nz + i];
  };
  // Every silo's reply at q(z) = (m, root), in silo order (the sum's order does not depend on the
  // threads). learningRate 0: evaluate only.
  const auto ask = [&](const Eigen::VectorXd& m, const typename Traits::Root& root, const Eigen::MatrixXd& eps,
                       const std::vector<Eigen::MatrixXd>& xi, double learningRate) {
    std::vector<SiloReply<Family>> replies(J);
    const auto one = [&](std::size_t j) {
      try {
        replies[j] = silos[j]->step(m, root, theta, eps, xi[j], learningRate);
      } catch (const std::exception& e) {
        throw std::runtime_error("sfvi: partition '" + model.partitionLabel(j) + "': " + e.what());
      }
    };
    if (pool) {
      std::vector<std::future<void>> done;
      for (std::size_t j = 0; j < J; ++j) done.push_back(pool->submit([&one, j] { one(j); }));
      // Every task finishes before anything is rethrown: they use this frame's replies.
      std::exception_ptr first;
      for (auto& f : done) try {
          f.get();
        } catch (...) {
          if (!first) first = std::current_exception();
        }
      if (first) std::rethrow_exception(first);
    } else {
      for (std::size_t j = 0; j < J; ++j) one(j);
    }
    return replies;
  };
  const auto localNoise = [&](std::uint64_t stream, std::size_t j, Eigen::Index n, std::mt19937_64& rng) {
    const auto dw = static_cast<Eigen::Index>(model.localDim(j));
    if (o.localNoise) return o.localNoise(stream, j, dw, n);
    return standardNormals(dw, n, rng);
  };
  const std::size_t perSiloUp = qNumbers(q0) + static_cast<std::size_t>(h);
  std::size_t samples = o.samples;

  // The best round so far, for the noise control (see Sfvi.hpp).
  struct Snapshot {
    Stable st;
    std::vector<double> theta;
    std::vector<ConditionalGaussian> locals;
    double elbo = -std::numeric_limits<double>::infinity(), se = 0.0;
    std::size_t round = 0;
  };
  Snapshot best;
  const auto resetOptimiser = [&] {
    origin = whiteningOrigin(st);
    white = whiteOrigin(origin);
    params.head(nz).setZero();
    if (learnTheta) params.tail(h) = Eigen::Map<const Eigen::VectorXd>(theta.data(), h);
    adam = optim::AdamState(params.size());
    averagedSteps = 0;
  };
  // Back to the best round with twice the draws; false when there is none to go back to or the
  // draws are at their ceiling (the caller stops).
  const auto restoreBest = [&](const std::string& why) {
    if (best.round == 0 || samples >= o.maxSamples) {
      result.events.push_back(
          why + (best.round == 0 ? ": no earlier round to go back to"
                                 : ": already at " + std::to_string(samples) + " draws per iteration; the fit stops"));
      return false;
    }
    st = best.st;
    theta = best.theta;
    const auto root = rootOf(st);
    for (std::size_t j = 0; j < J; ++j) silos[j]->reset(best.locals[j], st.m, root);
    resetOptimiser();
    samples = std::min(2 * samples, o.maxSamples);
    result.events.push_back(why + ": back to round " + std::to_string(best.round) + "'s q with " +
                            std::to_string(samples) + " draws per iteration");
    result.fellBack = why + ", and the fit went back to round " + std::to_string(best.round) +
                      "'s q, which no later round has beaten";
    return true;
  };

  std::size_t iteration = 0;
  for (std::size_t round = 1; round <= o.rounds; ++round) {
    const Standard before = toStandard(st);
    const double rate = o.learningRate / std::sqrt(static_cast<double>(round));
    bool failed = false;
    for (std::size_t k = 1; k <= o.iterationsPerRound; ++k) {
      ++iteration;
      try {
        const auto root = rootOf(st);
        const auto n = static_cast<Eigen::Index>(samples);
        const Eigen::MatrixXd eps = standardNormals(d, n, serverRng);
        std::vector<Eigen::MatrixXd> xi(J);
        for (std::size_t j = 0; j < J; ++j) xi[j] = localNoise(iteration, j, n, siloRngs[j]);
        const bool averageNow = 2 * k > o.iterationsPerRound;
        if (averageNow && 2 * (k - 1) <= o.iterationsPerRound)
          for (auto& s : silos) s->startAveraging();
        const std::vector<SiloReply<Family>> replies = ask(st.m, root, eps, xi, rate);
        // The server's own term log p(z, theta) at the same draws, then the silos' in order.
        estimation::EstimationOptions po;
        po.preferExact = false;
        po.eps = &eps;
        po.theta = h > 0 ? &theta : nullptr;
        std::mt19937_64 unused(0);
        estimation::ExpectedDerivatives<Family> e =
            estimation::estimateDerivatives<Family>(prior, st.m, root, nullptr, po, unused);
        for (const SiloReply<Family>& r : replies) {
          e.gradZ += r.gradZ;
          e.crossZ += r.crossZ;
          if (h > 0) e.gradTheta += r.gradTheta;
        }
        Eigen::VectorXd grad(params.size());
        flattenStable(whiteGradientOf(origin, white, st, root, e, flat), grad.head(nz));
        if (learnTheta) grad.tail(h) = e.gradTheta;
        if (!grad.allFinite()) throw std::runtime_error("non-finite gradient of the ELBO");
        optim::adamAscend(adam, params, grad, rate);
        if (averageNow) {
          averaged = averagedSteps == 0
                         ? params
                         : Eigen::VectorXd(averaged + (params - averaged) / static_cast<double>(averagedSteps + 1));
          ++averagedSteps;
        }
        unpack();
        const std::size_t perSiloDown =
            qNumbers(q0) + static_cast<std::size_t>(h) + static_cast<std::size_t>(d) * samples;
        result.counters.messagesDown += J;
        result.counters.messagesUp += J;
        result.counters.bytesDown += J * perSiloDown * sizeof(double);
        result.counters.bytesUp += J * perSiloUp * sizeof(double);
        ++result.counters.serverUpdates;
        result.counters.accepted += J;
        if (o.afterIteration) o.afterIteration(iteration, toStandard(st), theta);
      } catch (const std::runtime_error& e) {
        if (!restoreBest("round " + std::to_string(round) + ", iteration " + std::to_string(iteration) + ": " +
                         e.what()))
          throw;
        failed = true;
        break;
      }
    }
    if (failed) continue;
    // The round's result: the averaged iterate; the next round starts there, in fresh white
    // coordinates and Adam states (the silos too).
    if (averagedSteps > 0) {
      params = averaged;
      unpack();
    }
    const auto root = rootOf(st);
    for (auto& s : silos) s->rebase(st.m, root, true);
    resetOptimiser();

    // ELBO = E[log p(z, theta) + sum_j (f_j + H(q(w_j | z)))] + H(q(z)), at fresh shared draws.
    const auto ne = static_cast<Eigen::Index>(std::max<std::size_t>(o.elboSamples, 2));
    std::mt19937_64 evalRng(support::deriveSeed(o.seed, 0xe1b0ULL, round));
    const Eigen::MatrixXd eps = standardNormals(d, ne, evalRng);
    std::vector<Eigen::MatrixXd> xi(J);
    for (std::size_t j = 0; j < J; ++j) {
      std::mt19937_64 r(support::deriveSeed(o.seed, 0xe1b1ULL, round, j));
      xi[j] = localNoise(kElboStream | round, j, ne, r);
    }
    double mean = -std::numeric_limits<double>::infinity(), se = 0.0;
    try {
      const std::vector<SiloReply<Family>> replies = ask(st.m, root, eps, xi, 0.0);
      estimation::EstimationOptions po;
      po.preferExact = false;
      po.eps = &eps;
      po.theta = h > 0 ? &theta : nullptr;
      std::mt19937_64 unused(0);
      Eigen::VectorXd total =
          estimation::estimateDerivatives<Family>(prior, st.m, root, nullptr, po, unused).drawValues;
      for (const SiloReply<Family>& r : replies) total += r.values;
      mean = total.mean() + entropy(toStandard(st));
      se = std::sqrt((total.array() - total.mean()).square().sum() / static_cast<double>(ne - 1) /
                     static_cast<double>(ne));
    } catch (const std::runtime_error& e) {
      result.events.push_back("round " + std::to_string(round) + ": the ELBO is not finite (" + e.what() + ")");
    }
    result.counters.evaluationMessages += 2 * J;
    result.counters.rounds = round;
    support::TraceRecord rec;
    rec.round = round;
    rec.counters = result.counters;
    rec.freeEnergy = mean;
    rec.freeEnergyStandardError = se;
    if (std::isfinite(mean) && mean > best.elbo) {
      best.st = st;
      best.theta = theta;
      best.locals.clear();
      for (auto& s : silos) best.locals.push_back(s->localDim() > 0 ? s->conditional(st.m) : ConditionalGaussian{});
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
    const Standard q = toStandard(st);
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
  result.q = toStandard(st);
  result.theta = theta;
  for (std::size_t j = 0; j < J; ++j)
    result.locals.push_back(model.localDim(j) > 0 ? silos[j]->conditional(st.m) : ConditionalGaussian{});
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

#define PVI_INSTANTIATE(F) template SfviResult<F> runSfvi<F>(const FactorModel&, const SfviOptions<F>&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
