// probeGaussianPrior (runtime/model/GaussianPriorProbe.hpp) and WithGaussianPrior: a prior whose
// log density is exactly a normalised Gaussian is recovered (mean and covariance to rounding),
// anything else is refused with a reason, and a model declared Gaussian this way gets an exact
// prior factor in makeFederation instead of a refined one.
#include <gtest/gtest.h>

#include <functional>

#include "PviTestSupport.hpp"
#include "runtime/model/WithGaussianPrior.hpp"

namespace pvi::test {
namespace {
using namespace pvi::federation;
using namespace pvi::algorithms;

// A model with no data and a prior given as a function (value and gradient in z; theta is
// passed through so that dependence on it can be tested).
class PriorOnlyModel final : public FactorModel {
 public:
  using Prior =
      std::function<double(const Eigen::VectorXd& z, const double* theta, Eigen::VectorXd& grad, double* gradTheta)>;
  PriorOnlyModel(size_t d, Prior prior, size_t hyper = 0) : d_(d), hyper_(hyper), prior_(std::move(prior)) {}
  size_t globalDim() const override { return d_; }
  size_t hyperDim() const override { return hyper_; }
  size_t numPartitions() const override { return 1; }
  double priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const override {
    Eigen::VectorXd g(static_cast<Eigen::Index>(d_));
    const double v = prior_(Eigen::Map<const Eigen::VectorXd>(z, static_cast<Eigen::Index>(d_)), theta, g, gradTheta);
    if (gradZ) Eigen::Map<Eigen::VectorXd>(gradZ, static_cast<Eigen::Index>(d_)) = g;
    return v;
  }
  double partitionLogDensity(size_t, const double*, const double*, const double*, double* gradZ, double*,
                             double*) const override {
    if (gradZ) std::fill(gradZ, gradZ + d_, 0.0);
    return 0.0;
  }

