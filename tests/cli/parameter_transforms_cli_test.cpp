// Bounds that read earlier parameters, and Stan's offset and multiplier, against exact posteriors
// with NUTS: (a, b) uniform on the triangle 0 < b < a < 1 (a ~ 2a, b ~ 2(1 - b): means 2/3 and
// 1/3, sds 1/sqrt(18)); t given mu normal, declared with offset mu (marginally N(0, 1.25)); d with
// a constant offset and multiplier. Means are held to 5 MCSE; sds to 5 standard errors of an sd
// estimate from ESS draws.
#include <gtest/gtest.h>

#include <cmath>

#include "exact_moments.hpp"

namespace pvi::test {
namespace {

const char* kTransformsModel = R"(parameters {
  real<lower=0, upper=1> a;
  real<lower=0, upper=a> b;
  real mu;
  real<offset=mu, multiplier=0.5> t;
  real<offset=3, multiplier=2> d;
}
model {
  mu ~ normal(0, 1);
  t ~ normal(mu, 0.5);
  d ~ normal(3, 2);
}
)";

TEST(ParameterTransforms, NutsMatchesExactPosteriors) {
  const std::vector<ExactMoments> exact{
      {"a", 2.0 / 3, std::sqrt(1.0 / 18)}, {"b", 1.0 / 3, std::sqrt(1.0 / 18)}, {"mu", 0, 1},
      {"t", 0, std::sqrt(1.25)},          {"d", 3, 2},
  };
  expectNutsMatchesExactMoments(kTransformsModel, exact, 12, 5);
}

}  // namespace
}  // namespace pvi::test
