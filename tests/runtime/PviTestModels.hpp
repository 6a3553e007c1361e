#pragma once
// Hand-written FactorModels for the PVI tests, with their exact answers in closed form.
//
//   LinearGaussianModel   y_n = x_n^T z + N(0, sigma^2), z ~ N(m0, S0): conjugate. Exact
//                         posterior, the mean-field VI optimum, and closed-form expectations of
//                         every factor (ExactExpectationsProvider: f is quadratic in z, so
//                         E[f] = f(m) - tr(X^T X S) / (2 sigma^2), E[grad] = grad f(m), E[hess] = hess f).
//   LogisticModel         Bernoulli-logit likelihood, z ~ N(0, I): non-conjugate.
//   RandomEffectsModel    y_kn = (z_0 + w_k0) + (z_1 + w_k1) x_kn + N(0, sigma^2), w_k ~ N(0, tau^2 I):
//                         local latents; Gaussian in (z, w), so the optimum of PVI's family
//                         (full q(z), mean-field q(w_k) independent of z) is known exactly: means
//                         are the exact posterior means, q(z)'s precision is the (z, z) block of
//                         the joint precision and q(w_k)'s precisions its diagonal.
// Data are simulated from fixed seeds; partitions split the rows into contiguous blocks of the
// given sizes.
#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include "runtime/model/FactorModel.hpp"
#include "runtime/estimation/LocalLikelihood.hpp"

