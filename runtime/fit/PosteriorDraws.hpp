#pragma once
// Draws from a fitted approximation, mapped to constrained space by the model's generated code,
// with the generated quantities: the rows of a Stan CSV file.
//
// Draw i takes z_i ~ q(z) and, for every partition j, w_ij ~ q(w_j | z_i), from one random
// stream (seed), so the global table and each partition's table describe the same joint draws.
//   lp__    0 (as CmdStan writes for variational output)
//   log_p__ log p(z, w, y) in unconstrained space (the model's log density incl. Jacobians)
//   log_g__ log q(z) + sum_j log q(w_j | z), the approximation's log density at the draw
//
// With importance-weighted locals (GaussianPosterior::innerDraws K > 1), w_ij is one of K draws
// w_ijk ~ q(w_j | z_i), chosen with probability proportional to exp(l_ijk), l = f_j(z, w) - log
// q(w | z) (f_j the partition's factor): each partition's q(w_j | z) corrected towards p(w_j | z,
// y_j). log_g__ is then log q(z) + sum_j (f_j(z_i, w_ij) - log mean_k exp(l_ijk)), so that
// log_p__ - log_g__ is the importance weight of the whole draw (z_i with every w_ijk) against the
// posterior (an unbiased estimate of p(z_i, y) / q(z_i) per draw): what the k-hat and the
// importance resampling use. With Laplace-proposed locals (GaussianPosterior::laplaceLocals), the
// K draws come from each z's Laplace proposal instead of q(w_j | z), and l uses its density.
// Partition tables hold only that partition's constrained locals and generated quantities: each
// is meant for that partition's own output.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/fit/Fit.hpp"
#include "runtime/fit/ImportanceResampling.hpp"
#include "runtime/model/CompiledModel.hpp"

namespace pvi {

struct DrawTable {
  std::vector<std::string> columns;
  Eigen::MatrixXd values;  // one row per draw
};

struct PosteriorDraws {
  DrawTable global;                   // lp__, log_p__, log_g__, parameters, shared generated quantities
  std::vector<DrawTable> partitions;  // per partition: its locals and generated quantities
  ImportanceResampling resampling;    // a Gaussian posterior's k-hat and importance weights
};

// Pareto-smoothed importance resampling of a Gaussian posterior's draws (ImportanceResampling.hpp):
// `candidatesPerDraw` draws of q per draw written (fewer if they would not fit in memory), resampled
// when their k-hat is at most `maxKhat`; otherwise the first `draws` of q's are written.
struct ResampleOptions {
  bool enabled = false;
  std::size_t candidatesPerDraw = 4;
  double maxKhat = 0.7;
  // The candidates' evaluations (inner draws, log p) run on this many threads; 0: all cores.
  // The draws do not depend on it.
  std::size_t threads = 0;
};

// `model` must have been built with its ModelInfo (names and layouts). A Gaussian posterior gives
// `draws` fresh draws from `seed`; a sampled posterior gives its own draws (`draws` and `seed`
// unused) with log_g__ NaN, as there is no q to evaluate.
// Throws DataError (via checkDrawsFit) when the tables would not fit in memory.
PosteriorDraws drawPosterior(const CompiledModel& model, const FitResult& fit, std::size_t draws, std::uint64_t seed,
                             const ResampleOptions& resample = {});

// Refuses, before a fit, `draws` draws whose tables (every parameter and generated quantity of
// each draw, as drawPosterior returns them) would exceed `limit`: throws DataError naming the
// largest variable, its size and where the size came from, and how many draws would fit.
void checkDrawsFit(const CompiledModel& model, std::size_t draws, const MemoryLimit& limit);
void checkDrawsFit(const CompiledModel& model, std::size_t draws);  // with memoryLimit()

}  // namespace pvi
