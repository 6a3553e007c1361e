#pragma once
// Pareto-smoothed importance resampling of a variational fit's draws, as Stan's Pathfinder does by
// default (Zhang, Carpenter, Gelman and Vehtari, "Pathfinder: parallel quasi-Newton variational
// inference", JMLR 2022): the draws x_i ~ q (by default 4 per draw written, as Pathfinder
// resamples 1,000 of 4 x 1,000) get the weights p(x_i, y) / q(x_i) (the log_p__ and log_g__
// columns), smoothed (diagnostics/ParetoKhat.hpp), and the written draws are a systematic
// resample of them by those weights (PosteriorDraws.hpp). Where q is too narrow or misplaced (VI's sds too small, a Gaussian
// q(z) against a skewed posterior), the resample is closer to the posterior: measured in
// docs/fitting.md ("Importance resampling"). Every table of the draws (globals and each
// partition's locals) takes the same rows, so they stay joint draws.
//
// Only where the weights are reliable: at a Pareto k-hat of at most `maxKhat` (0.7, Yao et al.
// 2018). Above it the draws stay q's and the k-hat warning says not to trust them.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pvi {

struct ImportanceResampling {
  double khat = 0.0;               // of the draws' ratios p / q (NaN where a ratio is NaN)
  double effectiveDraws = 0.0;     // (sum w)^2 / sum w^2 of the smoothed weights
  std::size_t candidates = 0;      // draws of q weighed
  bool applied = false;            // the draws written are a resample
  std::vector<Eigen::Index> rows;  // which candidates were written, ascending (when applied)
};

// The k-hat and smoothed weights of the candidates' log ratios logP - logG and, when `enabled`
// and k-hat <= maxKhat, a systematic resample of n of them (`seed` draws its one uniform).
ImportanceResampling importanceResample(const Eigen::VectorXd& logP, const Eigen::VectorXd& logG, bool enabled,
                                        double maxKhat, Eigen::Index n, std::uint64_t seed);

// Systematic resampling (Kitagawa 1996): n indices into the weights, index i appearing
// floor(n w_i) or ceil(n w_i) times for normalised w, from one uniform u; ascending.
std::vector<Eigen::Index> systematicResample(const Eigen::VectorXd& logWeights, Eigen::Index n, double u);

}  // namespace pvi