namespace pvi::test {
using namespace pvi::estimation;

inline double log2piConst() { return std::log(2.0 * std::numbers::pi); }

// Row ranges of contiguous partitions of n rows into `parts` nearly equal blocks (first blocks
// one larger), or of the explicit sizes.
inline std::vector<std::pair<int, int>> splitRows(int n, int parts) {
  std::vector<std::pair<int, int>> out;
  int start = 0;
  for (int k = 0; k < parts; ++k) {
    const int size = n / parts + (k < n % parts ? 1 : 0);
    out.emplace_back(start, size);
    start += size;
  }
  return out;
}

class LinearGaussianModel : public FactorModel, public ExactExpectationsProvider {
 public:
  // n rows, d features, `parts` partitions; data from `seed`.
  LinearGaussianModel(int n, int d, int parts, unsigned seed, double sigma = 0.7) : sigma_(sigma) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    X_.resize(n, d);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < d; ++j) X_(i, j) = normal(rng);
    Eigen::VectorXd truth(d);
    for (int j = 0; j < d; ++j) truth(j) = normal(rng);
    y_.resize(n);
    for (int i = 0; i < n; ++i) y_(i) = X_.row(i).dot(truth) + sigma * normal(rng);
    m0_ = Eigen::VectorXd::LinSpaced(d, -0.5, 0.5);
    // A correlated prior covariance (eigenvalues in [0.5, 2]).
    Eigen::MatrixXd a(d, d);
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) a(i, j) = normal(rng);
    Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(a).householderQ();
    Eigen::VectorXd lambda = Eigen::VectorXd::LinSpaced(d, 0.5, 2.0);
    S0_ = q * lambda.asDiagonal() * q.transpose();
    S0_ = 0.5 * (S0_ + S0_.transpose()).eval();
    parts_ = splitRows(n, parts);
  }

  void setDiagonalPrior() {  // for the mean-field family's exact prior
    S0_ = Eigen::MatrixXd(S0_.diagonal().asDiagonal());
  }
  void setExposePrior(bool expose) { exposePrior_ = expose; }

  size_t globalDim() const override { return static_cast<size_t>(X_.cols()); }
  size_t numPartitions() const override { return parts_.size(); }

  double priorLogDensity(const double* z, const double*, double* gradZ, double*) const override {
    const Eigen::Map<const Eigen::VectorXd> zz(z, X_.cols());
    const Eigen::LLT<Eigen::MatrixXd> llt(S0_);
    const Eigen::VectorXd r = zz - m0_;
    const Eigen::VectorXd pr = llt.solve(r);
    if (gradZ) Eigen::Map<Eigen::VectorXd>(gradZ, X_.cols()) = -pr;
    const Eigen::MatrixXd L = llt.matrixL();
    return -0.5 * (static_cast<double>(X_.cols()) * log2piConst() + 2.0 * L.diagonal().array().log().sum() +
                   r.dot(pr));
  }

  double partitionLogDensity(size_t j, const double* z, const double*, const double*, double* gradZ, double*,
                             double*) const override {
    const auto [start, size] = parts_.at(j);
    const Eigen::Map<const Eigen::VectorXd> zz(z, X_.cols());
    const Eigen::VectorXd r = y_.segment(start, size) - X_.middleRows(start, size) * zz;
    if (gradZ)
      Eigen::Map<Eigen::VectorXd>(gradZ, X_.cols()) = X_.middleRows(start, size).transpose() * r / (sigma_ * sigma_);
    return -0.5 * size * (log2piConst() + 2.0 * std::log(sigma_)) - r.squaredNorm() / (2.0 * sigma_ * sigma_);
  }

  std::optional<GaussianPrior> gaussianPrior() const override {
    if (!exposePrior_) return std::nullopt;
    GaussianPrior p;
    p.mean.assign(m0_.data(), m0_.data() + m0_.size());
    for (int i = 0; i < S0_.rows(); ++i)
      for (int j = 0; j < S0_.cols(); ++j) p.covariance.push_back(S0_(i, j));
    return p;
  }

  std::optional<ExactExpectations> partitionExpectations(size_t j, const Eigen::VectorXd& mz, const Eigen::MatrixXd& Sz,
                                                         const Eigen::VectorXd&, const Eigen::VectorXd&) const override {
    const auto [start, size] = parts_.at(j);
    const auto Xj = X_.middleRows(start, size);
    const Eigen::VectorXd r = y_.segment(start, size) - Xj * mz;
    const double s2 = sigma_ * sigma_;
    ExactExpectations e;
    e.value = -0.5 * size * (log2piConst() + 2.0 * std::log(sigma_)) -
              (r.squaredNorm() + (Xj.transpose() * Xj * Sz).trace()) / (2.0 * s2);
    e.gradZ = Xj.transpose() * r / s2;
    e.hessZ = -Xj.transpose() * Xj / s2;
    return e;
  }

  std::optional<ExactExpectations> priorExpectations(const Eigen::VectorXd& mz, const Eigen::MatrixXd& Sz) const override {
    const Eigen::MatrixXd P0 = S0_.inverse();
    const Eigen::VectorXd r = mz - m0_;
    ExactExpectations e;
    e.value = -0.5 * (static_cast<double>(mz.size()) * log2piConst() + std::log(S0_.determinant()) + r.dot(P0 * r) +
                      (P0 * Sz).trace());
    e.gradZ = -P0 * r;
    e.hessZ = -P0;
    return e;
  }

  // Exact posterior N(mean, cov), written independently of the runtime (LU inverses).
  Eigen::MatrixXd posteriorPrecision() const { return S0_.inverse() + X_.transpose() * X_ / (sigma_ * sigma_); }
  Eigen::MatrixXd posteriorCovariance() const { return posteriorPrecision().inverse(); }
  Eigen::VectorXd posteriorMean() const {
    return posteriorCovariance() * (S0_.inverse() * m0_ + X_.transpose() * y_ / (sigma_ * sigma_));
  }
  // The mean-field VI optimum for a Gaussian posterior: exact means, variances 1 / P_ii.
  Eigen::VectorXd meanFieldVariances() const { return posteriorPrecision().diagonal().cwiseInverse(); }

  // log p(y) in closed form: y ~ N(X m0, X S0 X^T + sigma^2 I).
  double logEvidence() const {
    const Eigen::MatrixXd C = X_ * S0_ * X_.transpose() + sigma_ * sigma_ * Eigen::MatrixXd::Identity(X_.rows(), X_.rows());
    const Eigen::VectorXd r = y_ - X_ * m0_;
    return -0.5 * (static_cast<double>(X_.rows()) * log2piConst() + std::log(C.determinant()) + r.dot(C.inverse() * r));
  }

  const Eigen::MatrixXd& X() const { return X_; }
  const Eigen::VectorXd& y() const { return y_; }
  double sigma() const { return sigma_; }
  const std::vector<std::pair<int, int>>& parts() const { return parts_; }
  const Eigen::VectorXd& priorMean() const { return m0_; }
  const Eigen::MatrixXd& priorCovariance() const { return S0_; }

 private:
  Eigen::MatrixXd X_;
  Eigen::VectorXd y_, m0_;
  Eigen::MatrixXd S0_;
  double sigma_;
  std::vector<std::pair<int, int>> parts_;
  bool exposePrior_ = true;
};

