#include "runtime/fit/PosteriorDraws.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <thread>
#include <limits>
#include <numeric>
#include <random>

#include "runtime/estimation/LaplaceLocals.hpp"
#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/Gaussian.hpp"
#include "runtime/families/GaussianCalculus.hpp"
#include "runtime/model/JointDensity.hpp"
#include "runtime/support/ThreadPool.hpp"
#include "stdlib/kernels/rng/rng.h"

namespace pvi {

namespace {

// One variable of the draw tables, for the message about the largest.
struct Largest {
  std::size_t size = 0;
  const VariableInfo* info = nullptr;
  std::vector<std::uint64_t> dims;
  std::string block;
  std::size_t partition = kSharedBlock;
};

// Considers the variables of `layout`, described by `infos` (in the same order), as the largest.
void consider(Largest& largest, const VariableLayout& layout, const std::vector<const VariableInfo*>& infos,
              const std::vector<std::string>& blocks, std::size_t partition) {
  const std::vector<VariableExtent>& vars = layout.variables();
  for (std::size_t i = 0; i < vars.size() && i < infos.size(); ++i) {
    if (largest.info != nullptr && vars[i].size <= largest.size) continue;
    largest = {vars[i].size, infos[i], std::vector<std::uint64_t>(vars[i].dims.begin(), vars[i].dims.end()), blocks[i],
               partition};
  }
}

// fn(begin, end) over n columns in contiguous chunks, on `pool` when there is one.
void forEachColumn(support::ThreadPool* pool, Eigen::Index n,
                   const std::function<void(Eigen::Index, Eigen::Index)>& fn) {
  const Eigen::Index chunks = pool ? std::min<Eigen::Index>(n, 8 * static_cast<Eigen::Index>(pool->size())) : 1;
  if (chunks <= 1) return fn(0, n);
  support::forEachIndex(pool, static_cast<std::size_t>(chunks), [&](std::size_t c) {
    const auto i = static_cast<Eigen::Index>(c);
    fn(n * i / chunks, n * (i + 1) / chunks);
  });
}

// Importance-weighted locals: W (one draw of q(w_j | z) per column of Z) becomes one of K such
// draws, chosen with probability proportional to exp(l), l = f_j(z, w) - log q(w | z), by a
// weighted reservoir (the k-th replaces the choice with probability exp(l_k) / sum_{k' <= k}
// exp(l_k')). Returns f_j(z, w) - log mean_k exp(l_k) per column: log_g__'s part for partition j.
// With `laplace`, the K draws come from each column's Laplace proposal (estimation/LaplaceLocals.hpp,
// Newton started at q(w | z)'s mean), and l uses its log density instead of q's.
// The columns' evaluations run on `pool` (null: this thread); the random numbers are drawn in the
// same order either way, so the draws do not depend on the threads.
Eigen::VectorXd chooseAmongInnerDraws(const CompiledModel& model, std::size_t j, const std::vector<double>& theta,
                                      const ConditionalGaussian& qw, const Eigen::MatrixXd& Z, std::size_t K,
                                      bool laplace, Eigen::MatrixXd& W, std::mt19937_64& rng,
                                      support::ThreadPool* pool) {
  const std::vector<double> th =
      theta.size() == model.hyperDim() ? theta : std::vector<double>(model.hyperDim(), 0.0);
  const estimation::PartitionLikelihood f(model, j, th);
  const Eigen::Index n = Z.cols();
  Eigen::VectorXd chosen(n), logSum(n);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  // Laplace-proposed locals: each column's proposal (LaplaceLocals.hpp), started at q(w | z)'s mean.
  std::vector<estimation::LaplaceProposal> proposals;
  if (laplace) {
    proposals.resize(static_cast<std::size_t>(n));
    // As in the fit (estimation/Expectations.cpp): from q(w | z)'s mean, with its sds at z as
    // the fallback.
    forEachColumn(pool, n, [&](Eigen::Index begin, Eigen::Index end) {
      std::vector<double> gz(model.globalDim());
      for (Eigen::Index col = begin; col < end; ++col) {
        const double* zp = Z.col(col).data();
        proposals[static_cast<std::size_t>(col)] = estimation::laplaceProposal(
            [&](const double* wp, double* gwp) { return f.evaluate(zp, wp, gz.data(), gwp); },
            conditionalMean(qw, Z.col(col)), conditionalSd(qw, Z.col(col)));
      }
    });
  }
  Eigen::VectorXd values(n);
  for (std::size_t k = 0; k < K; ++k) {
    Eigen::MatrixXd Wk;
    Eigen::VectorXd logQ;
    if (laplace) {
      const Eigen::MatrixXd xi = standardNormals(qw.dim(), n, rng);
      Wk.resize(qw.dim(), n);
      logQ.resize(n);
      for (Eigen::Index col = 0; col < n; ++col) {
        const auto& p = proposals[static_cast<std::size_t>(col)];
        Wk.col(col) = estimation::laplaceDraw(p, xi.col(col));
        logQ[col] = estimation::laplaceLogDensity(p, xi.col(col));
      }
    } else {
      Wk = k == 0 ? W : conditionalDraws(qw, Z, standardNormals(qw.dim(), n, rng));
      logQ = conditionalLogDensity(qw, Z, Wk);
    }
    forEachColumn(pool, n, [&](Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index col = begin; col < end; ++col)
        values[col] = f.evaluate(Z.col(col).data(), Wk.col(col).data(), nullptr, nullptr);
    });
    for (Eigen::Index col = 0; col < n; ++col) {
      const double fk = values[col];
      const double l = fk - logQ[col];
      if (k == 0) {
        if (laplace) W.col(col) = Wk.col(col);
        chosen[col] = fk;
        logSum[col] = l;
        continue;
      }
      const double top = std::max(logSum[col], l);
      if (!std::isfinite(top)) continue;  // both -inf (or l NaN): keep the choice
      const double sum = top + std::log(std::exp(logSum[col] - top) + std::exp(l - top));
      if (uniform(rng) < std::exp(l - sum)) {
        W.col(col) = Wk.col(col);
        chosen[col] = fk;
      }
      logSum[col] = sum;
    }
  }
  return chosen - (logSum.array() - std::log(static_cast<double>(K))).matrix();
}

}  // namespace

