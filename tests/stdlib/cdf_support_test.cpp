// The log CDFs and CCDFs below their distribution's support (the generic kernel table's Boost
// references are not defined there): F = 0, so lcdf is -inf and lccdf is 0 with zero gradient, as
// Stan has it; this is what a truncation T[L, ] with L below the support divides by (e.g. a
// Poisson T[0, ] divides by P(y >= 0) = 1, through poisson_lccdf(-1 | lambda) = 0).
#include <gtest/gtest.h>

#include <cmath>

#include "stdlib/kernels/kernels.h"

namespace {

TEST(CdfBelowSupport, LogCdfIsMinusInfinityAndLogCcdfIsZero) {
  const double one = 1, two = 2, below[] = {-1.0, -1e-300, -1e300};
  for (double y : below) {
    SCOPED_TRACE(y);
    double g[3] = {0, 0, 0};
    EXPECT_EQ(pvi_exponential_lcdf(1, &y, 0, &two, 0), -INFINITY);
    EXPECT_EQ(pvi_exponential_lccdf_grad(1.0, 1, &y, 0, &two, 0, &g[0], &g[1]), 0.0);
    EXPECT_EQ(pvi_gamma_lcdf(1, &y, 0, &two, 0, &one, 0), -INFINITY);
    EXPECT_EQ(pvi_gamma_lccdf_grad(1.0, 1, &y, 0, &two, 0, &one, 0, &g[0], &g[1], &g[2]), 0.0);
    EXPECT_EQ(pvi_lognormal_lcdf(1, &y, 0, &one, 0, &two, 0), -INFINITY);
    EXPECT_EQ(pvi_lognormal_lccdf_grad(1.0, 1, &y, 0, &one, 0, &two, 0, &g[0], &g[1], &g[2]), 0.0);
    EXPECT_EQ(pvi_weibull_lcdf(1, &y, 0, &two, 0, &one, 0), -INFINITY);
    EXPECT_EQ(pvi_weibull_lccdf_grad(1.0, 1, &y, 0, &two, 0, &one, 0, &g[0], &g[1], &g[2]), 0.0);
    for (double v : g) EXPECT_EQ(v, 0.0);
  }
  for (int64_t k : {int64_t{-1}, int64_t{-5}}) {
    double g = 0;
    EXPECT_EQ(pvi_poisson_lcdf(1, &k, 0, &two, 0), -INFINITY);
    EXPECT_EQ(pvi_poisson_lccdf_grad(1.0, 1, &k, 0, &two, 0, &g), 0.0);
    EXPECT_EQ(g, 0.0);
  }
  // One element below the support among others: that element adds 0 to the lccdf.
  const double ys[] = {-1.0, 0.5, 2.0};
  EXPECT_NEAR(pvi_exponential_lccdf(3, ys, 1, &two, 0), -2 * (0.5 + 2.0), 1e-15);
}

}  // namespace
