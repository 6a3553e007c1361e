#pragma once
// The four parameterisations of the mean-field (diagonal) Gaussian family over the unconstrained
// global vector z of dimension D (design section 6). With v_i the variance and p_i = 1 / v_i the
// precision of coordinate i:
//
//   natural   eta = (eta1, eta2) = (p .* m, -p / 2)       (both length-D vectors);
//   mean      mu  = (m, M),       M_i = E[z_i^2] = v_i + m_i^2;
//   standard        (m, v)        v = variances (not standard deviations);
//   stable          (m, log sd)   sd_i = sqrt(v_i) the standard deviations, stored as logs.
//
// The sufficient statistic is T(z) = (z, z .* z), so <eta, T(z)> = eta1^T z + sum_i eta2_i z_i^2.
// This is the full family restricted to diagonal eta2, and every function agrees with the full
// family's on diagonal covariances.
//
// Plain data; natural parameters may be improper (PVI factors): see MeanFieldGaussianValidity.hpp.
#include <Eigen/Core>

namespace pvi {

struct MeanFieldNatural {
  Eigen::VectorXd eta1;  // p .* m
  Eigen::VectorXd eta2;  // -p / 2

  Eigen::Index dim() const { return eta1.size(); }
  // The flat factor t(z) = 1: all natural parameters zero. Valid as a factor, not a distribution.
  static MeanFieldNatural flat(Eigen::Index d) { return {Eigen::VectorXd::Zero(d), Eigen::VectorXd::Zero(d)}; }
};

struct MeanFieldMean {
  Eigen::VectorXd m;       // E[z]
  Eigen::VectorXd second;  // E[z_i^2] = v_i + m_i^2

  Eigen::Index dim() const { return m.size(); }
};

struct MeanFieldStandard {
  Eigen::VectorXd m;    // mean
  Eigen::VectorXd var;  // variances, all > 0

  Eigen::Index dim() const { return m.size(); }
};

struct MeanFieldStable {
  Eigen::VectorXd m;      // mean
  Eigen::VectorXd logSd;  // log of the standard deviations: var_i = exp(2 logSd_i)

  Eigen::Index dim() const { return m.size(); }
};

// The family as a type, for code generic over families.
struct MeanFieldGaussian {
  using Natural = MeanFieldNatural;
  using Mean = MeanFieldMean;
  using Standard = MeanFieldStandard;
  using Stable = MeanFieldStable;
  static constexpr const char* name = "mean-field Gaussian";
};

}  // namespace pvi