void checkDrawsFit(const CompiledModel& model, std::size_t draws) { checkDrawsFit(model, draws, memoryLimit()); }

void checkDrawsFit(const CompiledModel& model, std::size_t draws, const MemoryLimit& limit) {
  const ModelInfo& info = model.info();
  // lp__, log_p__, log_g__, then every parameter and generated quantity.
  std::uint64_t perDraw = 3 + model.parameterLayout().size() + model.generatedSharedLayout().size();
  for (std::size_t j = 0; j < model.numPartitions(); ++j)
    perDraw += model.localLayout(j).size() + model.generatedPartitionLayout(j).size();
  const std::optional<std::uint64_t> total = checkedMultiply(draws, perDraw);
  if (!limit.exceededBy(total)) return;

  Largest largest;
  std::vector<const VariableInfo*> infos;
  std::vector<std::string> blocks;
  auto add = [&](const std::vector<VariableInfo>& vars, const std::string& block) {
    for (const VariableInfo& v : vars) {
      infos.push_back(&v);
      blocks.push_back(block);
    }
  };
  add(info.globals, "global");
  add(info.hypers, "hyper");
  consider(largest, model.parameterLayout(), infos, blocks, kSharedBlock);
  infos.clear(), blocks.clear();
  add(info.generatedShared, "generated");
  consider(largest, model.generatedSharedLayout(), infos, blocks, kSharedBlock);
  for (std::size_t j = 0; j < model.numPartitions(); ++j) {
    const std::string where = info.data.partitionName + " " + model.partitionLabel(j);
    infos.clear(), blocks.clear();
    add(info.locals, "local per " + where);
    consider(largest, model.localLayout(j), infos, blocks, j);
    infos.clear(), blocks.clear();
    add(info.generatedPartition, "generated, " + where);
    consider(largest, model.generatedPartitionLayout(j), infos, blocks, j);
  }

  std::string message =
      groupedNumber(draws) + " draws of the " + groupedNumber(perDraw) +
      " values of each draw (parameters and generated quantities) would take " +
      (total ? byteSizeText(static_cast<long double>(*total) * kBytesPerElement) : std::string("more than 16 EiB")) +
      ", more than " + limit.text();
  if (largest.info != nullptr) {
    const std::string origins = model.sizeOrigins(*largest.info, largest.partition);
    message += "; the largest is '" + largest.info->name + "' (" + largest.info->type + ") in " + largest.block +
               ", with " + elementCountText(largest.dims) + " per draw" + (origins.empty() ? "" : " (" + origins + ")");
  }
  const std::uint64_t fit = limit.bytes / kBytesPerElement / perDraw;
  message += fit == 0 ? "; not even one draw fits" : "; at most " + groupedNumber(fit) + " draws fit";
  throw DataError(message);
}

