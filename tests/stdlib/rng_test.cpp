// The _rng kernels (stdlib/kernels/rng) against their distributions, from fixed seeds:
//   RngDraws.ContinuousMatchTheirCdf    n = 20000 draws of every continuous kernel: the
//                                       Kolmogorov-Smirnov distance from the Boost.Math cdf is
//                                       below 1.95 / sqrt(n), the statistic's 0.001 critical value
//   RngDraws.DiscreteMatchTheirPmf      every value of probability >= 1e-3 (Boost.Math pmf) has a
//                                       frequency within 5 standard errors sqrt(p (1 - p) / n)
//   RngDraws.Multivariate*              component means and (co)variances within 5 standard
//                                       errors, each estimated from the draws themselves
//   RngDomain.*                         an argument outside the domain (as Stan's _rng functions
//                                       check it) in element 3 of 5 returns 3 + 1 = 4
//   RngStreams.*                        a seed and stream give the same draws on every run; other
//                                       streams and seeds give others; vectorised arguments are
//                                       read element by element
//   RngCoverage.EveryKernelHasACase     every symbol of rng.def is exercised here
// The seeds are fixed, so each check is deterministic; the bounds are what a correct sampler passes
// with probability about 0.999 or more, and a wrong location, scale or shape misses them widely.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/bernoulli.hpp>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/cauchy.hpp>
#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/inverse_gamma.hpp>
#include <boost/math/distributions/weibull.hpp>
#include <boost/math/distributions/laplace.hpp>
#include <boost/math/distributions/logistic.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/negative_binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/distributions/uniform.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "stdlib/kernels/rng/rng.h"

