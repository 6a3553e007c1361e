// L-BFGS with the outcomes a fit tells apart (runtime/optim/Lbfgs.hpp), and finite-difference
// Hessians from exact gradients (runtime/optim/FiniteDifferenceHessian.hpp).
#include "runtime/optim/Lbfgs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "runtime/optim/FiniteDifferenceHessian.hpp"

namespace pvi::test {
namespace {
using namespace pvi::optim;

// -Rosenbrock: maximum 0 at (1, 1).
double negRosenbrock(const Eigen::VectorXd& x, Eigen::VectorXd& g) {
  const double a = 1.0 - x(0), b = x(1) - x(0) * x(0);
  g.resize(2);
  g(0) = 2.0 * a + 400.0 * x(0) * b;
  g(1) = -200.0 * b;
  return -(a * a + 100.0 * b * b);
}

TEST(Lbfgs, FindsTheMaximumOfRosenbrock) {
  const LbfgsResult r = maximiseLbfgs(negRosenbrock, Eigen::Vector2d(-1.2, 1.0));
  EXPECT_EQ(r.status, LbfgsStatus::Converged) << r.note;
  EXPECT_NEAR(r.x(0), 1.0, 1e-5);
  EXPECT_NEAR(r.x(1), 1.0, 1e-5);
}

// A correlated Gaussian log density whose scales differ by 10^8 (like a coefficient in dollars
// next to one per inch): the maximum is found in the units of each coordinate.
TEST(Lbfgs, FindsAMaximumWhoseScalesDifferByOrdersOfMagnitude) {
  const Eigen::Vector2d sd(2e4, 2e-4), mode(-6e4, 1.3e-3);
  const double rho = 0.9;
  const auto f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    const Eigen::Vector2d u = (x - mode).cwiseQuotient(sd);
    const double q = (u(0) * u(0) - 2 * rho * u(0) * u(1) + u(1) * u(1)) / (1 - rho * rho);
    g = Eigen::Vector2d((u(0) - rho * u(1)) / sd(0), (u(1) - rho * u(0)) / sd(1)) * (-1.0 / (1 - rho * rho));
    return -0.5 * q;
  };
  const LbfgsResult r = maximiseLbfgs(f, Eigen::Vector2d(0.0, 0.0));
  EXPECT_NE(r.status, LbfgsStatus::Diverged) << r.note;
  EXPECT_NEAR(r.x(0), mode(0), 1e-3 * sd(0));
  EXPECT_NEAR(r.x(1), mode(1), 1e-3 * sd(1));
}

TEST(Lbfgs, ReportsAFunctionThatRisesWithoutBound) {
  // log-likelihood of separable logistic data with a flat prior, plus a coordinate that is fine.
  const auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g.resize(2);
    g(0) = 1.0;  // rises linearly in x0 forever
    g(1) = -x(1);
    return x(0) - 0.5 * x(1) * x(1);
  };
  const LbfgsResult r = maximiseLbfgs(f, Eigen::Vector2d(0.0, 3.0));
  EXPECT_EQ(r.status, LbfgsStatus::Diverged);
  EXPECT_EQ(r.divergentCoordinate, 0u);
}

TEST(Lbfgs, BacksAwayFromPointsWhereTheFunctionIsNotFinite) {
  // log density of a scale parameter: -inf for x <= 0 (returned as -inf or refused), maximum at 2.
  for (const bool refuse : {false, true}) {
    const auto f = [refuse](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g.resize(1);
      if (x(0) <= 0.0) {
        if (refuse) throw std::domain_error("outside the support");
        g(0) = 0.0;
        return -std::numeric_limits<double>::infinity();
      }
      g(0) = 2.0 / x(0) - 1.0;
      return 2.0 * std::log(x(0)) - x(0);
    };
    const LbfgsResult r = maximiseLbfgs(f, Eigen::VectorXd::Constant(1, 30.0));
    EXPECT_EQ(r.status, LbfgsStatus::Converged) << r.note;
    EXPECT_NEAR(r.x(0), 2.0, 1e-6);
    EXPECT_TRUE(std::isfinite(r.value));
  }
}

