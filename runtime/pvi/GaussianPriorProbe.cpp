#include "runtime/pvi/GaussianPriorProbe.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <random>

#include "runtime/families/StandardNormal.hpp"
#include "runtime/pvi/GaussianCalculus.hpp"

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

  std::vector<std::pair<Eigen::VectorXd, Evaluation>> points;
  const auto at = [&](const Eigen::VectorXd& z) {
    points.emplace_back(z, evaluate(model, theta, z));
    return points.back().second;
  };
  const Evaluation origin = at(Eigen::VectorXd::Zero(d));
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
  const double logNormaliser = -0.5 * static_cast<double>(d) * std::log(2.0 * std::numbers::pi) +
                               L.diagonal().array().log().sum();

  // Random points from N(m, s^2 P^{-1}): z = m + s L^{-T} u.
  std::mt19937_64 rng(options.seed);
  const double scales[] = {0.5, 2.0, 8.0};
  for (std::size_t k = 0; k < options.checkPoints; ++k) {
    const Eigen::VectorXd u = standardNormals(d, 1, rng).col(0);
    at(m + scales[k % 3] * llt.matrixU().solve(u));
  }

  for (const auto& [z, e] : points) {
    if (e.dependsOnTheta) {
      out.reason = "the prior depends on the hyperparameters";
      return out;
    }
    const Eigen::VectorXd r = z - m;
    const Eigen::VectorXd gradient = -(P * r);
    const double quadratic = 0.5 * r.dot(P * r);
    const double value = logNormaliser - quadratic;
    if (!std::isfinite(e.value) ||
        std::abs(e.value - value) > tol * std::max({1.0, std::abs(e.value), std::abs(logNormaliser), quadratic})) {
      out.reason = "the log density is not that of a normalised Gaussian";
      return out;
    }
    if (!e.gradZ.allFinite() ||
        (e.gradZ - gradient).cwiseAbs().maxCoeff() > tol * std::max(scaleOf(e.gradZ), scaleOf(gradient))) {
      out.reason = "the gradient is not linear in z";
      return out;
    }
  }

  const Eigen::MatrixXd S = symmetricPart(llt.solve(Eigen::MatrixXd::Identity(d, d)));
  GaussianPrior prior;
  prior.mean.assign(m.data(), m.data() + d);
  prior.covariance.assign(S.data(), S.data() + d * d);  // symmetric: row-major = column-major
  out.prior = std::move(prior);
  return out;
}

}  // namespace pvi
