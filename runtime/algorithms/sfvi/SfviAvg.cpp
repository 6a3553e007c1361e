#include "runtime/algorithms/sfvi/SfviAvg.hpp"

#include <chrono>
#include <cmath>
#include <random>
#include <string>

#include "runtime/algorithms/sfvi/GlobalStep.hpp"
#include "runtime/algorithms/sfvi/SiloSet.hpp"
#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::algorithms {

template <class Family>
SfviResult<Family> runSfviAvg(const FactorModel& model, const SfviOptions<Family>& o) {
  using Standard = typename Family::Standard;
  SfviRun<Family> run(model, o, "sfvi-avg");
  SiloSet<Family>& silos = run.silos;
  GlobalStep<Family>& server = run.global;
  SfviResult<Family>& result = run.result;
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  const std::size_t J = model.numPartitions();
  const std::size_t h = run.theta0.size();
  // A silo's term stands for all the data: weight N / N_j.
  double N = 0.0;
  for (std::size_t j = 0; j < J; ++j) N += model.partitionObservations(j);
  std::vector<double> weight(J);
  std::vector<std::mt19937_64> epsRngs;
  for (std::size_t j = 0; j < J; ++j) {
    weight[j] = N / model.partitionObservations(j);
    epsRngs.emplace_back(support::deriveSeed(o.seed, 0xa5f1ULL, j));
  }

  const std::size_t perSilo = (sentNumbers(run.start) + h) * sizeof(double);
  const auto n = static_cast<Eigen::Index>(o.samples);
  for (std::size_t round = 1; round <= o.rounds; ++round) {
    const Standard before = server.standard();
    const double rate = o.learningRate / std::sqrt(static_cast<double>(round));
    std::vector<Standard> qs(J);
    std::vector<std::vector<double>> thetas(J);
    // Each silo: m = iterationsPerRound steps of SGD VI on log p(z, theta) + (N / N_j) (f_j +
    // H(q(w_j | z))) + H(q(z)), from the server's q(z) and theta, with its own draws of z.
    silos.forEach([&](std::size_t j) {
      GlobalStep<Family> local(server.standard(), server.theta(), o.learnTheta);
      for (std::size_t k = 1; k <= o.iterationsPerRound; ++k) {
        const Eigen::MatrixXd eps = standardNormals(d, n, epsRngs[j]);
        const Eigen::MatrixXd xi = silos.noise((round - 1) * o.iterationsPerRound + k, j, n);
        const bool averageNow = 2 * k > o.iterationsPerRound;
        if (averageNow && 2 * (k - 1) <= o.iterationsPerRound) silos[j].startAveraging();
        const SiloReply<Family> r = silos[j].step(local.mean(), local.root(), local.theta(), eps, xi, rate);
        estimation::ExpectedDerivatives<Family> e = local.priorTerm(run.prior, eps);
        e.gradZ += weight[j] * r.gradZ;
        e.crossZ += weight[j] * r.crossZ;
        if (h > 0) e.gradTheta += weight[j] * r.gradTheta;
        local.ascend(e, rate, averageNow);
      }
      local.settle();
      silos[j].rebase(local.mean(), local.root(), true);
      qs[j] = local.standard();
      thetas[j] = local.theta();
    });
    // The server: theta averaged, q(z) the Wasserstein-2 barycentre of the silos' q(z).
    std::vector<double> theta(h, 0.0);
    for (const auto& t : thetas)
      for (std::size_t i = 0; i < h; ++i) theta[i] += t[i] / static_cast<double>(J);
    server.reset(toStable(wassersteinBarycentre(qs)), theta);
    result.counters.messagesDown += J;
    result.counters.messagesUp += J;
    result.counters.bytesDown += J * perSilo;
    result.counters.bytesUp += J * perSilo;
    result.counters.serverUpdates += 1;
    result.counters.accepted += J;
    result.counters.rounds = round;
    if (o.afterIteration) o.afterIteration(round, server.standard(), server.theta());

    if (run.closeRound(run.roundRecord(round), before)) break;
  }
  return run.finish(o.samples);
}

#define PVI_INSTANTIATE(F) template SfviResult<F> runSfviAvg<F>(const FactorModel&, const SfviOptions<F>&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