class LogisticModel : public FactorModel {
 public:
  LogisticModel(int n, int d, int parts, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    X_.resize(n, d);
    for (int i = 0; i < n; ++i) {
      X_(i, 0) = 1.0;
      for (int j = 1; j < d; ++j) X_(i, j) = normal(rng);
    }
    Eigen::VectorXd truth(d);
    for (int j = 0; j < d; ++j) truth(j) = normal(rng);
    y_.resize(n);
    for (int i = 0; i < n; ++i) y_(i) = unif(rng) < 1.0 / (1.0 + std::exp(-X_.row(i).dot(truth))) ? 1.0 : 0.0;
    parts_ = splitRows(n, parts);
  }
  void setParts(std::vector<std::pair<int, int>> parts) { parts_ = std::move(parts); }

  size_t globalDim() const override { return static_cast<size_t>(X_.cols()); }
  size_t numPartitions() const override { return parts_.size(); }
  double priorLogDensity(const double* z, const double*, double* gradZ, double*) const override {
    const Eigen::Map<const Eigen::VectorXd> zz(z, X_.cols());
    if (gradZ) Eigen::Map<Eigen::VectorXd>(gradZ, X_.cols()) = -zz;
    return -0.5 * (static_cast<double>(X_.cols()) * log2piConst() + zz.squaredNorm());
  }
  double partitionLogDensity(size_t j, const double* z, const double*, const double*, double* gradZ, double*,
                             double*) const override {
    const auto [start, size] = parts_.at(j);
    const Eigen::Map<const Eigen::VectorXd> zz(z, X_.cols());
    double value = 0.0;
    Eigen::VectorXd g = Eigen::VectorXd::Zero(X_.cols());
    for (int i = start; i < start + size; ++i) {
      const double s = X_.row(i).dot(zz);
      // log sigma(s) = -log(1 + e^{-s}), written stably.
      const double logOnePlusExp = s > 0 ? s + std::log1p(std::exp(-s)) : std::log1p(std::exp(s));
      value += y_(i) * s - logOnePlusExp;
      const double p = 1.0 / (1.0 + std::exp(-s));
      g += (y_(i) - p) * X_.row(i).transpose();
    }
    if (gradZ) Eigen::Map<Eigen::VectorXd>(gradZ, X_.cols()) = g;
    return value;
  }
  std::optional<GaussianPrior> gaussianPrior() const override {
    const auto d = static_cast<size_t>(X_.cols());
    GaussianPrior p{std::vector<double>(d, 0.0), std::vector<double>(d * d, 0.0), {}};
    for (size_t i = 0; i < d; ++i) p.covariance[i * d + i] = 1.0;
    return p;
  }

 private:
  Eigen::MatrixXd X_;
  Eigen::VectorXd y_;
  std::vector<std::pair<int, int>> parts_;
};