namespace pvi::rngtest {
namespace {

namespace bm = boost::math;

// A vectorised kernel called with real arguments (int ones converted), each either one value
// broadcast (stride 0) or one value per draw (stride 1); int variates are returned as doubles.
using Draw = std::function<int64_t(pvi_rng*, int64_t n, const std::vector<std::vector<double>>& args,
                                   std::vector<double>& out)>;

int64_t strideOf(const std::vector<double>& a) { return a.size() == 1 ? 0 : 1; }

Draw wrap(int64_t (*f)(pvi_rng*, int64_t, double*)) {
  return [f](pvi_rng* r, int64_t n, const std::vector<std::vector<double>>&, std::vector<double>& out) {
    return f(r, n, out.data());
  };
}
Draw wrap(int64_t (*f)(pvi_rng*, int64_t, const double*, int64_t, double*)) {
  return [f](pvi_rng* r, int64_t n, const std::vector<std::vector<double>>& a, std::vector<double>& out) {
    return f(r, n, a[0].data(), strideOf(a[0]), out.data());
  };
}
Draw wrap(int64_t (*f)(pvi_rng*, int64_t, const double*, int64_t, const double*, int64_t, double*)) {
  return [f](pvi_rng* r, int64_t n, const std::vector<std::vector<double>>& a, std::vector<double>& out) {
    return f(r, n, a[0].data(), strideOf(a[0]), a[1].data(), strideOf(a[1]), out.data());
  };
}
Draw wrap(int64_t (*f)(pvi_rng*, int64_t, const double*, int64_t, const double*, int64_t, const double*, int64_t,
                       double*)) {
  return [f](pvi_rng* r, int64_t n, const std::vector<std::vector<double>>& a, std::vector<double>& out) {
    return f(r, n, a[0].data(), strideOf(a[0]), a[1].data(), strideOf(a[1]), a[2].data(), strideOf(a[2]), out.data());
  };
}
Draw wrap(int64_t (*f)(pvi_rng*, int64_t, const double*, int64_t, int64_t*)) {
  return [f](pvi_rng* r, int64_t n, const std::vector<std::vector<double>>& a, std::vector<double>& out) {
    std::vector<int64_t> y(out.size());
    int64_t st = f(r, n, a[0].data(), strideOf(a[0]), y.data());
    std::copy(y.begin(), y.end(), out.begin());
    return st;
  };
}
Draw wrap(int64_t (*f)(pvi_rng*, int64_t, const double*, int64_t, const double*, int64_t, int64_t*)) {
  return [f](pvi_rng* r, int64_t n, const std::vector<std::vector<double>>& a, std::vector<double>& out) {
    std::vector<int64_t> y(out.size());
    int64_t st = f(r, n, a[0].data(), strideOf(a[0]), a[1].data(), strideOf(a[1]), y.data());
    std::copy(y.begin(), y.end(), out.begin());
    return st;
  };
}
// The first argument an int (binomial's N).
Draw wrap(int64_t (*f)(pvi_rng*, int64_t, const int64_t*, int64_t, const double*, int64_t, int64_t*)) {
  return [f](pvi_rng* r, int64_t n, const std::vector<std::vector<double>>& a, std::vector<double>& out) {
    std::vector<int64_t> N(a[0].begin(), a[0].end()), y(out.size());
    int64_t st = f(r, n, N.data(), strideOf(a[0]), a[1].data(), strideOf(a[1]), y.data());
    std::copy(y.begin(), y.end(), out.begin());
    return st;
  };
}

std::vector<double> draws(const Draw& d, const std::vector<double>& params, int64_t n, uint64_t seed) {
  std::vector<std::vector<double>> args;
  for (double p : params) args.push_back({p});
  std::vector<double> out(static_cast<size_t>(n));
  pvi_rng rng;
  pvi_rng_seed(&rng, seed, 0);
  EXPECT_EQ(d(&rng, n, args, out), 0);
  return out;
}

struct Continuous {
  std::string symbol;
  Draw draw;
  std::vector<double> params;
  std::function<double(double)> cdf;
};

struct Discrete {
  std::string symbol;
  Draw draw;
  std::vector<double> params;
  std::function<double(double)> pmf;
  int64_t maxValue;  // the values checked are 0 .. maxValue
};

double invLogit(double x) { return 1.0 / (1.0 + std::exp(-x)); }

std::vector<Continuous> continuousCases() {
  return {
      {"pvi_normal_rng", wrap(pvi_normal_rng), {1.5, 2.0}, [](double x) { return bm::cdf(bm::normal(1.5, 2.0), x); }},
      {"pvi_std_normal_rng", wrap(pvi_std_normal_rng), {}, [](double x) { return bm::cdf(bm::normal(0, 1), x); }},
      {"pvi_lognormal_rng", wrap(pvi_lognormal_rng), {0.3, 0.8},
       [](double x) { return bm::cdf(bm::lognormal(0.3, 0.8), x); }},
      {"pvi_cauchy_rng", wrap(pvi_cauchy_rng), {-1.0, 0.5}, [](double x) { return bm::cdf(bm::cauchy(-1.0, 0.5), x); }},
      {"pvi_student_t_rng", wrap(pvi_student_t_rng), {3.5, 2.0, 1.5},
       [](double x) { return bm::cdf(bm::students_t(3.5), (x - 2.0) / 1.5); }},
      {"pvi_logistic_rng", wrap(pvi_logistic_rng), {0.5, 2.0},
       [](double x) { return bm::cdf(bm::logistic(0.5, 2.0), x); }},
      {"pvi_double_exponential_rng", wrap(pvi_double_exponential_rng), {-1.0, 0.7},
       [](double x) { return bm::cdf(bm::laplace(-1.0, 0.7), x); }},
      {"pvi_exponential_rng", wrap(pvi_exponential_rng), {2.5},
       [](double x) { return bm::cdf(bm::exponential(2.5), x); }},
      // Shape 3 and rate 2 (scale 1/2); a shape below 1 takes Boost's other algorithm.
      {"pvi_gamma_rng", wrap(pvi_gamma_rng), {3.0, 2.0}, [](double x) { return bm::cdf(bm::gamma_distribution<>(3.0, 0.5), x); }},
      {"pvi_gamma_rng", wrap(pvi_gamma_rng), {0.3, 0.7},
       [](double x) { return bm::cdf(bm::gamma_distribution<>(0.3, 1.0 / 0.7), x); }},
      {"pvi_inv_gamma_rng", wrap(pvi_inv_gamma_rng), {2.5, 1.5},
       [](double x) { return bm::cdf(bm::inverse_gamma_distribution<>(2.5, 1.5), x); }},
      {"pvi_weibull_rng", wrap(pvi_weibull_rng), {1.7, 2.5},
       [](double x) { return bm::cdf(bm::weibull_distribution<>(1.7, 2.5), x); }},
      {"pvi_beta_rng", wrap(pvi_beta_rng), {2.0, 5.0}, [](double x) { return bm::cdf(bm::beta_distribution<>(2.0, 5.0), x); }},
      // Small shapes: the draws are made in logs (x / (x + y) of gamma draws would underflow).
      {"pvi_beta_rng", wrap(pvi_beta_rng), {0.1, 0.3}, [](double x) { return bm::cdf(bm::beta_distribution<>(0.1, 0.3), x); }},
      {"pvi_uniform_rng", wrap(pvi_uniform_rng), {-2.0, 3.0},
       [](double x) { return bm::cdf(bm::uniform_distribution<>(-2.0, 3.0), x); }},
  };
}

std::vector<Discrete> discreteCases() {
  auto nb2 = [](double mu, double phi) { return bm::negative_binomial(phi, phi / (mu + phi)); };
  return {
      {"pvi_bernoulli_rng", wrap(pvi_bernoulli_rng), {0.3},
       [](double k) { return bm::pdf(bm::bernoulli(0.3), k); }, 1},
      {"pvi_bernoulli_logit_rng", wrap(pvi_bernoulli_logit_rng), {-0.5},
       [](double k) { return bm::pdf(bm::bernoulli(invLogit(-0.5)), k); }, 1},
      {"pvi_binomial_rng", wrap(pvi_binomial_rng), {20, 0.3}, [](double k) { return bm::pdf(bm::binomial(20, 0.3), k); }, 20},
      {"pvi_binomial_logit_rng", wrap(pvi_binomial_logit_rng), {40, 1.2},
       [](double k) { return bm::pdf(bm::binomial(40, invLogit(1.2)), k); }, 40},
      {"pvi_poisson_rng", wrap(pvi_poisson_rng), {3.5}, [](double k) { return bm::pdf(bm::poisson(3.5), k); }, 30},
      // A large rate takes Boost's other algorithm.
      {"pvi_poisson_rng", wrap(pvi_poisson_rng), {250.0}, [](double k) { return bm::pdf(bm::poisson(250.0), k); }, 400},
      {"pvi_poisson_log_rng", wrap(pvi_poisson_log_rng), {1.2},
       [](double k) { return bm::pdf(bm::poisson(std::exp(1.2)), k); }, 30},
      {"pvi_neg_binomial_2_rng", wrap(pvi_neg_binomial_2_rng), {4.0, 2.5},
       [nb2](double k) { return bm::pdf(nb2(4.0, 2.5), k); }, 60},
  };
}

TEST(RngDraws, ContinuousMatchTheirCdf) {
  const int64_t n = 20000;
  uint64_t seed = 11;
  for (const Continuous& c : continuousCases()) {
    SCOPED_TRACE(c.symbol);
    std::vector<double> x = draws(c.draw, c.params, n, seed++);
    std::sort(x.begin(), x.end());
    double d = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      double F = c.cdf(x[static_cast<size_t>(i)]);
      d = std::max({d, F - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - F});
    }
    EXPECT_LT(d, 1.95 / std::sqrt(static_cast<double>(n)));
  }
}

TEST(RngDraws, DiscreteMatchTheirPmf) {
  const int64_t n = 40000;
  uint64_t seed = 101;
  for (const Discrete& c : discreteCases()) {
    SCOPED_TRACE(c.symbol);
    std::vector<double> y = draws(c.draw, c.params, n, seed++);
    std::vector<double> freq(static_cast<size_t>(c.maxValue) + 1, 0.0);
    for (double v : y) {
      ASSERT_EQ(v, std::floor(v));
      ASSERT_GE(v, 0.0);
      if (v <= static_cast<double>(c.maxValue)) freq[static_cast<size_t>(v)] += 1.0 / n;
    }
    int checked = 0;
    for (int64_t k = 0; k <= c.maxValue; ++k) {
      double p = c.pmf(static_cast<double>(k));
      if (p < 1e-3) continue;
      ++checked;
      EXPECT_NEAR(freq[static_cast<size_t>(k)], p, 5.0 * std::sqrt(p * (1.0 - p) / n)) << "value " << k;
    }
    EXPECT_GE(checked, 2);
  }
}

// Means and covariances of draws (rows: draws), with the standard errors of each estimate taken
// from the draws: se(mean_i) = sd_i / sqrt(n), se(cov_ij) = sd of the products / sqrt(n).
void expectMoments(const std::vector<std::vector<double>>& x, const std::vector<double>& mean,
                   const std::vector<std::vector<double>>& cov) {
  const size_t n = x.size(), k = mean.size();
  std::vector<double> m(k, 0.0);
  for (const auto& r : x)
    for (size_t i = 0; i < k; ++i) m[i] += r[i] / static_cast<double>(n);
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) {
      double s = 0.0, s2 = 0.0;
      for (const auto& r : x) {
        double p = (r[i] - m[i]) * (r[j] - m[j]);
        s += p;
        s2 += p * p;
      }
      double c = s / static_cast<double>(n);
      double se = std::sqrt(std::max(s2 / static_cast<double>(n) - c * c, 0.0) / static_cast<double>(n));
      EXPECT_NEAR(c, cov[i][j], 5.0 * se) << "covariance " << i << ", " << j;
      if (i == j) {
        EXPECT_NEAR(m[i], mean[i], 5.0 * std::sqrt(c / static_cast<double>(n))) << "mean " << i;
      }
    }
  }
}