 private:
  size_t d_, hyper_;
  Prior prior_;
};

// log N(z; 0, s^2 I) plus `extra(z)` (and its gradient), with an optional constant offset.
PriorOnlyModel::Prior isotropic(double s, std::function<double(double)> extra = {},
                                std::function<double(double)> extraGrad = {}, double offset = 0.0) {
  return [=](const Eigen::VectorXd& z, const double*, Eigen::VectorXd& g, double*) {
    double v = -0.5 * static_cast<double>(z.size()) * std::log(2.0 * std::numbers::pi * s * s) + offset;
    for (Eigen::Index i = 0; i < z.size(); ++i) {
      v -= 0.5 * z(i) * z(i) / (s * s);
      g(i) = -z(i) / (s * s);
      if (extra) {
        v += extra(z(i));
        g(i) += extraGrad(z(i));
      }
    }
    return v;
  };
}

Eigen::MatrixXd covarianceOf(const GaussianPrior& p, Eigen::Index d) {
  return Eigen::Map<const Eigen::MatrixXd>(p.covariance.data(), d, d).transpose();
}

TEST(PriorProbe, RecoversStandardNormal) {
  const LogisticModel model(30, 4, 2, 5);
  const PriorProbeResult r = probeGaussianPrior(model, {});
  ASSERT_TRUE(r.prior) << r.reason;
  EXPECT_LT(Eigen::Map<const Eigen::VectorXd>(r.prior->mean.data(), 4).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((covarianceOf(*r.prior, 4) - Eigen::MatrixXd::Identity(4, 4)).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(PriorProbe, RecoversCorrelatedPriorWithMean) {
  const LinearGaussianModel model(20, 5, 2, 7);
  const PriorProbeResult r = probeGaussianPrior(model, {});
  ASSERT_TRUE(r.prior) << r.reason;
  const Eigen::VectorXd m = Eigen::Map<const Eigen::VectorXd>(r.prior->mean.data(), 5);
  // Recovered through a 5 x 5 solve with eigenvalues in [0.5, 2]: rounding ~1e-15 times a small
  // condition number.
  EXPECT_LT((m - model.priorMean()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((covarianceOf(*r.prior, 5) - model.priorCovariance()).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(PriorProbe, RecoversScaledPrior) {
  const PriorOnlyModel model(3, isotropic(2.5));
  const PriorProbeResult r = probeGaussianPrior(model, {});
  ASSERT_TRUE(r.prior) << r.reason;
  EXPECT_NEAR(r.prior->covariance[0], 6.25, 1e-12);
  EXPECT_EQ(r.prior->covariance[1], 0.0);  // exactly diagonal: the mean-field family can hold it
}

TEST(PriorProbe, RefusesNonGaussianPriors) {
  // A logistic-like tail term: not quadratic anywhere.
  const PriorOnlyModel logCosh(
      2, isotropic(
             1.0, [](double x) { return -std::log(std::cosh(x)); }, [](double x) { return -std::tanh(x); }));
  EXPECT_FALSE(probeGaussianPrior(logCosh, {}).prior);
  // Quadratic to 1e-6 near 0 (a tiny quartic term): caught at the far check points.
  const PriorOnlyModel quartic(
      2, isotropic(
             1.0, [](double x) { return -1e-6 * x * x * x * x; }, [](double x) { return -4e-6 * x * x * x; }));
  EXPECT_FALSE(probeGaussianPrior(quartic, {}).prior);
  // Gaussian in shape but not normalised.
  const PriorOnlyModel unnormalised(2, isotropic(1.0, {}, {}, 0.3));
  const PriorProbeResult r = probeGaussianPrior(unnormalised, {});
  EXPECT_FALSE(r.prior);
  EXPECT_NE(r.reason.find("normalised"), std::string::npos) << r.reason;
}

TEST(PriorProbe, RefusesPriorDependingOnHyperparameters) {
  const PriorOnlyModel model(
      2,
      [](const Eigen::VectorXd& z, const double* theta, Eigen::VectorXd& g, double* gradTheta) {
        // N(0, exp(theta)^2 I) at theta = 0 is N(0, I), but it moves with theta.
        const double s2 = std::exp(2.0 * theta[0]);
        g = -z / s2;
        if (gradTheta) gradTheta[0] = z.squaredNorm() / s2 - static_cast<double>(z.size());
        return -0.5 * static_cast<double>(z.size()) * std::log(2.0 * std::numbers::pi * s2) -
               0.5 * z.squaredNorm() / s2;
      },
      1);
  const PriorProbeResult r = probeGaussianPrior(model, {0.0});
  EXPECT_FALSE(r.prior);
  EXPECT_NE(r.reason.find("hyperparameters"), std::string::npos) << r.reason;
}

TEST(PriorProbe, DeclaredPriorIsHeldExactly) {
  const PriorOnlyModel raw(3, isotropic(1.5));
  auto optimiser = std::make_shared<AdamOptimiser<MeanFieldGaussian>>(AdamOptions{});
  EXPECT_TRUE(makeFederation<MeanFieldGaussian>(raw, optimiser).priorRefined());
  const PriorProbeResult r = probeGaussianPrior(raw, {});
  ASSERT_TRUE(r.prior) << r.reason;
  const WithGaussianPrior declared(raw, *r.prior);
  auto federation = makeFederation<MeanFieldGaussian>(declared, optimiser);
  EXPECT_FALSE(federation.priorRefined());
  const MeanFieldStandard q = toStandard(federation.server().posterior());
  EXPECT_NEAR(q.var(0), 2.25, 1e-12);
  EXPECT_EQ(q.m.cwiseAbs().maxCoeff(), 0.0);
}

PriorProbeOptions diagonalOnly() {
  PriorProbeOptions o;
  o.diagonalOnly = true;
  return o;
}

// A counting wrapper: the diagonal probe must not evaluate the prior once per dimension.
class CountingModel final : public FactorModel {
 public:
  explicit CountingModel(const FactorModel& inner) : inner_(inner) {}
  size_t globalDim() const override { return inner_.globalDim(); }
  size_t numPartitions() const override { return inner_.numPartitions(); }
  double priorLogDensity(const double* z, const double* theta, double* gz, double* gt) const override {
    ++calls;
    return inner_.priorLogDensity(z, theta, gz, gt);
  }
  double partitionLogDensity(size_t j, const double* z, const double* w, const double* theta, double* gz, double* gw,
                             double* gt) const override {
    return inner_.partitionLogDensity(j, z, w, theta, gz, gw, gt);
  }
  mutable std::size_t calls = 0;

 private:
  const FactorModel& inner_;
};

TEST(PriorProbe, DiagonalProbeRecoversAnIndependentPriorWithoutADenseMatrix) {
  const PriorOnlyModel scaled(400, isotropic(2.5));
  const CountingModel model(scaled);
  const PriorProbeResult r = probeGaussianPrior(model, {}, diagonalOnly());
  ASSERT_TRUE(r.prior) << r.reason;
  EXPECT_TRUE(r.prior->covariance.empty());
  ASSERT_EQ(r.prior->variances.size(), 400u);
  for (double v : r.prior->variances) EXPECT_NEAR(v, 6.25, 1e-12);
  for (double m : r.prior->mean) EXPECT_LT(std::abs(m), 1e-12);
  EXPECT_EQ(model.calls, 2u + PriorProbeOptions{}.checkPoints);  // not D + 1
}

TEST(PriorProbe, DiagonalProbeRefusesCorrelationsAndNonGaussianPriors) {
  const LinearGaussianModel correlated(20, 5, 2, 7);
  const PriorProbeResult r = probeGaussianPrior(correlated, {}, diagonalOnly());
  EXPECT_FALSE(r.prior);
  EXPECT_NE(r.reason.find("not an independent Gaussian"), std::string::npos) << r.reason;
  const PriorOnlyModel logCosh(
      2, isotropic(
             1.0, [](double x) { return -std::log(std::cosh(x)); }, [](double x) { return -std::tanh(x); }));
  EXPECT_FALSE(probeGaussianPrior(logCosh, {}, diagonalOnly()).prior);
}

}  // namespace
}  // namespace pvi::test
