// Bounds that read earlier parameters, and Stan's offset and multiplier, against exact posteriors
// with NUTS: (a, b) uniform on the triangle 0 < b < a < 1 (a ~ 2a, b ~ 2(1 - b): means 2/3 and
// 1/3, sds 1/sqrt(18)); t given mu normal, declared with offset mu (marginally N(0, 1.25)); d with
// a constant offset and multiplier; and truncated normal priors. Means are held to 5 MCSE; sds to 5
// standard errors of an sd estimate from ESS draws.
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

// Truncated priors on bounded parameters, as Stan programs write them: x ~ N(0.5, 1) truncated to
// [-1, 2] (symmetric about 0.5: mean 0.5, variance 1 - 3 phi(1.5) / (Phi(1.5) - Phi(-1.5))), and
// s ~ N(1, 0.5) T[0, ] (with alpha = -2 and lambda = phi(alpha) / (1 - Phi(alpha)): mean
// 1 + 0.5 lambda, variance 0.25 (1 + alpha lambda - lambda^2)).
const char* kTruncatedPriors = R"(parameters {
  real<lower=-1, upper=2> x;
  real<lower=0> s;
}
model {
  x ~ normal(0.5, 1) T[-1, 2];
  s ~ normal(1, 0.5) T[0, ];
}
)";

TEST(Truncation, NutsMatchesTruncatedNormals) {
  const double pi = 3.14159265358979323846;
  auto density = [&](double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * pi); };
  const double mass = std::erf(1.5 / std::sqrt(2.0));  // Phi(1.5) - Phi(-1.5)
  const double alpha = -2, lambda = density(alpha) / (0.5 * std::erfc(alpha / std::sqrt(2.0)));
  const std::vector<ExactMoments> exact{
      {"x", 0.5, std::sqrt(1 - 3 * density(1.5) / mass)},
      {"s", 1 + 0.5 * lambda, 0.5 * std::sqrt(1 + alpha * lambda - lambda * lambda)}};
  expectNutsMatchesExactMoments(kTruncatedPriors, exact, 13, 5);
}

}  // namespace
}  // namespace pvi::test