TEST(RngDraws, MultivariateDirichlet) {
  const std::vector<double> alpha{0.2, 1.0, 3.0};
  const double a0 = 4.2;
  std::vector<std::vector<double>> x(20000, std::vector<double>(3));
  pvi_rng rng;
  pvi_rng_seed(&rng, 5, 0);
  for (auto& r : x) {
    ASSERT_EQ(pvi_dirichlet_rng(&rng, 3, alpha.data(), r.data()), 0);
    EXPECT_NEAR(r[0] + r[1] + r[2], 1.0, 1e-12);
  }
  std::vector<double> mean(3);
  std::vector<std::vector<double>> cov(3, std::vector<double>(3));
  for (size_t i = 0; i < 3; ++i) {
    mean[i] = alpha[i] / a0;
    for (size_t j = 0; j < 3; ++j)
      cov[i][j] = ((i == j ? alpha[i] * a0 : 0.0) - alpha[i] * alpha[j]) / (a0 * a0 * (a0 + 1.0));
  }
  expectMoments(x, mean, cov);
}

TEST(RngDraws, MultivariateNormalAndItsCholeskyForm) {
  const std::vector<double> mu{1.0, -2.0, 0.5};
  // Sigma column-major, and its lower Cholesky factor (computed by hand: L L' = Sigma).
  const std::vector<std::vector<double>> Sigma{{2.0, 0.6, -0.4}, {0.6, 1.0, 0.3}, {-0.4, 0.3, 1.5}};
  std::vector<double> S(9), L(9, 0.0);
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 3; ++j) S[i + 3 * j] = Sigma[i][j];
  for (size_t j = 0; j < 3; ++j) {
    double d = Sigma[j][j];
    for (size_t k = 0; k < j; ++k) d -= L[j + 3 * k] * L[j + 3 * k];
    L[j + 3 * j] = std::sqrt(d);
    for (size_t i = j + 1; i < 3; ++i) {
      double s = Sigma[i][j];
      for (size_t k = 0; k < j; ++k) s -= L[i + 3 * k] * L[j + 3 * k];
      L[i + 3 * j] = s / L[j + 3 * j];
    }
  }
  for (bool cholesky : {false, true}) {
    SCOPED_TRACE(cholesky ? "multi_normal_cholesky" : "multi_normal");
    std::vector<std::vector<double>> x(20000, std::vector<double>(3));
    pvi_rng rng;
    pvi_rng_seed(&rng, cholesky ? 8 : 7, 0);
    for (auto& r : x)
      ASSERT_EQ(cholesky ? pvi_multi_normal_cholesky_rng(&rng, 3, mu.data(), L.data(), r.data())
                         : pvi_multi_normal_rng(&rng, 3, mu.data(), S.data(), r.data()),
                0);
    expectMoments(x, mu, Sigma);
  }
}