class RandomEffectsModel : public FactorModel, public ExactExpectationsProvider {
 public:
  // `parts` groups of `perGroup` rows; z = (intercept, slope), w_k = group deviations of both.
  RandomEffectsModel(int parts, int perGroup, unsigned seed, double sigma = 0.5, double tau = 0.8)
      : sigma_(sigma), tau_(tau) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    const Eigen::Vector2d truth(0.7, -1.2);
    for (int k = 0; k < parts; ++k) {
      const Eigen::Vector2d w(tau * normal(rng), tau * normal(rng));
      Eigen::VectorXd x(perGroup), y(perGroup);
      for (int i = 0; i < perGroup; ++i) {
        x(i) = normal(rng);
        y(i) = (truth(0) + w(0)) + (truth(1) + w(1)) * x(i) + sigma * normal(rng);
      }
      x_.push_back(x);
      y_.push_back(y);
    }
  }

  size_t globalDim() const override { return 2; }
  size_t numPartitions() const override { return x_.size(); }
  size_t localDim(size_t) const override { return 2; }
  // Prior z ~ N(0, 4 I).
  double priorLogDensity(const double* z, const double*, double* gradZ, double*) const override {
    const Eigen::Map<const Eigen::Vector2d> zz(z);
    if (gradZ) {
      gradZ[0] = -zz(0) / 4.0;
      gradZ[1] = -zz(1) / 4.0;
    }
    return -log2piConst() - std::log(4.0) - zz.squaredNorm() / 8.0;
  }
  std::optional<GaussianPrior> gaussianPrior() const override { return GaussianPrior{{0.0, 0.0}, {4.0, 0.0, 0.0, 4.0}, {}}; }

  double partitionLogDensity(size_t k, const double* z, const double* w, const double*, double* gradZ, double* gradW,
                             double*) const override {
    const Eigen::VectorXd& x = x_.at(k);
    const Eigen::VectorXd& y = y_.at(k);
    const double s2 = sigma_ * sigma_, t2 = tau_ * tau_;
    const Eigen::VectorXd r = y.array() - (z[0] + w[0]) - (z[1] + w[1]) * x.array();
    const double value = -0.5 * static_cast<double>(x.size()) * (log2piConst() + std::log(s2)) -
                         r.squaredNorm() / (2.0 * s2) - (log2piConst() + std::log(t2)) -
                         (w[0] * w[0] + w[1] * w[1]) / (2.0 * t2);
    const double g0 = r.sum() / s2, g1 = r.dot(x) / s2;
    if (gradZ) {
      gradZ[0] = g0;
      gradZ[1] = g1;
    }
    if (gradW) {
      gradW[0] = g0 - w[0] / t2;
      gradW[1] = g1 - w[1] / t2;
    }
    return value;
  }

  std::optional<ExactExpectations> partitionExpectations(size_t k, const Eigen::VectorXd& mz, const Eigen::MatrixXd& Sz,
                                                         const Eigen::VectorXd& mw,
                                                         const Eigen::VectorXd& vw) const override {
    const Eigen::VectorXd& x = x_.at(k);
    const Eigen::VectorXd& y = y_.at(k);
    const double s2 = sigma_ * sigma_, t2 = tau_ * tau_;
    const auto n = static_cast<double>(x.size());
    const Eigen::VectorXd r = y.array() - (mz(0) + mw(0)) - (mz(1) + mw(1)) * x.array();
    // E r_i^2 = rbar_i^2 + a_i^T Sz a_i + b_i^T diag(vw) b_i, a_i = b_i = (1, x_i).
    double er2 = r.squaredNorm();
    for (int i = 0; i < x.size(); ++i) {
      const Eigen::Vector2d a(1.0, x(i));
      er2 += a.dot(Sz * a) + vw(0) + vw(1) * x(i) * x(i);
    }
    Eigen::Matrix2d xtx;
    xtx << n, x.sum(), x.sum(), x.squaredNorm();
    ExactExpectations e;
    e.value = -0.5 * n * (log2piConst() + std::log(s2)) - er2 / (2.0 * s2) - (log2piConst() + std::log(t2)) -
              (mw.squaredNorm() + vw.sum()) / (2.0 * t2);
    e.gradZ = Eigen::Vector2d(r.sum(), r.dot(x)) / s2;
    e.hessZ = -xtx / s2;
    e.gradW = e.gradZ - mw / t2;
    e.hessWDiag = -xtx.diagonal() / s2 - Eigen::Vector2d::Constant(1.0 / t2);
    return e;
  }

  // The joint posterior precision over (z, w_1, ..., w_M) and mean, written out directly.
  Eigen::MatrixXd jointPrecision() const {
    const int m = static_cast<int>(x_.size());
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(2 + 2 * m, 2 + 2 * m);
    P.topLeftCorner(2, 2) = Eigen::Matrix2d::Identity() / 4.0;
    for (int k = 0; k < m; ++k) {
      const Eigen::VectorXd& x = x_[k];
      Eigen::Matrix2d xtx;
      xtx << static_cast<double>(x.size()), x.sum(), x.sum(), x.squaredNorm();
      xtx /= sigma_ * sigma_;
      P.topLeftCorner(2, 2) += xtx;
      P.block(0, 2 + 2 * k, 2, 2) = xtx;
      P.block(2 + 2 * k, 0, 2, 2) = xtx;
      P.block(2 + 2 * k, 2 + 2 * k, 2, 2) = xtx + Eigen::Matrix2d::Identity() / (tau_ * tau_);
    }
    return P;
  }
  Eigen::VectorXd jointMean() const {
    const int m = static_cast<int>(x_.size());
    Eigen::VectorXd b = Eigen::VectorXd::Zero(2 + 2 * m);
    for (int k = 0; k < m; ++k) {
      const Eigen::Vector2d xty(y_[k].sum(), y_[k].dot(x_[k]));
      b.head(2) += xty / (sigma_ * sigma_);
      b.segment(2 + 2 * k, 2) = xty / (sigma_ * sigma_);
    }
    return jointPrecision().inverse() * b;
  }

 private:
  std::vector<Eigen::VectorXd> x_, y_;
  double sigma_, tau_;
};

}  // namespace pvi::test
