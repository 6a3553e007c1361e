#include "runtime/fit/PosteriorDraws.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <numbers>
#include <random>

namespace pvi {

namespace {

constexpr double kLog2Pi = 1.8378770664093454835606594728112;

double standardNormalLogDensity(const Eigen::VectorXd& eps) {
  return -0.5 * (eps.squaredNorm() + static_cast<double>(eps.size()) * kLog2Pi);
}

void fill(std::mt19937_64& rng, Eigen::VectorXd& eps) {
  std::normal_distribution<double> nd;
  for (Eigen::Index i = 0; i < eps.size(); ++i) eps[i] = nd(rng);
}

}  // namespace

PosteriorDraws drawPosterior(const CompiledModel& model, const FitResult& fit, std::size_t draws, std::uint64_t seed) {
  const std::size_t D = model.globalDim(), M = model.numPartitions();
  Eigen::LLT<Eigen::MatrixXd> llt(fit.covariance);
  if (llt.info() != Eigen::Success) throw std::runtime_error("the fitted covariance is not positive definite");
  const Eigen::MatrixXd L = llt.matrixL();
  const double logDetL = L.diagonal().array().log().sum();

  PosteriorDraws out;
  out.global.columns = {"lp__", "log_p__", "log_g__"};
  for (const std::string& n : model.parameterLayout().elementNames()) out.global.columns.push_back(n);
  for (const std::string& n : model.generatedSharedLayout().elementNames()) out.global.columns.push_back(n);
  out.global.values.resize(static_cast<Eigen::Index>(draws), static_cast<Eigen::Index>(out.global.columns.size()));
  out.partitions.resize(M);
  for (std::size_t j = 0; j < M; ++j) {
    DrawTable& t = out.partitions[j];
    t.columns = model.localLayout(j).elementNames();
    for (const std::string& n : model.generatedPartitionLayout(j).elementNames()) t.columns.push_back(n);
    t.values.resize(static_cast<Eigen::Index>(draws), static_cast<Eigen::Index>(t.columns.size()));
  }

  std::mt19937_64 rng(seed);
  const double* theta = fit.theta.empty() ? nullptr : fit.theta.data();
  Eigen::VectorXd eps(static_cast<Eigen::Index>(D));
  for (std::size_t i = 0; i < draws; ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    fill(rng, eps);
    const Eigen::VectorXd z = fit.mean + L * eps;
    double logG = standardNormalLogDensity(eps) - logDetL;
    double logP = model.priorLogDensity(z.data(), theta, nullptr, nullptr);
    std::vector<Eigen::VectorXd> w(M);
    for (std::size_t j = 0; j < M; ++j) {
      const LocalPosterior& lp = fit.locals.at(j);
      Eigen::VectorXd xi(lp.mean.size());
      fill(rng, xi);
      w[j] = lp.mean + lp.sd.cwiseProduct(xi);
      if (xi.size() > 0) logG += standardNormalLogDensity(xi) - lp.sd.array().log().sum();
      logP += model.partitionLogDensity(j, z.data(), w[j].size() ? w[j].data() : nullptr, theta, nullptr, nullptr,
                                        nullptr);
    }
    Eigen::Index col = 0;
    out.global.values(row, col++) = 0.0;
    out.global.values(row, col++) = logP;
    out.global.values(row, col++) = logG;
    for (double v : model.constrainGlobals(z.data(), theta)) out.global.values(row, col++) = v;
    for (double v : model.generateShared(z.data(), theta)) out.global.values(row, col++) = v;
    for (std::size_t j = 0; j < M; ++j) {
      Eigen::Index c = 0;
      const double* wj = w[j].size() ? w[j].data() : nullptr;
      if (model.localDim(j) > 0)
        for (double v : model.constrainLocals(j, wj)) out.partitions[j].values(row, c++) = v;
      if (model.generatedPartitionLayout(j).size() > 0)
        for (double v : model.generatePartition(j, z.data(), wj, theta)) out.partitions[j].values(row, c++) = v;
    }
  }
  return out;
}

}  // namespace pvi
