// Neal's funnel, v ~ N(0, 3^2), x_i | v ~ N(0, e^v) for i = 1..9: the centred form has a neck no
// single step size can enter, and the sampler must say so (divergences) rather than return a
// biased answer silently; the same distribution written non-centred samples cleanly.
#include <gtest/gtest.h>

#include <cmath>

#include "SamplerTestSupport.hpp"

namespace pvi::samplers {
namespace {

constexpr Eigen::Index kX = 9;

Target centredFunnel() {
  Target t;
  t.dim = kX + 1;
  t.logDensity = [](const double* q, double* g) {
    const double v = q[0], e = std::exp(-v);
    double sumSquares = 0.0;
    for (Eigen::Index i = 1; i <= kX; ++i) {
      sumSquares += q[i] * q[i];
      g[i] = -q[i] * e;
    }
    g[0] = -v / 9.0 + 0.5 * sumSquares * e - 0.5 * static_cast<double>(kX);
    return -v * v / 18.0 - 0.5 * sumSquares * e - 0.5 * static_cast<double>(kX) * v;
  };
  return t;
}

// v = 3 u_0 and x_i = e^{v/2} u_i with u ~ N(0, I): a standard normal in u.
Target nonCentredFunnel() {
  Target t;
  t.dim = kX + 1;
  t.logDensity = [](const double* u, double* g) {
    double lp = 0.0;
    for (Eigen::Index i = 0; i <= kX; ++i) {
      lp -= 0.5 * u[i] * u[i];
      g[i] = -u[i];
    }
    return lp;
  };
  return t;
}

const char* adaptationLabel(Adaptation a) { return a == Adaptation::Fisher ? "fisher" : "windowed"; }

std::size_t divergences(const std::vector<ChainResult>& chains) {
  std::size_t n = 0;
  for (const ChainResult& c : chains) n += c.divergences;
  return n;
}

TEST(Funnel, CentredReportsDivergences) {
  for (Adaptation a : {Adaptation::Fisher, Adaptation::Windowed}) {
    SamplerOptions o;
    o.seed = 5;
    o.adaptation = a;
    EXPECT_GT(divergences(sample(centredFunnel(), o)), 0u) << adaptationLabel(a);
  }
}

TEST(Funnel, NonCentredHasNoDivergencesAndTheRightScale) {
  SamplerOptions o;
  o.seed = 5;
  const std::vector<ChainResult> chains = sample(nonCentredFunnel(), o);
  EXPECT_EQ(divergences(chains), 0u);
  const Eigen::MatrixXd v = 3.0 * testing::column(chains, 0);  // v = 3 u_0 ~ N(0, 9)
  EXPECT_LT(testing::mcseDistance(v, 0.0), 4.0);
  EXPECT_LT(testing::mcseDistance(v.array().square().matrix(), 9.0), 4.0);
}

}  // namespace
}  // namespace pvi::samplers
