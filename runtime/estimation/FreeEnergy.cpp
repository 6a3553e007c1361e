#include "runtime/estimation/FreeEnergy.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

#include "runtime/families/Family.hpp"
#include "runtime/families/GaussianCalculus.hpp"

namespace pvi::estimation {

double logNormaliser(const FullNatural& posterior, const FullNatural& prior) {
  return logPartition(posterior) - logPartition(prior);
}

double logNormaliser(const MeanFieldNatural& posterior, const MeanFieldNatural& prior) {
  return logPartition(posterior) - logPartition(prior);
}

template <class Family>
Estimate globalFreeEnergy(const FactorModel& model, const std::vector<double>& theta,
                          const typename Family::Natural& posterior, std::size_t samples, std::uint64_t seed) {
  for (std::size_t j = 0; j < model.numPartitions(); ++j)
    if (model.localDim(j) > 0) throw std::invalid_argument("globalFreeEnergy: the model has local latents");
  if (samples < 2) throw std::invalid_argument("globalFreeEnergy: need at least 2 samples");
  const typename Family::Standard q = toStandard(posterior);
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  std::mt19937_64 rng(seed);
  const Eigen::MatrixXd eps = standardNormals(d, static_cast<Eigen::Index>(samples), rng);
  const Eigen::MatrixXd z = reparamDraws(q.m, reparamRoot(q), eps);
  const double* th = theta.empty() ? nullptr : theta.data();
  double sum = 0.0, sumSq = 0.0;
  for (Eigen::Index i = 0; i < z.cols(); ++i) {
    const Eigen::VectorXd zi = z.col(i);
    double v = model.priorLogDensity(zi.data(), th, nullptr, nullptr);
    for (std::size_t j = 0; j < model.numPartitions(); ++j)
      v += model.partitionLogDensity(j, zi.data(), nullptr, th, nullptr, nullptr, nullptr);
    sum += v;
    sumSq += v * v;
  }
  const double n = static_cast<double>(samples);
  const double mean = sum / n;
  const double var = std::max(0.0, (sumSq - sum * sum / n) / (n - 1.0));
  return {mean + entropy(q), std::sqrt(var / n)};
}

#define PVI_INSTANTIATE(F)                                                                                 \
  template Estimate globalFreeEnergy<F>(const FactorModel&, const std::vector<double>&, const F::Natural&, \
                                        std::size_t, std::uint64_t);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::estimation
