#pragma once
// What a fit returns as the posterior, whatever the algorithm: either a Gaussian approximation of
// the globals with each partition's private q(w_j) (the variational algorithms), or draws of the
// unconstrained latents (samplers). The output code (PosteriorDraws.hpp, the app's summaries)
// serves both through this one type.
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "runtime/families/ConditionalGaussian.hpp"
#include "runtime/families/FullGaussianParams.hpp"
#include "runtime/families/GlobalShape.hpp"
#include "runtime/families/MeanFieldGaussianParams.hpp"
#include "runtime/samplers/nuts/Sampler.hpp"

namespace pvi {

// One partition's private approximation q(w_j | z) over its unconstrained locals
// (families/ConditionalGaussian.hpp; empty for a partition without locals), and the marginal
// moments of w_j it implies under q(z). Draws of w_j are drawn given the same z draw as the
// globals (PosteriorDraws.hpp). In a federated deployment it stays with its partition.
struct LocalPosterior {
  ConditionalGaussian conditional;
  Eigen::VectorXd mean;  // E[w_j]
  Eigen::VectorXd sd;    // sd of w_j (marginal over q(z))
};

// q(z) over the unconstrained globals: N(mean, covariance) for the full family, or
// N(mean, diag(variances)) for the mean-field family (then `covariance` is empty, so that a
// large mean-field fit holds no D x D matrix); and q(w_j | z) per partition.
//
// With a shape (sfvi's --globals skewed), q(z) is z = m + L T(eps) (families/GlobalShape.hpp):
// `mean` and `covariance` (or `variances`) are then m and L L^T, its location and root, and
// momentMean, momentCovariance and momentVariances give q(z)'s own moments.
struct GaussianPosterior {
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;  // D x D, or empty when diagonal
  Eigen::VectorXd variances;   // the diagonal when the family is mean-field, else empty
  std::vector<LocalPosterior> locals;
  GlobalShape shape;  // empty: Gaussian
  // K > 1: the locals were fitted with K importance-weighted draws per draw of z (sfvi's
  // --inner-draws), and are drawn so: K of q(w_j | z), one of them chosen by its weight
  // (PosteriorDraws.hpp). LocalPosterior's moments are still q(w_j | z)'s.
  std::size_t innerDraws = 1;
  // The K draws come from each z's Laplace proposal instead (sfvi's --inner-proposal laplace).
  bool laplaceLocals = false;

  bool diagonal() const { return covariance.size() == 0; }
  double variance(Eigen::Index i) const { return diagonal() ? variances[i] : covariance(i, i); }
  // The covariance as a D x D matrix in either case (allocates D x D for a diagonal one).
  Eigen::MatrixXd denseCovariance() const { return diagonal() ? Eigen::MatrixXd(variances.asDiagonal()) : covariance; }
  // E[z], Cov(z) and Var(z_i) under q(z), the shape's included: m + L E[T] and
  // L diag(Var T) L^T (a diagonal family's without a D x D matrix).
  Eigen::VectorXd momentMean() const {
    if (shape.empty()) return mean;
    const Eigen::VectorXd mu = shapeMeans(shape, mean.size());
    return diagonal() ? Eigen::VectorXd(mean + variances.cwiseSqrt().cwiseProduct(mu)) : mean + fullRoot() * mu;
  }
  Eigen::MatrixXd momentCovariance() const {
    if (shape.empty()) return denseCovariance();
    if (diagonal()) return momentVariances().asDiagonal();
    const Eigen::MatrixXd L = fullRoot();
    return L * shapeVariances(shape, mean.size()).asDiagonal() * L.transpose();
  }
  Eigen::VectorXd momentVariances() const {
    if (shape.empty()) return diagonal() ? variances : Eigen::VectorXd(covariance.diagonal());
    return diagonal() ? Eigen::VectorXd(variances.cwiseProduct(shapeVariances(shape, mean.size())))
                      : Eigen::VectorXd(momentCovariance().diagonal());
  }

 private:
  Eigen::MatrixXd fullRoot() const { return covariance.llt().matrixL(); }
};

// A partition's q(w_j | z) with its marginal moments under q(z) = g.
inline LocalPosterior localPosterior(const ConditionalGaussian& qw, const GaussianPosterior& g) {
  const Eigen::VectorXd variances =
      g.diagonal() ? marginalVariancesDiagonal(qw, g.mean, g.variances) : marginalVariances(qw, g.mean, g.covariance);
  const Eigen::VectorXd mean =
      g.diagonal() ? marginalMeanDiagonal(qw, g.mean, g.variances) : marginalMean(qw, g.mean, g.covariance);
  return {qw, mean, variances.cwiseSqrt()};
}

// q(z) as a GaussianPosterior (its covariance, or its variances for the mean-field family), with
// each partition's q(w_j | z) (an empty conditional: a partition without locals).
inline GaussianPosterior gaussianPosterior(const Eigen::VectorXd& mean, Eigen::MatrixXd covariance,
                                           Eigen::VectorXd variances, const std::vector<ConditionalGaussian>& locals) {
  GaussianPosterior g{mean, std::move(covariance), std::move(variances), {}, {}};
  for (const ConditionalGaussian& qw : locals)
    g.locals.push_back(qw.dim() > 0 ? localPosterior(qw, g) : LocalPosterior{});
  return g;
}
inline GaussianPosterior gaussianPosterior(const FullStandard& q, const std::vector<ConditionalGaussian>& locals) {
  return gaussianPosterior(q.m, q.S, Eigen::VectorXd(), locals);
}
inline GaussianPosterior gaussianPosterior(const MeanFieldStandard& q, const std::vector<ConditionalGaussian>& locals) {
  return gaussianPosterior(q.m, Eigen::MatrixXd(), q.var, locals);
}

// Draws of x = (z, w_1, ..., w_J, theta) in unconstrained space (JointDensity's layout), one row
// per draw (chain 1's draws, then chain 2's, ...), and the chain each row came from.
struct SampledPosterior {
  Eigen::MatrixXd draws;
  std::vector<std::size_t> chain;
  std::size_t globalDim = 0;
  std::vector<std::size_t> localOffsets;  // column of each partition's first local
  std::size_t hyperOffset = 0;            // column of theta's first entry
  std::size_t hyperDim = 0;               // 0 when the hyperparameters were held fixed
  // Per chain: the sampler's columns (lp__, accept_stat__, ...), step size and metric after
  // warm-up, gradient counts and times. Their `draws` are empty: the draws are above.
  std::vector<samplers::ChainResult> chains;
};

class FittedPosterior {
 public:
  FittedPosterior() = default;
  FittedPosterior(GaussianPosterior g) : value_(std::move(g)) {}  // NOLINT: implicit by design
  FittedPosterior(SampledPosterior s) : value_(std::move(s)) {}   // NOLINT

  bool isGaussian() const { return std::holds_alternative<GaussianPosterior>(value_); }
  bool isSampled() const { return std::holds_alternative<SampledPosterior>(value_); }
  // Throw std::logic_error when the posterior is of the other kind.
  const GaussianPosterior& gaussian() const { return get<GaussianPosterior>("a Gaussian approximation"); }
  const SampledPosterior& sampled() const { return get<SampledPosterior>("a set of draws"); }

 private:
  template <class T>
  const T& get(const char* what) const {
    if (const T* p = std::get_if<T>(&value_)) return *p;
    throw std::logic_error(std::string("the fitted posterior is not ") + what);
  }
  std::variant<GaussianPosterior, SampledPosterior> value_;
};

}  // namespace pvi
