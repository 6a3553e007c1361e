#include "runtime/fit/PosteriorDraws.hpp"

#include <limits>
#include <random>

#include "runtime/families/Gaussian.hpp"
#include "runtime/families/GaussianCalculus.hpp"
#include "runtime/model/JointDensity.hpp"

namespace pvi {

PosteriorDraws drawPosterior(const CompiledModel& model, const FitResult& fit, std::size_t draws, std::uint64_t seed) {
  const std::size_t M = model.numPartitions();
  if (fit.posterior.isSampled()) draws = static_cast<std::size_t>(fit.posterior.sampled().draws.rows());
  const auto n = static_cast<Eigen::Index>(draws);

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

  // Columns of unconstrained draws: z, and each partition's w_j.
  Eigen::MatrixXd Z;
  std::vector<Eigen::MatrixXd> W(M);
  Eigen::VectorXd logG;  // log q of each draw (NaN for a sampler's draws: there is no q)
  if (fit.posterior.isGaussian()) {
    // All draws at once: z = m + L eps (one column each), then each partition's w_j, and log q of
    // every column from the families' densities.
    const GaussianPosterior& g = fit.posterior.gaussian();
    std::mt19937_64 rng(seed);
    if (g.diagonal()) {
      const MeanFieldStandard q{g.mean, g.variances};
      Z = reparamDraws(q.m, reparamRoot(q), standardNormals(q.dim(), n, rng));
      logG = logDensityColumns(q, Z);
    } else {
      const FullStandard q{g.mean, g.covariance};
      Z = reparamDraws(q.m, reparamRoot(q), standardNormals(q.dim(), n, rng));
      logG = logDensityColumns(q, Z);
    }
    for (std::size_t j = 0; j < M; ++j) {
      const LocalPosterior& lp = g.locals.at(j);
      if (lp.mean.size() == 0) continue;
      const MeanFieldStandard qw{lp.mean, lp.sd.array().square()};
      W[j] = reparamDraws(qw.m, lp.sd, standardNormals(qw.dim(), n, rng));
      logG += logDensityColumns(qw, W[j]);
    }
  } else {
    const SampledPosterior& s = fit.posterior.sampled();
    const auto d = static_cast<Eigen::Index>(model.globalDim());
    Z = s.draws.leftCols(d).transpose();
    for (std::size_t j = 0; j < M; ++j)
      if (model.localDim(j) > 0)
        W[j] = s.draws
                   .middleCols(static_cast<Eigen::Index>(s.localOffsets.at(j)),
                               static_cast<Eigen::Index>(model.localDim(j)))
                   .transpose();
    logG = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::quiet_NaN());
  }
  const double* theta = fit.theta.empty() ? nullptr : fit.theta.data();
  const JointDensity joint(model, JointDensity::HyperParameters::Fixed, fit.theta);
  Eigen::VectorXd x(static_cast<Eigen::Index>(joint.dim()));
  std::vector<const double*> w(M, nullptr);
  for (Eigen::Index row = 0; row < n; ++row) {
    const double* z = Z.col(row).data();
    x.head(Z.rows()) = Z.col(row);
    for (std::size_t j = 0; j < M; ++j) {
      w[j] = W[j].size() ? W[j].col(row).data() : nullptr;
      if (W[j].size()) x.segment(static_cast<Eigen::Index>(joint.localOffset(j)), W[j].rows()) = W[j].col(row);
    }
    Eigen::Index col = 0;
    out.global.values(row, col++) = 0.0;
    out.global.values(row, col++) = joint.logDensity(x.data(), nullptr);
    out.global.values(row, col++) = logG[row];
    for (double v : model.constrainGlobals(z, theta)) out.global.values(row, col++) = v;
    for (double v : model.generateShared(z, theta)) out.global.values(row, col++) = v;
    for (std::size_t j = 0; j < M; ++j) {
      Eigen::Index c = 0;
      if (model.localDim(j) > 0)
        for (double v : model.constrainLocals(j, w[j])) out.partitions[j].values(row, c++) = v;
      if (model.generatedPartitionLayout(j).size() > 0)
        for (double v : model.generatePartition(j, z, w[j], theta)) out.partitions[j].values(row, c++) = v;
    }
  }
  return out;
}

}  // namespace pvi