PosteriorDraws drawPosterior(const CompiledModel& model, const FitResult& fit, std::size_t draws, std::uint64_t seed,
                             const ResampleOptions& resample) {
  const std::size_t M = model.numPartitions();
  if (fit.posterior.isSampled()) draws = static_cast<std::size_t>(fit.posterior.sampled().draws.rows());
  checkDrawsFit(model, draws);
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

  // Columns of unconstrained draws: z, and each partition's w_j; with importance resampling
  // there are `candidatesPerDraw` times as many as are written (when they fit in memory).
  Eigen::Index candidates = n;
  if (fit.posterior.isGaussian() && resample.enabled && resample.candidatesPerDraw > 1) {
    std::uint64_t perDraw = model.globalDim();
    for (std::size_t j = 0; j < M; ++j) perDraw += model.localDim(j);
    const std::optional<std::uint64_t> more = checkedMultiply(draws * resample.candidatesPerDraw, perDraw);
    if (more && !memoryLimit().exceededBy(*more + draws * perDraw))
      candidates = n * static_cast<Eigen::Index>(resample.candidatesPerDraw);
  }
  // The candidates' evaluations (inner draws, log p of q's draws) run on resample.threads; the
  // random streams do not depend on it.
  const std::size_t threads = support::threadsFor(resample.threads);
  std::unique_ptr<support::ThreadPool> pool = fit.posterior.isGaussian() && threads > 1 && candidates >= 256
                                                  ? std::make_unique<support::ThreadPool>(threads)
                                                  : nullptr;
  Eigen::MatrixXd Z;
  std::vector<Eigen::MatrixXd> W(M);
  Eigen::VectorXd logG;  // log q of each draw (NaN for a sampler's draws: there is no q)
  if (fit.posterior.isGaussian()) {
    // All draws at once: z = m + L eps (one column each), then each partition's w_j, and log q of
    // every column from the families' densities.
    const GaussianPosterior& g = fit.posterior.gaussian();
    std::mt19937_64 rng(seed);
    // A skewed q(z) (families/GlobalShape.hpp): z = m + L T(eps), log q(z) = log N(m + L eps) -
    // sum log T'(eps).
    const auto drawFrom = [&](const auto& q) {
      const Eigen::MatrixXd eps = standardNormals(q.dim(), candidates, rng);
      if (g.shape.empty()) {
        Z = reparamDraws(q.m, reparamRoot(q), eps);
        logG = logDensityColumns(q, Z);
      } else {
        logG = logDensityColumns(q, reparamDraws(q.m, reparamRoot(q), eps)) - logSlopeColumns(g.shape, eps);
        Z = reparamDraws(q.m, reparamRoot(q), shapedDraws(g.shape, eps).u);
      }
    };
    if (g.diagonal())
      drawFrom(MeanFieldStandard{g.mean, g.variances});
    else
      drawFrom(FullStandard{g.mean, g.covariance});
    for (std::size_t j = 0; j < M; ++j) {
      const ConditionalGaussian& qw = g.locals.at(j).conditional;
      if (qw.dim() == 0) continue;
      // w_j given the same z as the globals: joint draws, and log q(z) + log q(w_j | z).
      W[j] = conditionalDraws(qw, Z, standardNormals(qw.dim(), candidates, rng));
      if (g.innerDraws > 1 || g.laplaceLocals)
        logG +=
            chooseAmongInnerDraws(model, j, fit.theta, qw, Z, g.innerDraws, g.laplaceLocals, W[j], rng, pool.get());
      else
        logG += conditionalLogDensity(qw, Z, W[j]);
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
  // A sampler that drew the hyperparameters gives each draw its own theta (its last columns).
  const bool sampledTheta = fit.posterior.isSampled() && fit.posterior.sampled().hyperDim > 0;
  const JointDensity joint = sampledTheta ? JointDensity(model, JointDensity::HyperParameters::Sampled)
                                          : JointDensity(model, JointDensity::HyperParameters::Fixed, fit.theta);
  // The joint point of column `col`, into `x` (or the given vector).
  Eigen::VectorXd x(static_cast<Eigen::Index>(joint.dim()));
  const auto jointPointInto = [&](Eigen::Index col, Eigen::VectorXd& into) {
    into.head(Z.rows()) = Z.col(col);
    for (std::size_t j = 0; j < M; ++j)
      if (W[j].size()) into.segment(static_cast<Eigen::Index>(joint.localOffset(j)), W[j].rows()) = W[j].col(col);
    if (sampledTheta) {
      const auto h = static_cast<Eigen::Index>(model.hyperDim());
      into.tail(h) = fit.posterior.sampled().draws.row(col).segment(static_cast<Eigen::Index>(joint.hyperOffset()), h);
    }
  };
  const auto jointPoint = [&](Eigen::Index col) { jointPointInto(col, x); };
  // log p of every column: a sampler already evaluated it at each of its draws (lp__).
  Eigen::VectorXd logP(candidates);
  if (fit.posterior.isSampled() && !fit.posterior.sampled().chains.empty()) {
    const SampledPosterior& s = fit.posterior.sampled();
    const Eigen::Index perChain = s.draws.rows() / static_cast<Eigen::Index>(s.chains.size());
    for (Eigen::Index row = 0; row < n; ++row)
      logP[row] = s.chains[static_cast<std::size_t>(row / perChain)].columns.logDensity[row % perChain];
  } else {
    forEachColumn(pool.get(), candidates, [&](Eigen::Index begin, Eigen::Index end) {
      Eigen::VectorXd point(static_cast<Eigen::Index>(joint.dim()));
      for (Eigen::Index col = begin; col < end; ++col) {
        jointPointInto(col, point);
        logP[col] = joint.logDensity(point.data(), nullptr);
      }
    });
  }
  // The columns written: resampled by their importance weights, or the first n.
  std::vector<Eigen::Index> rows(static_cast<std::size_t>(n));
  std::iota(rows.begin(), rows.end(), Eigen::Index{0});
  if (fit.posterior.isGaussian()) {
    out.resampling = importanceResample(logP, logG, resample.enabled, resample.maxKhat, n, seed ^ 0x9e3779b97f4a7c15ULL);
    if (out.resampling.applied) rows = out.resampling.rows;
  }

  std::vector<const double*> w(M, nullptr);
  const uint64_t generatedSeed = seed ^ 0x5851f42d4c957f2dULL;  // not the resampling's stream
  for (Eigen::Index row = 0; row < n; ++row) {
    const Eigen::Index col = rows[static_cast<std::size_t>(row)];
    jointPoint(col);
    const double* z = Z.col(col).data();
    for (std::size_t j = 0; j < M; ++j) w[j] = W[j].size() ? W[j].col(col).data() : nullptr;
    const double* theta = sampledTheta        ? x.data() + joint.hyperOffset()
                          : fit.theta.empty() ? nullptr
                                              : fit.theta.data();
    Eigen::Index c0 = 0;
    out.global.values(row, c0++) = 0.0;
    out.global.values(row, c0++) = logP[col];
    out.global.values(row, c0++) = logG[col];
    for (double v : model.constrainGlobals(z, theta)) out.global.values(row, c0++) = v;
    // The _rng draws of row `row`: stream 0 for the shared quantities, 1 + j for partition j's, so
    // that each is reproducible by the seed alone.
    const auto stream = [&](std::size_t k) { return static_cast<uint64_t>(row) * (M + 1) + k; };
    pvi_rng rng;
    pvi_rng_seed(&rng, generatedSeed, stream(0));
    for (double v : model.generateShared(z, theta, rng)) out.global.values(row, c0++) = v;
    for (std::size_t j = 0; j < M; ++j) {
      Eigen::Index c = 0;
      if (model.localDim(j) > 0)
        for (double v : model.constrainLocals(j, z, w[j], theta)) out.partitions[j].values(row, c++) = v;
      if (model.generatedPartitionLayout(j).size() > 0) {
        pvi_rng_seed(&rng, generatedSeed, stream(1 + j));
        for (double v : model.generatePartition(j, z, w[j], theta, rng)) out.partitions[j].values(row, c++) = v;
      }
    }
  }
  return out;
}

}  // namespace pvi
