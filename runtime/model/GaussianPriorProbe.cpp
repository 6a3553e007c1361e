#include "runtime/model/GaussianPriorProbe.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <utility>

#include "runtime/families/GaussianCalculus.hpp"
#include "runtime/families/StandardNormal.hpp"

namespace pvi {
namespace {

struct Evaluation {
  double value = 0.0;
  Eigen::VectorXd gradZ;
  bool dependsOnTheta = false;
};

Evaluation evaluate(const FactorModel& model, const std::vector<double>& theta, const Eigen::VectorXd& z) {
  Evaluation e;
  e.gradZ = Eigen::VectorXd::Zero(z.size());
  std::vector<double> gradTheta(model.hyperDim(), 0.0);
  e.value = model.priorLogDensity(z.data(), theta.empty() ? nullptr : theta.data(), e.gradZ.data(),
                                  gradTheta.empty() ? nullptr : gradTheta.data());
  for (double g : gradTheta) e.dependsOnTheta = e.dependsOnTheta || g != 0.0;
  return e;
}

double scaleOf(const Eigen::VectorXd& v) { return std::max(1.0, v.cwiseAbs().maxCoeff()); }

using Points = std::vector<std::pair<Eigen::VectorXd, Evaluation>>;

// Steps 3 and 4 for N(m, P^{-1}) given by its log normaliser and a product z -> P z.
template <class Product>
std::string mismatch(const Points& points, const Eigen::VectorXd& m, double logNormaliser, const Product& times,
                     double tol) {
  for (const auto& [z, e] : points) {
    if (e.dependsOnTheta) return "the prior depends on the hyperparameters";
    const Eigen::VectorXd r = z - m;
    const Eigen::VectorXd pr = times(r);
    const Eigen::VectorXd gradient = -pr;
    const double quadratic = 0.5 * r.dot(pr);
    const double value = logNormaliser - quadratic;
    if (!std::isfinite(e.value) ||
        std::abs(e.value - value) > tol * std::max({1.0, std::abs(e.value), std::abs(logNormaliser), quadratic}))
      return "the log density is not that of a normalised Gaussian";
    if (!e.gradZ.allFinite() ||
        (e.gradZ - gradient).cwiseAbs().maxCoeff() > tol * std::max(scaleOf(e.gradZ), scaleOf(gradient)))
      return "the gradient is not linear in z";
  }
  return {};
}

template <class At>
PriorProbeResult probeDiagonal(const Evaluation& origin, const Eigen::VectorXd& gradOnes, Points& points, const At& at,
                               const PriorProbeOptions& options) {
  PriorProbeResult out;
  const Eigen::VectorXd p = -(gradOnes - origin.gradZ);  // diag(P) if the prior is N(m, diag(P)^{-1})
  if (!p.allFinite() || !origin.gradZ.allFinite() || !std::isfinite(origin.value)) {
    out.reason = "the prior log density or its gradient is not finite near 0";
    return out;
  }
  if (!(p.minCoeff() > 0.0)) {
    out.reason = "the curvature is not negative definite";
    return out;
  }
  const auto d = p.size();
  const Eigen::VectorXd m = origin.gradZ.cwiseQuotient(p);
  const double logNormaliser =
      -0.5 * static_cast<double>(d) * std::log(2.0 * std::numbers::pi) + 0.5 * p.array().log().sum();
  std::mt19937_64 rng(options.seed);
  const double scales[] = {0.5, 2.0, 8.0};
  for (std::size_t k = 0; k < options.checkPoints; ++k)
    at(m + scales[k % 3] * standardNormals(d, 1, rng).col(0).cwiseQuotient(p.cwiseSqrt()));
  out.reason = mismatch(
      points, m, logNormaliser, [&](const Eigen::VectorXd& r) { return Eigen::VectorXd(p.cwiseProduct(r)); },
      options.relativeTolerance);
  if (!out.reason.empty()) {
    out.reason = "not an independent Gaussian: " + out.reason;
    return out;
  }
  GaussianPrior prior;
  prior.mean.assign(m.data(), m.data() + d);
  const Eigen::VectorXd var = p.cwiseInverse();
  prior.variances.assign(var.data(), var.data() + d);
  out.prior = std::move(prior);
  return out;
}

}  // namespace

PriorProbeResult probeGaussianPrior(const FactorModel& model, const std::vector<double>& theta,
                                    const PriorProbeOptions& options) {
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  const double tol = options.relativeTolerance;
  PriorProbeResult out;
  if (d == 0) {
    out.reason = "no global latents";
    return out;
  }
  if (theta.size() != model.hyperDim()) {
    out.reason = "theta has the wrong length";
    return out;
  }

  Points points;
  const auto at = [&](const Eigen::VectorXd& z) {
    points.emplace_back(z, evaluate(model, theta, z));
    return points.back().second;
  };
  const Evaluation origin = at(Eigen::VectorXd::Zero(d));
  if (options.diagonalOnly) return probeDiagonal(origin, at(Eigen::VectorXd::Ones(d)).gradZ, points, at, options);
  Eigen::MatrixXd H(d, d);
  for (Eigen::Index i = 0; i < d; ++i) H.col(i) = at(Eigen::VectorXd::Unit(d, i)).gradZ - origin.gradZ;
  if (!H.allFinite() || !origin.gradZ.allFinite() || !std::isfinite(origin.value)) {
    out.reason = "the prior log density or its gradient is not finite near 0";
    return out;
  }
  if ((H - H.transpose()).cwiseAbs().maxCoeff() > tol * std::max(1.0, H.cwiseAbs().maxCoeff())) {
    out.reason = "the gradient is not the gradient of a quadratic (asymmetric Hessian)";
    return out;
  }
  const Eigen::MatrixXd P = -0.5 * (H + H.transpose());
  const Eigen::LLT<Eigen::MatrixXd> llt(P);
  if (llt.info() != Eigen::Success) {
    out.reason = "the curvature is not negative definite";
    return out;
  }
  const Eigen::VectorXd m = llt.solve(origin.gradZ);
  const Eigen::MatrixXd L = llt.matrixL();
  const double logNormaliser =
      -0.5 * static_cast<double>(d) * std::log(2.0 * std::numbers::pi) + L.diagonal().array().log().sum();

  // Random points from N(m, s^2 P^{-1}): z = m + s L^{-T} u.
  std::mt19937_64 rng(options.seed);
  const double scales[] = {0.5, 2.0, 8.0};
  for (std::size_t k = 0; k < options.checkPoints; ++k) {
    const Eigen::VectorXd u = standardNormals(d, 1, rng).col(0);
    at(m + scales[k % 3] * llt.matrixU().solve(u));
  }

  out.reason = mismatch(
      points, m, logNormaliser, [&](const Eigen::VectorXd& r) { return Eigen::VectorXd(P * r); }, tol);
  if (!out.reason.empty()) return out;

  const Eigen::MatrixXd S = symmetricPart(llt.solve(Eigen::MatrixXd::Identity(d, d)));
  GaussianPrior prior;
  prior.mean.assign(m.data(), m.data() + d);
  prior.covariance.assign(S.data(), S.data() + d * d);  // symmetric: row-major = column-major
  out.prior = std::move(prior);
  return out;
}

}  // namespace pvi
