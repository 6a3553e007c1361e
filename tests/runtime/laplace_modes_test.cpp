// The mode with the most mass from several searches (runtime/optim/LaplaceModes.hpp), on
// densities whose modes and Laplace masses are known in closed form.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/optim/FiniteDifferenceHessian.hpp"
#include "runtime/optim/LaplaceModes.hpp"

namespace pvi::test {
namespace {
using namespace pvi::optim;

// log(w1 N(x; m1, s1^2) + w2 N(x; m2, s2^2)) in 1-D with its derivative.
struct TwoBumps {
  double w1, m1, s1, w2, m2, s2;
  double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& g) const {
    const auto bump = [&](double w, double m, double s, double& slope) {
      const double u = (x[0] - m) / s;
      const double p = w * std::exp(-0.5 * u * u) / (s * std::sqrt(2.0 * M_PI));
      slope = -u / s;  // d log N / dx
      return p;
    };
    double d1 = 0.0, d2 = 0.0;
    const double p1 = bump(w1, m1, s1, d1), p2 = bump(w2, m2, s2, d2);
    g.resize(1);
    g[0] = (p1 * d1 + p2 * d2) / (p1 + p2);
    return std::log(p1 + p2);
  }
};

CurvatureAt curvatureOf(const ValueAndGradient& f, int* calls = nullptr, Eigen::VectorXd* last = nullptr) {
  return [=](const Eigen::VectorXd& x, const Eigen::VectorXd& steps) {
    if (calls) ++*calls;
    if (last) *last = x;
    return finiteDifferenceHessian([&](const Eigen::VectorXd& y, Eigen::VectorXd& g) { f(y, g); }, x, steps);
  };
}

// A tall narrow bump with a fifth of the mass at -3 and a low wide one with four fifths at +3.
// The Laplace mass of w N(m, s^2) at its mode is log w - log(2 pi) / 2 exactly, so the wide bump
// wins by log 4 although the narrow one is 2.5 times as high.
TEST(LaplaceModes, TakesTheModeWithTheMostMassNotTheHighest) {
  const TwoBumps f{0.2, -3.0, 0.1, 0.8, 3.0, 1.0};
  Eigen::VectorXd last;
  MultiStartOptions o;
  o.radius = 5.0;  // so that some searches start in the narrow bump's basin
  o.seed = 3;
  const LaplaceModes r = laplaceAtModes(f, curvatureOf(f, nullptr, &last), Eigen::VectorXd::Zero(1), o);
  ASSERT_EQ(r.modes.size(), 2u);
  EXPECT_EQ(r.searches, o.starts);
  const LaplaceMode& wide = r.modes[0];
  const LaplaceMode& narrow = r.modes[1];
  EXPECT_NEAR(wide.laplace.x[0], 3.0, 1e-6);
  EXPECT_NEAR(narrow.laplace.x[0], -3.0, 1e-6);
  EXPECT_NEAR(narrow.laplace.value - wide.laplace.value, std::log(2.5), 1e-6);  // higher, less mass
  EXPECT_NEAR(wide.logMass, std::log(0.8) - 0.5 * std::log(2.0 * M_PI), 1e-6);
  EXPECT_NEAR(narrow.logMass, std::log(0.2) - 0.5 * std::log(2.0 * M_PI), 1e-6);
  EXPECT_EQ(wide.reached + narrow.reached, o.starts);  // every search ended at one of them
  // The last curvature evaluation is at the winner (callers keep its by-products).
  ASSERT_EQ(last.size(), 1);
  EXPECT_EQ(last[0], wide.laplace.x[0]);
}

// When the search from `first` ends in the poorer basin, the other searches find the better one.
TEST(LaplaceModes, FindsTheBetterBasinWhenTheFirstSearchMissesIt) {
  const TwoBumps f{0.95, -1.5, 0.3, 0.05, 1.5, 0.3};
  const Eigen::VectorXd first = Eigen::VectorXd::Constant(1, 1.4);  // in the poor bump's basin
  const LaplaceResult one = laplaceAtMode(f, curvatureOf(f), first);
  ASSERT_EQ(one.outcome, LaplaceOutcome::Found);
  EXPECT_NEAR(one.x[0], 1.5, 1e-3);
  const LaplaceModes r = laplaceAtModes(f, curvatureOf(f), first);
  ASSERT_TRUE(r.found());
  EXPECT_NEAR(r.modes.front().laplace.x[0], -1.5, 1e-3);
  EXPECT_NEAR(r.modes.front().logMass - r.modes.back().logMass, std::log(0.95 / 0.05), 1e-6);
}

// One mode: every search ends there, and only its Hessians are computed (3 per Laplace fit at
// most, plus none for the searches that end at a known mode).
TEST(LaplaceModes, ASingleModeIsFoundOnceAndCountedForEverySearch) {
  const auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g = -(x - Eigen::Vector2d(0.5, -1.0)).cwiseQuotient(Eigen::Vector2d(0.04, 9.0));
    return -0.5 * ((x - Eigen::Vector2d(0.5, -1.0)).array().square() / Eigen::Array2d(0.04, 9.0)).sum();
  };
  int calls = 0;
  const LaplaceModes r = laplaceAtModes(f, curvatureOf(f, &calls), Eigen::VectorXd::Zero(2));
  ASSERT_EQ(r.modes.size(), 1u);
  EXPECT_EQ(r.modes[0].reached, 16u);
  EXPECT_LE(calls, 3);
  EXPECT_NEAR(r.modes[0].logMass, -0.5 * std::log(1.0 / (0.04 * 9.0)), 1e-6);
}

// A density that rises without bound from the first start is the answer: no best mode, no more
// searches.
TEST(LaplaceModes, AnImproperFirstSearchEndsTheSearch) {
  const auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g = Eigen::VectorXd::Constant(1, 1.0);
    return x[0];
  };
  const LaplaceModes r = laplaceAtModes(f, curvatureOf(f), Eigen::VectorXd::Zero(1));
  EXPECT_FALSE(r.found());
  EXPECT_TRUE(r.first.improper());
  EXPECT_EQ(r.searches, 1u);
}

}  // namespace
}  // namespace pvi::test
