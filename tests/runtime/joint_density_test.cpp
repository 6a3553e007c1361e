// A model with a hyperparameter: JointDensity, the whole model over x = (z, w_1..w_J, theta), its
// value the sum of the factors and its gradient checked against central finite differences,
// including the w and theta blocks; and the estimation layer's E[grad_theta f].
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "runtime/estimation/Expectations.hpp"
#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/Gaussian.hpp"
#include "runtime/model/JointDensity.hpp"

namespace pvi {
namespace {

double logNormal(double x, double m, double logSd) {
  const double s = std::exp(logSd);
  return -0.5 * std::log(2.0 * std::numbers::pi) - logSd - 0.5 * (x - m) * (x - m) / (s * s);
}

// mu ~ N(0, 1), log tau ~ N(0, 1) (the hyperparameter), w_j ~ N(mu, tau), y_ji ~ N(w_j + b, 1),
// with z = (mu, b). Gradients are hand-derived; the test checks them by finite differences.
class Hierarchical final : public FactorModel {
 public:
  explicit Hierarchical(std::vector<std::vector<double>> y) : y_(std::move(y)) {}
  size_t globalDim() const override { return 2; }
  size_t hyperDim() const override { return 1; }
  size_t numPartitions() const override { return y_.size(); }
  size_t localDim(size_t) const override { return 1; }
  double priorLogDensity(const double* z, const double* theta, double* gz, double* gt) const override {
    if (gz) {
      gz[0] = -z[0];
      gz[1] = -z[1] / 4.0;
    }
    if (gt) gt[0] = -theta[0];
    return logNormal(z[0], 0, 0) + logNormal(z[1], 0, std::log(2.0)) + logNormal(theta[0], 0, 0);
  }
  double partitionLogDensity(size_t j, const double* z, const double* w, const double* theta, double* gz, double* gw,
                             double* gt) const override {
    const double tau = std::exp(theta[0]), r = (w[0] - z[0]) / tau;
    double value = logNormal(w[0], z[0], theta[0]), dw = -r / tau, db = 0.0;
    const double dmu = r / tau, dlt = -1.0 + r * r;
    for (double y : y_[j]) {
      value += logNormal(y, w[0] + z[1], 0);
      dw += y - w[0] - z[1];
      db += y - w[0] - z[1];
    }
    if (gz) {
      gz[0] = dmu;
      gz[1] = db;
    }
    if (gw) gw[0] = dw;
    if (gt) gt[0] = dlt;
    return value;
  }

