#include "runtime/algorithms/ep/EpUpdates.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pvi::algorithms::ep {

namespace {

template <class Natural, class Mean>
Natural updateSiteImpl(Variant v, const Natural& lambda, const Natural& theta, const Mean& muHat, double step) {
  auto requireDistribution = [v](const auto& x, const char* what) {
    if (Validity ok = checkDistribution(x); !ok)
      throw std::invalid_argument(std::string(variantName(v)) + " site update: " + what +
                                  " are not those of a distribution: " + ok.reason);
  };
  switch (v) {
    case Variant::Ep:
      requireDistribution(muHat, "the tilted moments");
      return lambda - step * (theta - toNatural(muHat));
    case Variant::EpEta: {
      requireDistribution(theta, "the approximation's parameters");
      const Mean mu = toMean(theta);
      Mean dmu{muHat.m - mu.m, muHat.second - mu.second};
      return lambda + step * naturalDerivative(mu, dmu);
    }
    case Variant::EpMu: {
      requireDistribution(theta, "the approximation's parameters");
      const Mean mu = toMean(theta);
      Mean mixed{(1.0 - step) * mu.m + step * muHat.m, (1.0 - step) * mu.second + step * muHat.second};
      requireDistribution(mixed, "the damped moments");
      return toNatural(mixed) - (theta - lambda);
    }
  }
  throw std::logic_error("unknown EP variant");
}

}  // namespace

const char* variantName(Variant v) {
  switch (v) {
    case Variant::Ep: return "ep";
    case Variant::EpEta: return "ep-eta";
    case Variant::EpMu: return "ep-mu";
  }
  return "?";
}

// eta1 = P m, eta2 = -P / 2 with P = S^-1, S = M - m m^T:
//   dS = dM - dm m^T - m dm^T,  dP = -P dS P,  deta1 = dP m + P dm,  deta2 = -dP / 2.
FullNatural naturalDerivative(const FullMean& mu, const FullMean& dmu) {
  const FullStandard q = toStandard(mu);
  const Eigen::MatrixXd P = q.S.llt().solve(Eigen::MatrixXd::Identity(q.dim(), q.dim()));
  Eigen::MatrixXd dS = dmu.second - dmu.m * q.m.transpose() - q.m * dmu.m.transpose();
  dS = 0.5 * (dS + dS.transpose());
  const Eigen::MatrixXd dP = -P * dS * P;
  return {dP * q.m + P * dmu.m, -0.5 * dP};
}

// The same coordinate by coordinate: v = M - m^2, dv = dM - 2 m dm, dp = -dv / v^2.
MeanFieldNatural naturalDerivative(const MeanFieldMean& mu, const MeanFieldMean& dmu) {
  const MeanFieldStandard q = toStandard(mu);
  const Eigen::ArrayXd p = q.var.array().inverse();
  const Eigen::ArrayXd dp = -(dmu.second.array() - 2.0 * q.m.array() * dmu.m.array()) * p.square();
  return {(dp * q.m.array() + p * dmu.m.array()).matrix(), (-0.5 * dp).matrix()};
}

template <class Natural>
Natural tiltedNatural(const Natural& theta, const Natural& lambda, double beta) {
  return theta - (1.0 / beta) * lambda;
}
template FullNatural tiltedNatural(const FullNatural&, const FullNatural&, double);
template MeanFieldNatural tiltedNatural(const MeanFieldNatural&, const MeanFieldNatural&, double);

FullNatural updateSite(Variant v, const FullNatural& lambda, const FullNatural& theta, const FullMean& muHat,
                       double step) {
  return updateSiteImpl(v, lambda, theta, muHat, step);
}

MeanFieldNatural updateSite(Variant v, const MeanFieldNatural& lambda, const MeanFieldNatural& theta,
                            const MeanFieldMean& muHat, double step) {
  return updateSiteImpl(v, lambda, theta, muHat, step);
}

FullNatural unbiasedNatural(const Eigen::MatrixXd& Z) {
  const Eigen::Index d = Z.rows(), n = Z.cols();
  if (n <= d + 2)
    throw std::invalid_argument("the unbiased natural-parameter estimate of a " + std::to_string(d) +
                                "-dimensional Gaussian needs more than " + std::to_string(d + 2) + " draws; got " +
                                std::to_string(n));
  const Eigen::VectorXd m = Z.rowwise().mean();
  const Eigen::MatrixXd centred = Z.colwise() - m;
  const Eigen::MatrixXd S = centred * centred.transpose() / static_cast<double>(n - 1);
  Eigen::LLT<Eigen::MatrixXd> llt(S);
  if (llt.info() != Eigen::Success) throw std::invalid_argument("the draws' sample covariance is singular");
  const Eigen::MatrixXd P =
      static_cast<double>(n - d - 2) / static_cast<double>(n - 1) * llt.solve(Eigen::MatrixXd::Identity(d, d));
  return {P * m, -0.5 * P};
}

MeanFieldNatural unbiasedNaturalDiagonal(const Eigen::MatrixXd& Z) {
  const Eigen::Index n = Z.cols();
  if (n <= 3)
    throw std::invalid_argument(
        "the unbiased natural-parameter estimate of a Gaussian coordinate needs more than 3 draws; got " +
        std::to_string(n));
  const Eigen::VectorXd m = Z.rowwise().mean();
  const Eigen::ArrayXd v = (Z.colwise() - m).array().square().rowwise().sum() / static_cast<double>(n - 1);
  if (!(v > 0.0).all()) throw std::invalid_argument("a coordinate of the draws has no spread");
  const Eigen::ArrayXd p = static_cast<double>(n - 3) / static_cast<double>(n - 1) / v;
  return {(p * m.array()).matrix(), (-0.5 * p).matrix()};
}

double cavityMargin(const FullNatural& theta, const FullNatural& cavity) {
  const std::optional<Eigen::VectorXd> e = relativeEigenvalues(-2.0 * cavity.eta2, -2.0 * theta.eta2);
  return e ? e->minCoeff() : -INFINITY;
}

double cavityMargin(const MeanFieldNatural& theta, const MeanFieldNatural& cavity) {
  if (!(theta.eta2.array() < 0.0).all()) return -INFINITY;
  return (cavity.eta2.array() / theta.eta2.array()).minCoeff();
}

std::optional<Eigen::VectorXd> relativeEigenvalues(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const Eigen::LLT<Eigen::MatrixXd> lb(b);
  if (lb.info() != Eigen::Success) return std::nullopt;
  const Eigen::MatrixXd l = lb.matrixL();
  const Eigen::MatrixXd whitened =
      l.triangularView<Eigen::Lower>().solve(l.triangularView<Eigen::Lower>().solve(a).transpose());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (whitened + whitened.transpose()),
                                                           Eigen::EigenvaluesOnly);
  return eig.eigenvalues();
}

}  // namespace pvi::algorithms::ep