TEST(Lbfgs, SaysWhenTheStartIsNotFiniteAndPassesOtherErrorsOn) {
  const auto nan = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g = Eigen::VectorXd::Zero(x.size());
    return std::nan("");
  };
  EXPECT_EQ(maximiseLbfgs(nan, Eigen::VectorXd::Zero(2)).status, LbfgsStatus::NotFiniteAtStart);
  int calls = 0;
  const auto broken = [&calls](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    if (++calls > 3) throw std::runtime_error("index out of range in the model");
    g = -x;
    return -0.5 * x.squaredNorm();
  };
  EXPECT_THROW(maximiseLbfgs(broken, Eigen::VectorXd::Constant(2, 5.0)), std::runtime_error);
}

TEST(FiniteDifferenceHessian, IsExactForAQuadraticAndAccurateOtherwise) {
  const Eigen::Matrix3d A = (Eigen::Matrix3d() << 4, 1, 0.5, 1, 3, -1, 0.5, -1, 2).finished();
  const auto quadratic = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) { g = -A * x; };
  const Eigen::Vector3d x(0.3, -1.0, 2.0);
  EXPECT_LT((finiteDifferenceHessian(quadratic, x, defaultHessianSteps(x)) + A).cwiseAbs().maxCoeff(), 1e-9);
  // f = sum_i log(1 + exp(a_i . x)): Hessian sum_i s_i (1 - s_i) a_i a_i^T, s = logistic(a . x).
  const Eigen::Matrix3d rows = (Eigen::Matrix3d() << 1, -2, 0.5, 0.3, 1, 1, -1, 0.2, 2).finished();
  const auto softplus = [&](const Eigen::VectorXd& z, Eigen::VectorXd& g) {
    const Eigen::ArrayXd s = 1.0 / (1.0 + (-(rows * z).array()).exp());
    g = rows.transpose() * s.matrix();
  };
  Eigen::Matrix3d exact = Eigen::Matrix3d::Zero();
  const Eigen::ArrayXd s = 1.0 / (1.0 + (-(rows * x).array()).exp());
  for (int i = 0; i < 3; ++i) exact += s(i) * (1 - s(i)) * rows.row(i).transpose() * rows.row(i);
  const Eigen::MatrixXd H = finiteDifferenceHessian(softplus, x, Eigen::Vector3d::Constant(1e-4));
  EXPECT_LT((H - exact).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_LT((H - H.transpose()).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(FiniteDifferenceHessian, RefusesANonFiniteGradient) {
  const auto bad = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g = x;
    if (x(0) > 0) g(0) = NAN;
  };
  EXPECT_THROW(finiteDifferenceHessian(bad, Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(0.1, 0.1)), std::domain_error);
}

}  // namespace
}  // namespace pvi::test

#include <Eigen/LU>

#include "runtime/optim/Laplace.hpp"

namespace pvi::test {
namespace {
using namespace pvi::optim;

// A Gaussian log density with sds 2e4 and 2e-4 and correlation 0.95: the Laplace approximation is
// exact, whatever L-BFGS leaves for the Newton polish.
TEST(Laplace, IsExactForABadlyScaledGaussian) {
  const Eigen::Vector2d mode(-6e4, 1.3e-3), sd(2e4, 2e-4);
  const double rho = 0.95;
  Eigen::Matrix2d S;
  S << sd(0) * sd(0), rho * sd(0) * sd(1), rho * sd(0) * sd(1), sd(1) * sd(1);
  const Eigen::Matrix2d P = S.inverse();
  const ValueAndGradient f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g = -P * (x - mode);
    return -0.5 * (x - mode).dot(P * (x - mode));
  };
  const CurvatureAt curvature = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& steps) {
    return finiteDifferenceHessian([&](const Eigen::VectorXd& y, Eigen::VectorXd& g) { f(y, g); }, x, steps);
  };
  const LaplaceResult r = laplaceAtMode(f, curvature, Eigen::Vector2d::Zero());
  ASSERT_EQ(r.outcome, LaplaceOutcome::Found) << r.detail;
  EXPECT_LT(((r.x - mode).cwiseQuotient(sd)).cwiseAbs().maxCoeff(), 1e-6);
  const Eigen::Matrix2d covariance = (-r.hessian).inverse();
  EXPECT_LT(((covariance - S).array() / (sd * sd.transpose()).array()).abs().maxCoeff(), 1e-6);
}

}  // namespace
}  // namespace pvi::test