 private:
  std::vector<std::vector<double>> y_;
};

TEST(JointDensity, LayoutNamesAndValueAreTheSumOfTheFactors) {
  const Hierarchical model({{0.5, 1.0}, {-0.3}, {2.0, 2.5, 1.5}});
  const JointDensity joint(model);
  ASSERT_EQ(joint.dim(), 2u + 3u + 1u);
  EXPECT_EQ(joint.localOffset(0), 2u);
  EXPECT_EQ(joint.localOffset(2), 4u);
  EXPECT_EQ(joint.hyperOffset(), 5u);
  EXPECT_EQ(joint.names(), (std::vector<std::string>{"z.1", "z.2", "w.1.1", "w.2.1", "w.3.1", "theta.1"}));
  const std::vector<double> x = {0.3, -0.2, 0.1, 0.7, -0.4, 0.25};
  double expected = model.priorLogDensity(x.data(), &x[5], nullptr, nullptr);
  for (size_t j = 0; j < 3; ++j)
    expected += model.partitionLogDensity(j, x.data(), &x[2 + j], &x[5], nullptr, nullptr, nullptr);
  EXPECT_DOUBLE_EQ(joint.logDensity(x.data(), nullptr), expected);
  std::vector<double> g(joint.dim());
  EXPECT_DOUBLE_EQ(joint.logDensity(x.data(), g.data()), expected);
}

TEST(JointDensity, GradientOverEveryBlockMatchesCentralDifferences) {
  const Hierarchical model({{0.5, 1.0}, {-0.3}, {2.0, 2.5, 1.5}});
  const JointDensity joint(model);
  std::vector<double> x = {0.3, -0.2, 0.1, 0.7, -0.4, 0.25}, g(joint.dim());
  joint.logDensity(x.data(), g.data());
  for (size_t i = 0; i < x.size(); ++i) {
    const double h = 1e-5, keep = x[i];
    x[i] = keep + h;
    const double up = joint.logDensity(x.data(), nullptr);
    x[i] = keep - h;
    const double down = joint.logDensity(x.data(), nullptr);
    x[i] = keep;
    const double fd = (up - down) / (2 * h);
    EXPECT_NEAR(g[i], fd, 1e-6 * std::max(1.0, std::abs(fd))) << joint.names()[i];
    EXPECT_NE(g[i], 0.0) << joint.names()[i] << ": every block has a gradient";
  }
}

TEST(JointDensity, FixedHyperparametersLeaveThetaOutOfX) {
  const Hierarchical model({{0.5, 1.0}, {-0.3}});
  const JointDensity sampled(model);
  const JointDensity fixed(model, JointDensity::HyperParameters::Fixed, {0.25});
  ASSERT_EQ(fixed.dim(), 4u);
  EXPECT_FALSE(fixed.samplesHyperParameters());
  const std::vector<double> xs = {0.3, -0.2, 0.1, 0.7, 0.25}, xf = {0.3, -0.2, 0.1, 0.7};
  std::vector<double> gs(5), gf(4);
  EXPECT_DOUBLE_EQ(fixed.logDensity(xf.data(), gf.data()), sampled.logDensity(xs.data(), gs.data()));
  for (size_t i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(gf[i], gs[i]);
  EXPECT_THROW(JointDensity(model, JointDensity::HyperParameters::Fixed, {0.1, 0.2}), std::invalid_argument);
  EXPECT_THROW(JointDensity(model, JointDensity::HyperParameters::Sampled, {0.1}), std::invalid_argument);
}

// d/dtheta E_q[f(z, w; theta)] = E_q[grad_theta f] because q does not depend on theta: with common
// random numbers (the same seed) the central difference of the Monte Carlo E[f] over theta must
// equal the Monte Carlo E[grad_theta f] up to O(h^2), draw for draw.
TEST(EstimationOverTheta, ExpectedThetaGradientIsTheDerivativeOfTheExpectedTerm) {
  const Hierarchical model({{0.5, 1.0}, {-0.3}});
  const estimation::PartitionLikelihood f(model, 1, {0.0});
  EXPECT_EQ(f.hyperDim(), 1u);
  const FullStandard q{(Eigen::VectorXd(2) << 0.2, -0.1).finished(),
                       (Eigen::MatrixXd(2, 2) << 0.5, 0.1, 0.1, 0.3).finished()};
  const ConditionalGaussian qw =
      ConditionalGaussian::independent(Eigen::VectorXd::Constant(1, 0.4), Eigen::VectorXd::Constant(1, std::sqrt(0.2)));
  auto at = [&](double t) {
    const std::vector<double> theta = {t};
    estimation::EstimationOptions o{64, false, nullptr, &theta};
    std::mt19937_64 rng(17);
    return estimation::estimateDerivatives<FullGaussian>(f, q, &qw, o, rng);
  };
  const double t = 0.3, h = 1e-5;
  const auto e = at(t);
  ASSERT_EQ(e.gradTheta.size(), 1);
  const double fd = (at(t + h).value - at(t - h).value) / (2 * h);
  EXPECT_NEAR(e.gradTheta[0], fd, 1e-6 * std::max(1.0, std::abs(fd)));
  EXPECT_NE(e.gradTheta[0], 0.0);
  // Without theta the likelihood's own (fixed) theta is used and no theta gradient is estimated.
  std::mt19937_64 rng(17);
  const auto fixed = estimation::estimateDerivatives<FullGaussian>(f, q, &qw, {64, false, nullptr}, rng);
  EXPECT_EQ(fixed.gradTheta.size(), 0);
  EXPECT_DOUBLE_EQ(fixed.value, at(0.0).value);
  // A wrong length is refused.
  const std::vector<double> two = {0.1, 0.2};
  std::mt19937_64 again(1);
  EXPECT_THROW(estimation::estimateDerivatives<FullGaussian>(f, q, &qw, {8, false, nullptr, &two}, again),
               std::invalid_argument);
}

}  // namespace
}  // namespace pvi