TEST(RngDraws, CategoricalAndCategoricalLogit) {
  const std::vector<double> theta{0.2, 0.5, 0.0, 0.3};
  std::vector<double> beta(4);
  for (size_t c = 0; c < 4; ++c) beta[c] = std::log(theta[c] + 0.1) + 7.0;  // softmax: (theta + 0.1) / 1.4
  const int n = 40000;
  for (bool logit : {false, true}) {
    SCOPED_TRACE(logit ? "categorical_logit" : "categorical");
    pvi_rng rng;
    pvi_rng_seed(&rng, logit ? 3 : 2, 0);
    std::vector<double> freq(4, 0.0);
    for (int i = 0; i < n; ++i) {
      int64_t y = 0;
      ASSERT_EQ(logit ? pvi_categorical_logit_rng(&rng, 4, beta.data(), &y) : pvi_categorical_rng(&rng, 4, theta.data(), &y), 0);
      ASSERT_GE(y, 1);
      ASSERT_LE(y, 4);
      freq[static_cast<size_t>(y - 1)] += 1.0 / n;
    }
    for (size_t c = 0; c < 4; ++c) {
      double p = logit ? (theta[c] + 0.1) / 1.4 : theta[c];
      EXPECT_NEAR(freq[c], p, 5.0 * std::sqrt(p * (1.0 - p) / n) + 1e-12) << "category " << c + 1;
    }
  }
}

