// optim::adamAscend: the first step against the closed form, and convergence on a quadratic
// whose coordinates differ in scale by 10^4 (Adam's per-coordinate normalisation).
#include "runtime/optim/Adam.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pvi::optim {
namespace {

TEST(Adam, FirstStepMovesEachCoordinateByTheLearningRateInTheGradientsDirection) {
  // After one step mhat = g and vhat = g^2, so the step is lr * g / (|g| + eps).
  AdamState state(3);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
  const Eigen::VectorXd g = (Eigen::VectorXd(3) << 2.0, -1e-3, 50.0).finished();
  adamAscend(state, x, g, 0.1);
  EXPECT_EQ(state.steps, 1u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(x[i], 0.1 * g[i] / (std::abs(g[i]) + 1e-8), 1e-12) << i;
}

TEST(Adam, AscendsAQuadraticWithBadlyScaledCoordinates) {
  const Eigen::VectorXd curvature = (Eigen::VectorXd(2) << 1e4, 1.0).finished();
  const Eigen::VectorXd optimum = (Eigen::VectorXd(2) << 0.5, -2.0).finished();
  AdamState state(2);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(2);
  const std::size_t steps = 3000;
  for (std::size_t t = 1; t <= steps; ++t) {
    const Eigen::VectorXd g = curvature.cwiseProduct(optimum - x);  // gradient of -sum c (x - opt)^2 / 2
    adamAscend(state, x, g, linearlyDecayed(0.05, 0.01, t, steps));
  }
  EXPECT_NEAR(x[0], optimum[0], 1e-3);
  EXPECT_NEAR(x[1], optimum[1], 1e-3);
}

TEST(Adam, LinearDecayRunsFromTheInitialRateToItsFinalFraction) {
  EXPECT_DOUBLE_EQ(linearlyDecayed(0.2, 0.1, 1, 11), 0.2);
  EXPECT_DOUBLE_EQ(linearlyDecayed(0.2, 0.1, 11, 11), 0.2 * 0.1);
  EXPECT_DOUBLE_EQ(linearlyDecayed(0.2, 0.1, 6, 11), 0.2 * 0.55);
  EXPECT_DOUBLE_EQ(linearlyDecayed(0.2, 0.1, 1, 1), 0.2);
}

TEST(Adam, RefusesMismatchedSizes) {
  AdamState state(2);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
  EXPECT_THROW(adamAscend(state, x, Eigen::VectorXd::Zero(3), 0.1), std::invalid_argument);
}

}  // namespace
}  // namespace pvi::optim
