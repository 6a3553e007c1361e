#include "runtime/fit/ImportanceResampling.hpp"

#include <cmath>
#include <random>

#include "runtime/diagnostics/ParetoKhat.hpp"

namespace pvi {

std::vector<Eigen::Index> systematicResample(const Eigen::VectorXd& logWeights, Eigen::Index n, double u) {
  const Eigen::VectorXd w = (logWeights.array() - logWeights.maxCoeff()).exp().matrix();
  const double total = w.sum();
  std::vector<Eigen::Index> out;
  out.reserve(static_cast<std::size_t>(n));
  double cumulative = w[0] / total;
  Eigen::Index i = 0;
  for (Eigen::Index k = 0; k < n; ++k) {
    const double point = (static_cast<double>(k) + u) / static_cast<double>(n);
    while (point > cumulative && i + 1 < w.size()) cumulative += w[++i] / total;
    out.push_back(i);
  }
  return out;
}

ImportanceResampling importanceResample(const Eigen::VectorXd& logP, const Eigen::VectorXd& logG, bool enabled,
                                        double maxKhat, Eigen::Index n, std::uint64_t seed) {
  ImportanceResampling out;
  out.candidates = static_cast<std::size_t>(logP.size());
  if (logP.size() == 0) return out;
  const diagnostics::SmoothedWeights sw = diagnostics::paretoSmoothedWeights(logP - logG);
  out.khat = sw.khat;
  if (std::isnan(sw.khat)) return out;
  const Eigen::ArrayXd w = (sw.logWeights.array() - sw.logWeights.maxCoeff()).exp();
  out.effectiveDraws = w.sum() * w.sum() / w.square().sum();
  if (!enabled || !(sw.khat <= maxKhat)) return out;
  std::mt19937_64 rng(seed);
  out.rows = systematicResample(sw.logWeights, n, std::uniform_real_distribution<double>(0.0, 1.0)(rng));
  out.applied = true;
  return out;
}

}  // namespace pvi