// Every parameter's out-of-domain values, as Stan's _rng functions refuse them.
struct DomainCase {
  std::string symbol;
  Draw draw;
  std::vector<double> good;
  std::vector<std::vector<double>> bad;  // per parameter
};

TEST(RngDomain, AnArgumentOutsideTheDomainNamesItsElement) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> loc{inf, -inf, nan}, scale{0.0, -1.0, inf, nan}, prob{-0.1, 1.1, nan};
  const std::vector<DomainCase> cases{
      {"pvi_normal_rng", wrap(pvi_normal_rng), {0, 1}, {loc, scale}},
      {"pvi_lognormal_rng", wrap(pvi_lognormal_rng), {0, 1}, {loc, scale}},
      {"pvi_cauchy_rng", wrap(pvi_cauchy_rng), {0, 1}, {loc, scale}},
      {"pvi_student_t_rng", wrap(pvi_student_t_rng), {3, 0, 1}, {scale, loc, scale}},
      {"pvi_logistic_rng", wrap(pvi_logistic_rng), {0, 1}, {loc, scale}},
      {"pvi_double_exponential_rng", wrap(pvi_double_exponential_rng), {0, 1}, {loc, scale}},
      {"pvi_exponential_rng", wrap(pvi_exponential_rng), {1}, {scale}},
      {"pvi_gamma_rng", wrap(pvi_gamma_rng), {1, 1}, {scale, scale}},
      {"pvi_inv_gamma_rng", wrap(pvi_inv_gamma_rng), {1, 1}, {scale, scale}},
      {"pvi_weibull_rng", wrap(pvi_weibull_rng), {1, 1}, {scale, scale}},
      {"pvi_beta_rng", wrap(pvi_beta_rng), {1, 1}, {scale, scale}},
      {"pvi_uniform_rng", wrap(pvi_uniform_rng), {0, 1}, {{inf, nan, 1.0, 2.0}, {inf, nan, 0.0, -1.0}}},
      {"pvi_bernoulli_rng", wrap(pvi_bernoulli_rng), {0.5}, {prob}},
      {"pvi_bernoulli_logit_rng", wrap(pvi_bernoulli_logit_rng), {0}, {loc}},
      {"pvi_binomial_rng", wrap(pvi_binomial_rng), {5, 0.5}, {{-1}, prob}},
      {"pvi_binomial_logit_rng", wrap(pvi_binomial_logit_rng), {5, 0}, {{-1}, loc}},
      {"pvi_poisson_rng", wrap(pvi_poisson_rng), {2}, {{-1.0, inf, nan, 1073741824.0}}},
      {"pvi_poisson_log_rng", wrap(pvi_poisson_log_rng), {0}, {{inf, -inf, nan, 21.0}}},
      {"pvi_neg_binomial_2_rng", wrap(pvi_neg_binomial_2_rng), {2, 1}, {scale, scale}},
  };
  for (const DomainCase& c : cases) {
    for (size_t a = 0; a < c.bad.size(); ++a) {
      for (double v : c.bad[a]) {
        SCOPED_TRACE(c.symbol + ": argument " + std::to_string(a + 1) + " = " + std::to_string(v));
        std::vector<std::vector<double>> args;
        for (double g : c.good) args.push_back(std::vector<double>(5, g));
        args[a][2] = v;
        std::vector<double> out(5);
        pvi_rng rng;
        pvi_rng_seed(&rng, 1, 0);
        EXPECT_EQ(c.draw(&rng, 5, args, out), 3);
      }
    }
    std::vector<double> out(5);
    std::vector<std::vector<double>> args;
    for (double g : c.good) args.push_back(std::vector<double>(5, g));
    pvi_rng rng;
    pvi_rng_seed(&rng, 1, 0);
    EXPECT_EQ(c.draw(&rng, 5, args, out), 0) << c.symbol << " with valid arguments";
  }
  pvi_rng rng;
  pvi_rng_seed(&rng, 1, 0);
  int64_t y = 0;
  const std::vector<double> notSimplex{0.5, 0.6}, negative{1.2, -0.2}, badLogits{0.0, nan};
  EXPECT_EQ(pvi_categorical_rng(&rng, 2, notSimplex.data(), &y), 1);
  EXPECT_EQ(pvi_categorical_rng(&rng, 2, negative.data(), &y), 1);
  EXPECT_EQ(pvi_categorical_logit_rng(&rng, 2, badLogits.data(), &y), 1);
  std::vector<double> out(2);
  const std::vector<double> alpha{1.0, 0.0}, mu{0.0, 0.0}, asym{1.0, 0.5, 0.4, 1.0}, indefinite{1.0, 2.0, 2.0, 1.0};
  EXPECT_EQ(pvi_dirichlet_rng(&rng, 2, alpha.data(), out.data()), 2);
  EXPECT_EQ(pvi_multi_normal_rng(&rng, 2, mu.data(), asym.data(), out.data()), 1);
  EXPECT_EQ(pvi_multi_normal_rng(&rng, 2, mu.data(), indefinite.data(), out.data()), 1);
  // Off-diagonal entries that differ by rounding (0 and 1e-17, as L * L' gives them) are symmetric,
  // as multi_normal_lpdf takes them.
  const std::vector<double> rounded{1.0, 1e-17, 0.0, 1.0};
  EXPECT_EQ(pvi_multi_normal_rng(&rng, 2, mu.data(), rounded.data(), out.data()), 0);
  const std::vector<double> badMu{0.0, inf}, L{1.0, 0.0, 0.0, 1.0};
  EXPECT_EQ(pvi_multi_normal_cholesky_rng(&rng, 2, badMu.data(), L.data(), out.data()), 2);
}

TEST(RngStreams, ASeedAndStreamGiveTheSameDrawsAndOthersDiffer) {
  auto first = [](uint64_t seed, uint64_t stream) {
    pvi_rng rng;
    pvi_rng_seed(&rng, seed, stream);
    std::vector<double> out(8);
    const double mu = 0.0, sigma = 1.0;
    pvi_normal_rng(&rng, 8, &mu, 0, &sigma, 0, out.data());
    return out;
  };
  EXPECT_EQ(first(42, 3), first(42, 3));
  std::set<std::vector<double>> distinct{first(42, 3), first(42, 4), first(43, 3), first(43, 2), first(0, 0)};
  EXPECT_EQ(distinct.size(), 5u);
}

TEST(RngStreams, VectorisedArgumentsAreReadPerElement) {
  const std::vector<double> mu{0.0, 100.0, -100.0, 1e6}, sigma{1e-3};
  std::vector<double> out(4);
  pvi_rng rng;
  pvi_rng_seed(&rng, 9, 0);
  ASSERT_EQ(pvi_normal_rng(&rng, 4, mu.data(), 1, sigma.data(), 0, out.data()), 0);
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(out[i], mu[i], 0.01);
  const std::vector<int64_t> N{0, 10, 1000};
  const std::vector<double> theta{1.0};
  std::vector<int64_t> y(3);
  ASSERT_EQ(pvi_binomial_rng(&rng, 3, N.data(), 1, theta.data(), 0, y.data()), 0);
  EXPECT_EQ(y, N);  // theta = 1: every trial succeeds
}

TEST(RngCoverage, EveryKernelHasACase) {
  std::set<std::string> covered{"pvi_categorical_rng", "pvi_categorical_logit_rng", "pvi_dirichlet_rng",
                                "pvi_multi_normal_rng", "pvi_multi_normal_cholesky_rng"};
  for (const Continuous& c : continuousCases()) covered.insert(c.symbol);
  for (const Discrete& c : discreteCases()) covered.insert(c.symbol);
  size_t listed = 0;
#define PVI_RNG_KERNEL(symbol) \
  ++listed;                    \
  EXPECT_TRUE(covered.count(#symbol)) << #symbol << " has no test case";
#include "stdlib/kernels/rng/rng.def"
#undef PVI_RNG_KERNEL
  EXPECT_EQ(listed, covered.size()) << "a test case names a symbol rng.def does not list";
  size_t table = 0;
  for (const pvi_rng_kernel_entry* e = pvi_rng_kernel_table; e->name; ++e) ++table;
  EXPECT_EQ(table, listed + 2) << "the JIT table lists rng.def and pvi_rng_seed / pvi_rng_next";
}

}  // namespace
}  // namespace pvi::rngtest
