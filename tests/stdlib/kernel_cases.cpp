// THE table: one Entry per kernel (value + grad pair) of stdlib/kernels/kernels.h. Each entry
// says what the arguments are, how to draw valid points, which extreme points and which
// out-of-support points to try, and how to compute the reference value independently of the
// kernel (Boost.Math distributions and special functions in long double, or in 50-digit
// cpp_bin_float where long double is not enough, closed forms, Eigen products). The checks in
// kernel_checks_test.cpp run every entry through the same machinery.
#include <Eigen/Eigenvalues>
#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/distributions/bernoulli.hpp>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/weibull.hpp>
#include <boost/math/distributions/cauchy.hpp>
#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/inverse_gamma.hpp>
#include <boost/math/distributions/laplace.hpp>
#include <boost/math/distributions/logistic.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/negative_binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/distributions/uniform.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <limits>

#include "stdlib/kernels/kernels.h"
#include "tests/stdlib/kernel_test_framework.hpp"

namespace pvt {
namespace {

namespace bm = boost::math;
using MP = HP;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- small helpers ----------------------------------------------------------------------------

ArgSpec real(std::string name, Step step = Step::Abs) {
  ArgSpec a;
  a.name = std::move(name);
  a.step = step;
  return a;
}
ArgSpec integer(std::string name) {
  ArgSpec a;
  a.name = std::move(name);
  a.is_int = true;
  a.fd = Fd::None;
  return a;
}

template <class D>
LD logPdfLD(const D& dist, LD x) {
  return std::log(bm::pdf(dist, x));
}
template <class D>
LD logPdfMP(const D& dist, const MP& x) {
  MP p = bm::pdf(dist, x);
  return static_cast<LD>(log(p));
}
double r0(const Point& p, std::size_t a) { return p[a].r[0]; }
int64_t i0(const Point& p, std::size_t a) { return p[a].i[0]; }

// softplus(x) = log(1 + exp(x)) in 50 digits, no overflow.
MP softplusMP(const MP& x) { return x > 0 ? MP(x + log1p(exp(-x))) : MP(log1p(exp(x))); }

template <class... K, class VF, class GF>
Entry density(std::string name, std::string symbol, VF vf, GF gf, std::vector<ArgSpec> args) {
  Entry e;
  e.name = std::move(name);
  e.kind = Kind::Density;
  e.symbols = {symbol, symbol + "_grad"};
  e.args = std::move(args);
  setDensityKernels<K...>(e, vf, gf);
  return e;
}
#define KPAIR(f) #f, &f, &f##_grad

// A categorical density: int outcomes y and k parameters `arg` shared by all n outcomes.
using CategoricalValue = double (*)(int64_t, const int64_t*, int64_t, int64_t, const double*);
using CategoricalGrad = double (*)(double, int64_t, const int64_t*, int64_t, int64_t, const double*, double*);
Entry categoricalEntry(std::string name, const char* arg, std::string symbol, CategoricalValue value,
                       CategoricalGrad grad) {
  Entry e;
  e.name = std::move(name);
  e.kind = Kind::Density;
  e.symbols = {symbol, symbol + "_grad"};
  ArgSpec shared = real(arg);
  shared.vectorisable = false;
  e.args = {integer("y"), shared};
  e.vvalue = [value](int64_t n, const Point& p, const Strides& s) {
    return value(n, p[0].i.data(), s[0], static_cast<int64_t>(p[1].r.size()), p[1].r.data());
  };
  e.vgrad = [grad](double adj, int64_t n, const Point& p, const Strides& s, const Grads& g) {
    return grad(adj, n, p[0].i.data(), s[0], static_cast<int64_t>(p[1].r.size()), p[1].r.data(), g[1]);
  };
  return e;
}
using Rl = RealArg;
using In = IntArg;

// ---- univariate densities -------------------------------------------------------------------

void addDensities(std::vector<Entry>& t) {
  {
    Entry e = density<Rl, Rl, Rl>("normal", KPAIR(pvi_normal_lpdf), {real("y"), real("mu"), real("sigma", Step::Rel)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::normal_distribution<LD>(r0(p, 1), r0(p, 2)), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.uni(-4, 4)), R(g.uni(-3, 3)), R(g.logUni(0.1, 10))}; };
    e.edges = {{R(1e-300), R(0), R(1e-300)},   {R(1e300), R(0), R(1e300)},   {R(30), R(0), R(1)},
               {R(1e300), R(1e300), R(1)},     {R(-1e-10), R(1e-10), R(1e-9)}, {R(0), R(0), R(1e150)}};
    e.outside = {{R(0), R(0), R(0)}, {R(0), R(0), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl>("std_normal", KPAIR(pvi_std_normal_lpdf), {real("y")});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::normal_distribution<LD>(0, 1), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.uni(-5, 5))}; };
    // (Boost's pdf underflows long double below log p ~ -11000: the tails tried stay above.)
    e.edges = {{R(0)}, {R(1e-300)}, {R(37)}, {R(-100)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl>("lognormal", KPAIR(pvi_lognormal_lpdf),
                                  {real("y", Step::Rel), real("mu"), real("sigma", Step::Rel)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::lognormal_distribution<LD>(r0(p, 1), r0(p, 2)), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.logUni(0.01, 100)), R(g.uni(-2, 2)), R(g.logUni(0.1, 5))}; };
    e.edges = {{R(1e-300), R(-690), R(1)}, {R(1e300), R(690), R(2)}, {R(1.5), R(std::log(1.5)), R(1e-10)},
               {R(2), R(0), R(1e100)}};
    e.outside = {{R(0), R(0), R(1)}, {R(-1), R(0), R(1)}, {R(1), R(0), R(0)}, {R(1), R(0), R(-2)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl>("cauchy", KPAIR(pvi_cauchy_lpdf), {real("y"), real("mu"), real("sigma", Step::Rel)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::cauchy_distribution<LD>(r0(p, 1), r0(p, 2)), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.uni(-10, 10)), R(g.uni(-3, 3)), R(g.logUni(0.1, 10))}; };
    e.edges = {{R(1e10), R(0), R(1)}, {R(1e-300), R(0), R(1e-300)}, {R(1), R(0), R(1e300)},
               {R(1e300), R(-1e300), R(1e-300)}};
    e.outside = {{R(0), R(0), R(0)}, {R(0), R(0), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl, Rl>("student_t", KPAIR(pvi_student_t_lpdf),
                                      {real("y"), real("nu", Step::Rel), real("mu"), real("sigma", Step::Rel)});
    e.reference = [](const Point& p) {
      LD z = (LD(r0(p, 0)) - r0(p, 2)) / r0(p, 3);
      return std::vector<LD>{logPdfLD(bm::students_t_distribution<LD>(r0(p, 1)), z) - std::log(LD(r0(p, 3)))};
    };
    e.random = [](Rng& g) {
      return Point{R(g.uni(-6, 6)), R(g.logUni(0.5, 50)), R(g.uni(-3, 3)), R(g.logUni(0.1, 10))};
    };
    e.edges = {{R(0.5), R(1e8), R(0), R(1)},    {R(2), R(1e15), R(0), R(1)},  {R(1e10), R(3), R(0), R(1)},
               {R(1e200), R(2.5), R(0), R(1)},  {R(1), R(1e-3), R(0), R(1)},  {R(1e-300), R(4), R(0), R(1e-300)},
               {R(3), R(12.5), R(1), R(0.5)}};
    e.outside = {{R(0), R(0), R(0), R(1)}, {R(0), R(-1), R(0), R(1)}, {R(0), R(2), R(0), R(0)},
                 {R(0), R(2), R(0), R(-1)}};
    t.push_back(e);
  }
  {
    // Away from the kink at y = mu, where the density has no derivative.
    Entry e = density<Rl, Rl, Rl>("double_exponential", KPAIR(pvi_double_exponential_lpdf),
                                  {real("y"), real("mu"), real("sigma", Step::Rel)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::laplace_distribution<LD>(r0(p, 1), r0(p, 2)), r0(p, 0))};
    };
    e.random = [](Rng& g) {
      const double mu = g.uni(-3, 3);
      return Point{R(mu + (g.uni(0, 1) < 0.5 ? -1 : 1) * g.uni(0.05, 8)), R(mu), R(g.logUni(0.1, 10))};
    };
    e.edges = {{R(700), R(0), R(1)}, {R(-700), R(0), R(1)}, {R(1), R(0), R(1e-3)}, {R(1), R(0), R(1e300)}};
    e.outside = {{R(0), R(0), R(0)}, {R(0), R(0), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl>("logistic", KPAIR(pvi_logistic_lpdf), {real("y"), real("mu"), real("sigma", Step::Rel)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::logistic_distribution<LD>(r0(p, 1), r0(p, 2)), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.uni(-8, 8)), R(g.uni(-3, 3)), R(g.logUni(0.1, 10))}; };
    e.edges = {{R(700), R(0), R(1)}, {R(-700), R(0), R(1)}, {R(40), R(0), R(1)}, {R(1e-300), R(0), R(1e-300)},
               {R(1), R(0), R(1e300)}, {R(0), R(0), R(1)}};
    e.outside = {{R(0), R(0), R(0)}, {R(0), R(0), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl>("exponential", KPAIR(pvi_exponential_lpdf), {real("y", Step::Rel), real("beta", Step::Rel)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::exponential_distribution<LD>(r0(p, 1)), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.logUni(1e-3, 20)), R(g.logUni(0.1, 10))}; };
    e.edges = {{R(0), R(2)}, {R(1e300), R(1e-300)}, {R(1e-300), R(1e300)}, {R(700), R(1)}};
    e.outside = {{R(-1e-300), R(1)}, {R(1), R(0)}, {R(1), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl>("gamma", KPAIR(pvi_gamma_lpdf),
                                  {real("y", Step::Rel), real("alpha", Step::Rel), real("beta", Step::Rel)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::gamma_distribution<LD>(r0(p, 1), 1.0L / r0(p, 2)), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.logUni(0.01, 20)), R(g.logUni(0.2, 20)), R(g.logUni(0.1, 10))}; };
    e.edges = {{R(1e-300), R(0.01), R(1)}, {R(1e6), R(1e6), R(1)},   {R(2), R(1e-8), R(1)},
               {R(1e-5), R(3), R(1e5)},    {R(1e200), R(2), R(1e-200)}, {R(1e3), R(1), R(1)}};
    e.outside = {{R(0), R(1), R(1)},  {R(-1), R(2), R(1)}, {R(1), R(0), R(1)},
                 {R(1), R(-1), R(1)}, {R(1), R(1), R(0)},  {R(1), R(1), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl>("weibull", KPAIR(pvi_weibull_lpdf),
                                  {real("y", Step::Rel), real("alpha", Step::Rel), real("sigma", Step::Rel)});
    // Boost's weibull_distribution(shape, scale) is Stan's weibull(alpha, sigma), in 50 digits. Far
    // in the right tail (t^alpha of 1e10) even that density underflows; there the log density's
    // closed form log(alpha / sigma) + (alpha - 1) log(t) - t^alpha, t = y / sigma, in 50 digits.
    e.reference = [](const Point& p) {
      const MP y = r0(p, 0), alpha = r0(p, 1), sigma = r0(p, 2);
      const MP density = bm::pdf(bm::weibull_distribution<MP>(alpha, sigma), y);
      if (density > 0) return std::vector<LD>{static_cast<LD>(log(density))};
      const MP t = y / sigma;
      return std::vector<LD>{static_cast<LD>(log(alpha / sigma) + (alpha - 1) * log(t) - pow(t, alpha))};
    };
    e.random = [](Rng& g) { return Point{R(g.logUni(0.01, 20)), R(g.logUni(0.2, 8)), R(g.logUni(0.1, 10))}; };
    e.edges = {{R(1e-300), R(1), R(1)}, {R(1e-5), R(0.5), R(2)}, {R(50), R(3), R(10)}, {R(1), R(1), R(1)}};
    e.outside = {{R(0), R(1), R(1)},  {R(-1), R(2), R(1)}, {R(1), R(0), R(1)},
                 {R(1), R(-1), R(1)}, {R(1), R(1), R(0)},  {R(1), R(1), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl>("inv_gamma", KPAIR(pvi_inv_gamma_lpdf),
                                  {real("y", Step::Rel), real("alpha", Step::Rel), real("beta", Step::Rel)});
    // Boost's inverse_gamma_distribution(shape, scale) has density
    // scale^shape / Gamma(shape) x^(-shape-1) exp(-scale/x): Stan's inv_gamma(alpha, beta).
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::inverse_gamma_distribution<LD>(r0(p, 1), r0(p, 2)), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.logUni(0.01, 20)), R(g.logUni(0.2, 20)), R(g.logUni(0.1, 10))}; };
    e.edges = {{R(1e-3), R(0.5), R(1e-3)}, {R(1e-6), R(1e6), R(1)}, {R(2), R(1e-8), R(1)}, {R(1e300), R(2), R(1)},
               {R(1e-200), R(2), R(1e-200)}};
    e.outside = {{R(0), R(1), R(1)}, {R(-1), R(2), R(1)}, {R(1), R(0), R(1)}, {R(1), R(1), R(0)},
                 {R(1), R(1), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl>("beta", KPAIR(pvi_beta_lpdf),
                                  {real("y", Step::Unit), real("alpha", Step::Rel), real("beta", Step::Rel)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::beta_distribution<LD>(r0(p, 1), r0(p, 2)), r0(p, 0))};
    };
    e.random = [](Rng& g) { return Point{R(g.uni(0.02, 0.98)), R(g.logUni(0.2, 20)), R(g.logUni(0.2, 20))}; };
    e.edges = {{R(1e-300), R(0.5), R(2)}, {R(1 - 1e-16), R(3), R(0.5)}, {R(0.5), R(1e3), R(1e3)},
               {R(0.3), R(3e4), R(7e4)},  {R(1e-3), R(1e-5), R(1e-5)},  {R(0.999), R(1e6), R(2.5)},
               {R(0.5), R(1), R(1)}};
    e.outside = {{R(0), R(1), R(1)}, {R(1), R(1), R(1)}, {R(-0.1), R(1), R(1)}, {R(1.1), R(1), R(1)},
                 {R(0.5), R(0), R(1)}, {R(0.5), R(1), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = density<Rl, Rl, Rl>("uniform", KPAIR(pvi_uniform_lpdf), {real("y"), real("alpha"), real("beta")});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::uniform_distribution<LD>(r0(p, 1), r0(p, 2)), r0(p, 0))};
    };
    // Product-form: every y in (-1, 1) lies in every [alpha, beta].
    e.random = [](Rng& g) { return Point{R(g.uni(-1, 1)), R(g.uni(-3, -1.01)), R(g.uni(1.01, 3))}; };
    e.edges = {{R(-2), R(-2), R(5)}, {R(5), R(-2), R(5)}, {R(0), R(-1e308), R(1e308)}, {R(1e-300), R(0), R(2e-300)}};
    e.outside = {{R(-2.5), R(-2), R(5)}, {R(5.5), R(-2), R(5)}, {R(1), R(1), R(1)}, {R(0), R(1), R(-1)}};
    t.push_back(e);
  }
}

// ---- discrete densities ---------------------------------------------------------------------

void addDiscreteDensities(std::vector<Entry>& t) {
  {
    Entry e = density<In, Rl>("bernoulli", KPAIR(pvi_bernoulli_lpmf), {integer("y"), real("theta", Step::Unit)});
    e.reference = [](const Point& p) {
      return std::vector<LD>{logPdfLD(bm::bernoulli_distribution<LD>(r0(p, 1)), LD(i0(p, 0)))};
    };
    e.random = [](Rng& g) { return Point{I(g.integer(0, 1)), R(g.uni(0.02, 0.98))}; };
    e.edges = {{I(0), R(0)}, {I(1), R(1)}, {I(1), R(1e-300)}, {I(0), R(1 - 1e-16)}, {I(0), R(1e-20)}};
    e.outside = {{I(2), R(0.5)}, {I(-1), R(0.5)}, {I(0), R(-0.1)}, {I(1), R(1.1)}};
    t.push_back(e);
  }
  {
    Entry e = density<In, Rl>("bernoulli_logit", KPAIR(pvi_bernoulli_logit_lpmf), {integer("y"), real("alpha")});
    // Closed form in 50 digits: log inv_logit(+-alpha) = -softplus(-+alpha) (a long double
    // 1 - inv_logit(alpha) would lose the tail for |alpha| > 40).
    e.reference = [](const Point& p) {
      MP a = r0(p, 1);
      return std::vector<LD>{static_cast<LD>(i0(p, 0) == 1 ? MP(-softplusMP(-a)) : MP(-softplusMP(a)))};
    };
    e.random = [](Rng& g) { return Point{I(g.integer(0, 1)), R(g.uni(-10, 10))}; };
    e.edges = {{I(1), R(40)}, {I(0), R(40)}, {I(1), R(-40)}, {I(0), R(-40)}, {I(1), R(800)},
               {I(0), R(800)}, {I(1), R(-800)}, {I(0), R(1e300)}, {I(1), R(1e-20)}};
    e.outside = {{I(2), R(0.5)}, {I(-1), R(0.5)}};
    t.push_back(e);
  }
  {
    Entry e = density<In, In, Rl>("binomial", KPAIR(pvi_binomial_lpmf),
                                  {integer("y"), integer("N"), real("theta", Step::Unit)});
    // In 50 digits: Boost's long double binomial loses ~N * 1e-19 in its powers (3e-11 at N = 1e9).
    e.reference = [](const Point& p) {
      double th = r0(p, 2);
      int64_t y = i0(p, 0), N = i0(p, 1);
      // The degenerate ends, exact.
      if (th == 0.0) return std::vector<LD>{y == 0 ? 0.0L : -INFINITY};
      if (th == 1.0) return std::vector<LD>{y == N ? 0.0L : -INFINITY};
      return std::vector<LD>{logPdfMP(bm::binomial_distribution<MP>(MP(N), MP(th)), MP(y))};
    };
    e.random = [](Rng& g) { return Point{I(g.integer(0, 15)), I(g.integer(15, 40)), R(g.uni(0.02, 0.98))}; };
    e.edges = {{I(0), I(0), R(0.3)},         {I(0), I(10), R(0)},           {I(10), I(10), R(1)},
               {I(500000), I(1000000), R(0.5)}, {I(300000000), I(1000000000), R(0.3)},
               {I(3), I(1000000000), R(1e-9)}, {I(1), I(1), R(1e-300)},       {I(0), I(50), R(0.999)}};
    e.outside = {{I(-1), I(5), R(0.5)}, {I(6), I(5), R(0.5)}, {I(1), I(5), R(-0.1)}, {I(1), I(5), R(1.5)},
                 {I(0), I(-1), R(0.5)}};
    t.push_back(e);
  }
  {
    Entry e = density<In, In, Rl>("binomial_logit", KPAIR(pvi_binomial_logit_lpmf),
                                  {integer("y"), integer("N"), real("alpha")});
    // Closed form in 50 digits: lchoose(N, y) - y softplus(-alpha) - (N - y) softplus(alpha).
    e.reference = [](const Point& p) {
      MP a = r0(p, 2);
      MP y = MP(i0(p, 0)), N = MP(i0(p, 1));
      MP lc = bm::lgamma(MP(N + 1)) - bm::lgamma(MP(y + 1)) - bm::lgamma(MP(N - y + 1));
      MP v = lc - y * softplusMP(-a) - (N - y) * softplusMP(a);
      return std::vector<LD>{static_cast<LD>(v)};
    };
    e.random = [](Rng& g) { return Point{I(g.integer(0, 15)), I(g.integer(15, 40)), R(g.uni(-5, 5))}; };
    e.edges = {{I(3), I(10), R(40)},      {I(10), I(10), R(40)},     {I(0), I(10), R(-40)},
               {I(2), I(7), R(800)},      {I(2), I(7), R(-800)},     {I(0), I(0), R(1)},
               {I(500000), I(1000000), R(0.1)}, {I(300000000), I(1000000000), R(-0.8)}};
    e.outside = {{I(-1), I(5), R(0.5)}, {I(6), I(5), R(0.5)}, {I(0), I(-1), R(0.5)}};
    t.push_back(e);
  }
  {
    Entry e = density<In, Rl>("poisson", KPAIR(pvi_poisson_lpmf), {integer("y"), real("lambda", Step::Rel)});
    e.reference = [](const Point& p) {
      double l = r0(p, 1);
      int64_t y = i0(p, 0);
      if (l == 0.0) return std::vector<LD>{y == 0 ? 0.0L : -INFINITY};  // Boost needs mean > 0
      return std::vector<LD>{logPdfLD(bm::poisson_distribution<LD>(l), LD(y))};
    };
    e.random = [](Rng& g) { return Point{I(g.integer(0, 30)), R(g.logUni(0.1, 50))}; };
    e.edges = {{I(0), R(0)},        {I(0), R(1e4)},          {I(1000000), R(1e6)},  {I(1000000000), R(1.00003e9)},
               {I(3), R(1e-300)},   {I(100), R(1e-3)},         {I(2), R(5e3)},        {I(0), R(1e-300)}};
    e.outside = {{I(-1), R(1)}, {I(1), R(-1)}, {I(1), R(0)}};
    t.push_back(e);
  }
  {
    Entry e = density<In, Rl>("poisson_log", KPAIR(pvi_poisson_log_lpmf), {integer("y"), real("alpha")});
    e.reference = [](const Point& p) {
      MP lambda = exp(MP(r0(p, 1)));
      return std::vector<LD>{logPdfMP(bm::poisson_distribution<MP>(lambda), MP(i0(p, 0)))};
    };
    e.random = [](Rng& g) { return Point{I(g.integer(0, 30)), R(g.uni(-3, 4))}; };
    e.edges = {{I(2), R(-800)}, {I(0), R(-800)}, {I(485165195), R(20)}, {I(0), R(9)}, {I(7), R(0)},
               {I(1000000), R(std::log(1e6))}};
    e.outside = {{I(-1), R(1)}};
    t.push_back(e);
  }
  {
    Entry e = density<In, Rl, Rl>("neg_binomial_2", KPAIR(pvi_neg_binomial_2_lpmf),
                                  {integer("y"), real("mu", Step::Rel), real("phi", Step::Rel)});
    // Boost's negative_binomial(r, p): Gamma(r + k)/(k! Gamma(r)) p^r (1 - p)^k, so r = phi and
    // p = phi/(mu + phi). In 50 digits: for phi >> mu, 1 - p is far below long double's epsilon.
    e.reference = [](const Point& p) {
      MP mu = r0(p, 1), phi = r0(p, 2);
      return std::vector<LD>{
          logPdfMP(bm::negative_binomial_distribution<MP>(phi, MP(phi / (mu + phi))), MP(i0(p, 0)))};
    };
    e.random = [](Rng& g) { return Point{I(g.integer(0, 40)), R(g.logUni(0.1, 50)), R(g.logUni(0.1, 100))}; };
    e.edges = {{I(3), R(2.5), R(1e15)},      {I(0), R(2.5), R(1e15)},     {I(10000), R(1e4), R(1e8)},
               {I(5), R(1e8), R(1e-8)},      {I(0), R(1e8), R(1e-8)},     {I(1000000), R(1e6), R(2.5)},
               {I(40), R(1e-3), R(1e3)},     {I(7), R(3), R(1e30)},       {I(12345), R(12000), R(123456.7)}};
    e.outside = {{I(-1), R(1), R(1)}, {I(1), R(0), R(1)}, {I(1), R(-1), R(1)}, {I(1), R(1), R(0)},
                 {I(1), R(1), R(-1)}};
    t.push_back(e);
  }
  {
    Entry e = categoricalEntry("categorical", "theta", KPAIR(pvi_categorical_lpmf));
    e.args[1].fd = Fd::Simplex;  // differenced along the simplex (the kernel refuses to leave it)
    // Closed form: log theta[y - 1], in long double, with no simplex check.
    e.reference = [](const Point& p) { return std::vector<LD>{std::log(LD(p[1].r[i0(p, 0) - 1]))}; };
    e.random = [](Rng& g) {
      std::vector<double> t(4);
      double s = 0;
      for (auto& x : t) s += (x = g.uni(0.05, 1));
      for (auto& x : t) x /= s;
      return Point{I(g.integer(1, 4)), Rv(t)};
    };
    e.edges = {{I(1), Rv({1e-300, 0.5, 0.5})}, {I(2), Rv({1e-300, 0.5, 0.5})}, {I(1), Rv({1.0})},
               {I(3), Rv({0.25, 0.25, 0.5})}};
    e.outside = {{I(0), Rv({0.2, 0.3, 0.5})}, {I(4), Rv({0.2, 0.3, 0.5})}, {I(1), Rv({0.2, 0.3, 0.6})},
                 {I(1), Rv({-0.1, 0.6, 0.5})}};
    t.push_back(e);
  }
  {
    Entry e = categoricalEntry("categorical_logit", "beta", KPAIR(pvi_categorical_logit_lpmf));
    // Closed form: beta[y - 1] - log_sum_exp(beta), in long double.
    e.reference = [](const Point& p) {
      const auto& b = p[1].r;
      LD m = *std::max_element(b.begin(), b.end()), s = 0;
      for (double x : b) s += std::exp(LD(x) - m);
      return std::vector<LD>{LD(b[i0(p, 0) - 1]) - (m + std::log(s))};
    };
    e.random = [](Rng& g) {
      std::vector<double> b(4);
      for (auto& x : b) x = g.uni(-3, 3);
      return Point{I(g.integer(1, 4)), Rv(b)};
    };
    e.edges = {{I(1), Rv({1000, -1000, 0, 5})}, {I(2), Rv({1000, -1000, 0, 5})}, {I(1), Rv({0.5})},
               {I(3), Rv({1e-10, 2e-10, 3e-10})}};
    e.outside = {{I(0), Rv({1, 2, 3})}, {I(4), Rv({1, 2, 3})}, {I(-1), Rv({1, 2, 3})}};
    t.push_back(e);
  }
}

// ---- log CDFs and CCDFs ---------------------------------------------------------------------

// log F(x) or log(1 - F(x)) of a Boost distribution, in the precision of its value type, from the
// tail where the probability is small: log(p) for p < 1/2, else log1p(-(1 - p)) with 1 - p from
// Boost's complement (log(p) of a p near 1 keeps only long double's absolute precision, which is
// less than the value's own near 0).
template <class D, class T>
LD logCdfRef(const D& dist, const T& x, bool complement) {
  const T lower = bm::cdf(dist, x), upper = bm::cdf(bm::complement(dist, x));
  const T p = complement ? upper : lower, q = complement ? lower : upper;
  using std::log;
  return static_cast<LD>(p < T(0.5) ? T(log(p)) : T(bm::log1p(-q)));
}

void addCdfs(std::vector<Entry>& t) {
  for (bool complement : {false, true}) {
    const std::string side = complement ? "_lccdf" : "_lcdf";
// The symbol, value and gradient kernels of distribution d's lcdf, or of its lccdf.
#define CDF_KERNELS(d)                                                            \
  complement ? "pvi_" #d "_lccdf" : "pvi_" #d "_lcdf", complement ? &pvi_##d##_lccdf : &pvi_##d##_lcdf, \
      complement ? &pvi_##d##_lccdf_grad : &pvi_##d##_lcdf_grad
    {
      Entry e = density<Rl, Rl, Rl>("normal" + side, CDF_KERNELS(normal), {real("y"), real("mu"), real("sigma", Step::Rel)});
      e.reference = [complement](const Point& p) {
        return std::vector<LD>{logCdfRef(bm::normal_distribution<LD>(r0(p, 1), r0(p, 2)), LD(r0(p, 0)), complement)};
      };
      e.random = [](Rng& g) { return Point{R(g.uni(-6, 6)), R(g.uni(-3, 3)), R(g.logUni(0.1, 10))}; };
      // Both sides of z = -37.5, where the kernel turns from erfc to the asymptotic series, and far tails.
      e.edges = {{R(-37), R(0), R(1)}, {R(-38), R(0), R(1)}, {R(-60), R(0), R(1)}, {R(40), R(0), R(1)},
                 {R(8), R(0), R(1)},   {R(0), R(0), R(1)},   {R(1e-300), R(0), R(1e-300)}};
      e.outside = {{R(0), R(0), R(0)}, {R(0), R(0), R(-1)}};
      t.push_back(e);
    }
    {
      Entry e = density<Rl, Rl, Rl>("lognormal" + side, CDF_KERNELS(lognormal),
                                    {real("y", Step::Rel), real("mu"), real("sigma", Step::Rel)});
      e.reference = [complement](const Point& p) {
        return std::vector<LD>{
            logCdfRef(bm::lognormal_distribution<LD>(r0(p, 1), r0(p, 2)), LD(r0(p, 0)), complement)};
      };
      e.random = [](Rng& g) { return Point{R(g.logUni(0.01, 100)), R(g.uni(-2, 2)), R(g.logUni(0.1, 5))}; };
      e.edges = {{R(1e-20), R(0), R(1)}, {R(1e20), R(0), R(1)}, {R(1.5), R(std::log(1.5)), R(1e-3)}};
      e.outside = {{R(1), R(0), R(0)}, {R(1), R(0), R(-2)}};
      t.push_back(e);
    }
    {
      Entry e = density<Rl, Rl, Rl>("cauchy" + side, CDF_KERNELS(cauchy), {real("y"), real("mu"), real("sigma", Step::Rel)});
      e.reference = [complement](const Point& p) {
        return std::vector<LD>{logCdfRef(bm::cauchy_distribution<LD>(r0(p, 1), r0(p, 2)), LD(r0(p, 0)), complement)};
      };
      e.random = [](Rng& g) { return Point{R(g.uni(-10, 10)), R(g.uni(-3, 3)), R(g.logUni(0.1, 10))}; };
      e.edges = {{R(-1e10), R(0), R(1)}, {R(1e10), R(0), R(1)}, {R(0), R(0), R(1)}, {R(-1e-8), R(0), R(1)}};
      e.outside = {{R(0), R(0), R(0)}, {R(0), R(0), R(-1)}};
      t.push_back(e);
    }
    {
      Entry e = density<Rl, Rl, Rl>("logistic" + side, CDF_KERNELS(logistic), {real("y"), real("mu"), real("sigma", Step::Rel)});
      e.reference = [complement](const Point& p) {
        return std::vector<LD>{
            logCdfRef(bm::logistic_distribution<LD>(r0(p, 1), r0(p, 2)), LD(r0(p, 0)), complement)};
      };
      e.random = [](Rng& g) { return Point{R(g.uni(-10, 10)), R(g.uni(-3, 3)), R(g.logUni(0.1, 10))}; };
      e.edges = {{R(-700), R(0), R(1)}, {R(40), R(0), R(1)}, {R(0), R(0), R(1)}};
      e.outside = {{R(0), R(0), R(0)}, {R(0), R(0), R(-1)}};
      t.push_back(e);
    }
    {
      Entry e = density<Rl, Rl, Rl, Rl>("student_t" + side, CDF_KERNELS(student_t),
                                        {real("y"), real("nu", Step::Rel), real("mu"), real("sigma", Step::Rel)});
      e.reference = [complement](const Point& p) {
        const LD z = (LD(r0(p, 0)) - r0(p, 2)) / r0(p, 3);
        return std::vector<LD>{logCdfRef(bm::students_t_distribution<LD>(r0(p, 1)), z, complement)};
      };
      e.random = [](Rng& g) {
        return Point{R(g.uni(-10, 10)), R(g.logUni(0.5, 30)), R(g.uni(-3, 3)), R(g.logUni(0.1, 10))};
      };
      e.edges = {{R(-1e6), R(3), R(0), R(1)}, {R(50), R(1), R(0), R(1)}, {R(0), R(5), R(0), R(1)},
                 {R(-3), R(1e5), R(0), R(1)}};
      e.outside = {{R(0), R(0), R(0), R(1)}, {R(0), R(1), R(0), R(0)}, {R(0), R(-1), R(0), R(1)}};
      t.push_back(e);
    }
    {
      Entry e = density<Rl, Rl, Rl>("gamma" + side, CDF_KERNELS(gamma),
                                    {real("y", Step::Rel), real("alpha", Step::Rel), real("beta", Step::Rel)});
      // Boost's gamma_distribution(shape, scale): Stan's gamma(alpha, beta) has scale 1 / beta.
      e.reference = [complement](const Point& p) {
        return std::vector<LD>{
            logCdfRef(bm::gamma_distribution<LD>(r0(p, 1), 1 / LD(r0(p, 2))), LD(r0(p, 0)), complement)};
      };
      e.random = [](Rng& g) { return Point{R(g.logUni(0.01, 20)), R(g.logUni(0.3, 20)), R(g.logUni(0.1, 5))}; };
      e.edges = {{R(1e-10), R(2), R(1)}, {R(100), R(2), R(1)}, {R(1), R(1e-3), R(1)}, {R(1000), R(900), R(1)}};
      e.outside = {{R(1), R(0), R(1)}, {R(1), R(1), R(0)}, {R(1), R(-1), R(1)}};
      t.push_back(e);
    }
    {
      Entry e = density<Rl, Rl>("exponential" + side, CDF_KERNELS(exponential), {real("y", Step::Rel), real("beta", Step::Rel)});
      // In 50 digits: far in the right tail exp(-beta y) is below long double's range.
      e.reference = [complement](const Point& p) {
        return std::vector<LD>{logCdfRef(bm::exponential_distribution<MP>(r0(p, 1)), MP(r0(p, 0)), complement)};
      };
      e.random = [](Rng& g) { return Point{R(g.logUni(0.001, 10)), R(g.logUni(0.1, 10))}; };
      e.edges = {{R(1e-300), R(1)}, {R(500), R(1)}, {R(1e4), R(2)}, {R(0.5), R(1e-10)}};
      e.outside = {{R(1), R(0)}, {R(1), R(-1)}};
      t.push_back(e);
    }
    {
      Entry e = density<Rl, Rl, Rl>("weibull" + side, CDF_KERNELS(weibull),
                                    {real("y", Step::Rel), real("alpha", Step::Rel), real("sigma", Step::Rel)});
      // Boost's weibull_distribution(shape, scale) in 50 digits (t^alpha reaches 1e10 here).
      e.reference = [complement](const Point& p) {
        return std::vector<LD>{
            logCdfRef(bm::weibull_distribution<MP>(r0(p, 1), r0(p, 2)), MP(r0(p, 0)), complement)};
      };
      e.random = [](Rng& g) { return Point{R(g.logUni(0.01, 20)), R(g.logUni(0.2, 8)), R(g.logUni(0.1, 10))}; };
      e.edges = {{R(1e-300), R(1), R(1)}, {R(1e-5), R(0.5), R(2)}, {R(50), R(3), R(10)}, {R(1), R(1), R(1)}};
      e.outside = {{R(1), R(0), R(1)}, {R(1), R(-1), R(1)}, {R(1), R(1), R(0)}};
      t.push_back(e);
    }
    {
      Entry e = density<In, Rl>("poisson" + side, CDF_KERNELS(poisson), {integer("y"), real("lambda", Step::Rel)});
      e.reference = [complement](const Point& p) {
        return std::vector<LD>{logCdfRef(bm::poisson_distribution<LD>(r0(p, 1)), LD(i0(p, 0)), complement)};
      };
      e.random = [](Rng& g) { return Point{I(g.integer(0, 30)), R(g.logUni(0.1, 30))}; };
      e.edges = {{I(0), R(1e-3)}, {I(100), R(1)}, {I(0), R(200)}, {I(1000), R(1000)}};
      e.outside = {{I(1), R(-1)}};
      t.push_back(e);
    }
  }
#undef CDF_KERNELS
}

// ---- multivariate densities ------------------------------------------------------------------

using MatLD = Eigen::Matrix<LD, Eigen::Dynamic, Eigen::Dynamic>;
using VecLD = Eigen::Matrix<LD, Eigen::Dynamic, 1>;

VecLD toVec(const std::vector<double>& v) {
  VecLD out(static_cast<Eigen::Index>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) out(static_cast<Eigen::Index>(i)) = v[i];
  return out;
}
MatLD toMat(const std::vector<double>& v, Eigen::Index k) {
  MatLD out(k, k);
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index i = 0; i < k; ++i) out(i, j) = v[static_cast<std::size_t>(i + j * k)];
  return out;
}

std::vector<double> randomCovariance(Rng& g, int64_t k) {
  Eigen::MatrixXd A(k, k);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) A(i, j) = g.normal();
  Eigen::MatrixXd S = A * A.transpose() / static_cast<double>(k) + 0.5 * Eigen::MatrixXd::Identity(k, k);
  S = (0.5 * (S + S.transpose())).eval();  // exactly symmetric
  return std::vector<double>(S.data(), S.data() + k * k);
}
std::vector<double> randomVector(Rng& g, int64_t k, double scale) {
  std::vector<double> v(static_cast<std::size_t>(k));
  for (auto& x : v) x = scale * g.normal();
  return v;
}

// multi_normal's n variates: y and mu each one k-vector (stride 0) or n of them (stride k); k is
// the matrix's order.
struct MvnLayout {
  int64_t n, k, sy, smu;
};

MvnLayout mvnLayout(const Point& p) {
  const auto k = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(p[2].r.size()))));
  const auto ny = static_cast<int64_t>(p[0].r.size()), nmu = static_cast<int64_t>(p[1].r.size());
  return {std::max(ny, nmu) / k, k, ny > k ? k : 0, nmu > k ? k : 0};
}

VecLD mvnResidual(const Point& p, const MvnLayout& l, int64_t m) {
  VecLD r(l.k);
  for (int64_t i = 0; i < l.k; ++i)
    r(i) = LD(p[0].r[static_cast<std::size_t>(m * l.sy + i)]) - LD(p[1].r[static_cast<std::size_t>(m * l.smu + i)]);
  return r;
}

// One to three variates; with several, y, mu or both hold one vector per variate.
std::pair<std::vector<double>, std::vector<double>> randomMvnVariates(Rng& g, int64_t k) {
  const int64_t n = g.integer(1, 3);
  const int64_t layout = n == 1 ? 3 : g.integer(1, 3);  // 1: y per variate, 2: mu per variate, 3: both
  const int64_t ny = layout & 1 ? n : 1, nmu = layout & 2 ? n : 1;
  std::vector<double> mu = randomVector(g, k * nmu, 1.0), y = randomVector(g, k * ny, 1.5);
  for (int64_t m = 0; m < ny; ++m)
    for (int64_t i = 0; i < k; ++i) y[static_cast<std::size_t>(m * k + i)] += mu[static_cast<std::size_t>((nmu > 1 ? m * k : 0) + i)];
  return {y, mu};
}

// log c_K(eta) of the LKJ density in long double with std::lgamma (the kernels use a
// cancellation-free lbeta).
LD lkjLogConstantLD(int64_t k, LD eta) {
  LD v = 0;
  for (int64_t i = 1; i < k; ++i) {
    const LD m = static_cast<LD>(k - i), b = eta + (m - 1) / 2;
    v -= (2 * eta - 2 + m) * m * std::log(LD(2)) + m * (2 * std::lgamma(b) - std::lgamma(2 * b));
  }
  return v;
}

void addMultivariate(std::vector<Entry>& t) {
  {
    Entry e;
    e.name = "dirichlet";
    e.kind = Kind::MultiDensity;
    e.symbols = {"pvi_dirichlet_lpdf", "pvi_dirichlet_lpdf_grad"};
    ArgSpec theta = real("theta");
    theta.fd = Fd::Simplex;
    e.args = {theta, real("alpha", Step::Rel)};
    e.value = [](const Point& p) {
      return std::vector<double>{
          pvi_dirichlet_lpdf(static_cast<int64_t>(p[0].r.size()), p[0].r.data(), p[1].r.data())};
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      return pvi_dirichlet_lpdf_grad(seed[0], static_cast<int64_t>(p[0].r.size()), p[0].r.data(), p[1].r.data(),
                                     g[0], g[1]);
    };
    // Closed form: lgamma(sum alpha) - sum lgamma(alpha_i) + sum (alpha_i - 1) log(theta_i), in
    // long double, with no simplex check (so it also serves as the unconstrained extension).
    e.reference = [](const Point& p) {
      LD s = 0, v = 0;
      for (std::size_t i = 0; i < p[0].r.size(); ++i) {
        LD a = p[1].r[i];
        s += a;
        v += (a - 1) * std::log(LD(p[0].r[i])) - std::lgamma(a);
      }
      return std::vector<LD>{v + std::lgamma(s)};
    };
    e.random = [](Rng& g) {
      int64_t k = g.integer(2, 6);
      std::vector<double> th(static_cast<std::size_t>(k)), al(static_cast<std::size_t>(k));
      double s = 0;
      for (auto& x : th) s += (x = g.uni(0.05, 1.0));
      for (auto& x : th) x /= s;
      for (auto& x : al) x = g.logUni(0.3, 10);
      return Point{Rv(th), Rv(al)};
    };
    e.edges = {{Rv({1.0}), Rv({2.5})},
               {Rv({0.5, 0.5 + 5e-9}), Rv({1e-3, 1e3})},
               {Rv({1e-300, 1.0}), Rv({0.5, 2})},
               {Rv({0.25, 0.25, 0.5}), Rv({1e6, 1e6, 2e6})},
               {Rv({0.2, 0.3, 0.5}), Rv({1, 1, 1})}};
    e.outside = {{Rv({0.5, 0.6}), Rv({1, 1})},       {Rv({0.5, 0.5 + 1e-7}), Rv({1, 1})},
                 {Rv({0.0, 1.0}), Rv({1, 1})},       {Rv({-0.1, 1.1}), Rv({1, 1})},
                 {Rv({0.4, 0.6}), Rv({0, 1})},       {Rv({0.4, 0.6}), Rv({-1, 1})}};
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "lkj_corr_cholesky";
    e.kind = Kind::MultiDensity;
    e.symbols = {"pvi_lkj_corr_cholesky_lpdf", "pvi_lkj_corr_cholesky_lpdf_grad"};
    ArgSpec L = real("L");
    L.fd = Fd::Lower;
    ArgSpec eta = real("eta", Step::Rel);
    eta.vectorisable = false;
    e.args = {L, eta};
    e.value = [](const Point& p) {
      return std::vector<double>{
          pvi_lkj_corr_cholesky_lpdf(static_cast<int64_t>(p[0].r.size()), p[0].r.data(), p[1].r.data())};
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      return pvi_lkj_corr_cholesky_lpdf_grad(seed[0], static_cast<int64_t>(p[0].r.size()), p[0].r.data(),
                                             p[1].r.data(), g[0], g[1]);
    };
    // The formula in long double with std::lgamma (the kernel uses a cancellation-free lbeta); the
    // constant itself is checked against Boost's beta density and the volume of 3 x 3 correlation
    // matrices in tests/stdlib/cholesky_corr_test.cpp.
    e.reference = [](const Point& p) {
      const auto k = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(p[0].r.size()))));
      const LD eta = p[1].r[0];
      LD v = lkjLogConstantLD(k, eta);
      for (int64_t d = 1; d < k; ++d)
        v += (static_cast<LD>(k - d - 1) + 2 * eta - 2) * std::log(LD(p[0].r[static_cast<std::size_t>(d + d * k)]));
      return std::vector<LD>{v};
    };
    e.random = [](Rng& g) {
      const int64_t k = g.integer(2, 5);
      std::vector<double> L(static_cast<std::size_t>(k * k), 0.0);
      for (int64_t i = 0; i < k; ++i) {  // rows of unit length with a positive diagonal
        double norm = 0;
        for (int64_t j = 0; j <= i; ++j) {
          double& x = L[static_cast<std::size_t>(i + j * k)];
          x = j == i ? g.uni(0.2, 1.0) : g.uni(-1.0, 1.0);
          norm += x * x;
        }
        for (int64_t j = 0; j <= i; ++j) L[static_cast<std::size_t>(i + j * k)] /= std::sqrt(norm);
      }
      return Point{Rv(L), Rv({g.logUni(0.3, 10)})};
    };
    e.edges = {{Rv({1.0}), Rv({2.5})},
               {Rv({1.0, 0.6, 0.0, 0.8}), Rv({1.0})},
               {Rv({1.0, 0.6, 0.0, 0.8}), Rv({1e3})},
               {Rv({1.0, 0.0, 0.0, 1.0}), Rv({0.5})}};
    e.outside = {{Rv({1.0, 0.6, 0.0, 0.8}), Rv({0.0})},
                 {Rv({1.0, 0.6, 0.0, 0.8}), Rv({-1.0})},
                 {Rv({1.0, 1.0, 0.0, 0.0}), Rv({1.0})},
                 {Rv({1.0, 0.6, 0.8}), Rv({1.0})}};
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "lkj_corr";
    e.kind = Kind::MultiDensity;
    e.symbols = {"pvi_lkj_corr_lpdf", "pvi_lkj_corr_lpdf_grad"};
    ArgSpec omega = real("Omega");
    omega.fd = Fd::Symmetric;
    ArgSpec eta = real("eta", Step::Rel);
    eta.vectorisable = false;
    e.args = {omega, eta};
    e.value = [](const Point& p) {
      return std::vector<double>{pvi_lkj_corr_lpdf(static_cast<int64_t>(p[0].r.size()), p[0].r.data(), p[1].r.data())};
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      return pvi_lkj_corr_lpdf_grad(seed[0], static_cast<int64_t>(p[0].r.size()), p[0].r.data(), p[1].r.data(), g[0],
                                    g[1]);
    };
    // The constant as in lkj_corr_cholesky's reference (std::lgamma in long double) plus
    // (eta - 1) log det Omega by Eigen's LLT in long double; the constant itself is checked against
    // Boost's beta density in matrix_densities_test.cpp.
    e.reference = [](const Point& p) {
      const auto k = static_cast<Eigen::Index>(std::llround(std::sqrt(static_cast<double>(p[0].r.size()))));
      const LD eta = p[1].r[0];
      LD v = lkjLogConstantLD(k, eta);
      Eigen::LLT<MatLD> llt(toMat(p[0].r, k));
      for (Eigen::Index i = 0; i < k; ++i) v += (eta - 1) * 2 * std::log(LD(llt.matrixL()(i, i)));
      return std::vector<LD>{v};
    };
    e.random = [](Rng& g) {
      const int64_t k = g.integer(1, 5);
      std::vector<double> S = randomCovariance(g, k), R(S.size());
      for (int64_t i = 0; i < k; ++i)  // scaled to a unit diagonal
        for (int64_t j = 0; j < k; ++j)
          R[static_cast<std::size_t>(i + j * k)] =
              i == j ? 1.0
                     : S[static_cast<std::size_t>(i + j * k)] /
                           std::sqrt(S[static_cast<std::size_t>(i + i * k)] * S[static_cast<std::size_t>(j + j * k)]);
      return Point{Rv(R), Rv({g.logUni(0.3, 10)})};
    };
    e.edges = {{Rv({1.0}), Rv({2.5})},
               {Rv({1.0, 0.999, 0.999, 1.0}), Rv({1.0})},
               {Rv({1.0, -0.3, -0.3, 1.0}), Rv({1e3})},
               {Rv({1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0}), Rv({0.5})}};
    e.outside = {{Rv({1.0, 0.6, 0.6, 1.0}), Rv({0.0})},    // eta = 0
                 {Rv({1.0, 0.6, 0.6, 1.0}), Rv({-1.0})},   // eta < 0
                 {Rv({1.0, 1.0, 1.0, 1.0}), Rv({1.0})},    // singular
                 {Rv({1.0, 0.6, 0.2, 1.0}), Rv({1.0})},    // not symmetric
                 {Rv({1.0, 0.6, 0.8}), Rv({1.0})}};        // not square
    t.push_back(e);
  }
  for (const bool inverse : {false, true}) {
    Entry e;
    e.name = inverse ? "inv_wishart" : "wishart";
    e.kind = Kind::MultiDensity;
    e.symbols = inverse ? std::vector<std::string>{"pvi_inv_wishart_lpdf", "pvi_inv_wishart_lpdf_grad"}
                        : std::vector<std::string>{"pvi_wishart_lpdf", "pvi_wishart_lpdf_grad"};
    ArgSpec w = real("W"), s = real("S");
    w.fd = s.fd = Fd::Symmetric;
    ArgSpec nu = real("nu", Step::Rel);
    nu.vectorisable = false;
    e.args = {w, nu, s};
    e.value = [inverse](const Point& p) {
      const auto kk = static_cast<int64_t>(p[0].r.size());
      return std::vector<double>{inverse ? pvi_inv_wishart_lpdf(kk, p[0].r.data(), p[1].r.data(), p[2].r.data())
                                         : pvi_wishart_lpdf(kk, p[0].r.data(), p[1].r.data(), p[2].r.data())};
    };
    e.grad = [inverse](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      const auto kk = static_cast<int64_t>(p[0].r.size());
      return inverse ? pvi_inv_wishart_lpdf_grad(seed[0], kk, p[0].r.data(), p[1].r.data(), p[2].r.data(), g[0], g[1],
                                                 g[2])
                     : pvi_wishart_lpdf_grad(seed[0], kk, p[0].r.data(), p[1].r.data(), p[2].r.data(), g[0], g[1],
                                             g[2]);
    };
    // The densities (Gupta and Nagar, Matrix Variate Distributions, 3.2.1 and 3.4.1) in long
    // double with Eigen's LLT and inverse; K = 1 is checked against Boost's gamma and inverse gamma
    // densities in matrix_densities_test.cpp.
    e.reference = [inverse](const Point& p) {
      const auto k = static_cast<Eigen::Index>(std::llround(std::sqrt(static_cast<double>(p[0].r.size()))));
      const LD n = p[1].r[0], kd = static_cast<LD>(k);
      const MatLD W = toMat(p[0].r, k), S = toMat(p[2].r, k);
      auto logDet = [k](const MatLD& A) {
        Eigen::LLT<MatLD> llt(A);
        LD v = 0;
        for (Eigen::Index i = 0; i < k; ++i) v += 2 * std::log(LD(llt.matrixL()(i, i)));
        return v;
      };
      LD multiGamma = kd * (kd - 1) / 4 * std::log(LD(M_PI));
      for (Eigen::Index j = 1; j <= k; ++j) multiGamma += std::lgamma(n / 2 + LD(1 - j) / 2);
      const LD v = inverse ? n / 2 * logDet(S) - n * kd / 2 * std::log(LD(2)) - multiGamma -
                                 (n + kd + 1) / 2 * logDet(W) - (S * W.inverse()).trace() / 2
                           : (n - kd - 1) / 2 * logDet(W) - (S.inverse() * W).trace() / 2 -
                                 n * kd / 2 * std::log(LD(2)) - n / 2 * logDet(S) - multiGamma;
      return std::vector<LD>{v};
    };
    e.random = [](Rng& g) {
      const int64_t k = g.integer(1, 4);
      return Point{Rv(randomCovariance(g, k)), Rv({static_cast<double>(k) - 1 + g.logUni(0.5, 10)}),
                   Rv(randomCovariance(g, k))};
    };
    e.edges = {{Rv({2.0}), Rv({0.5}), Rv({1.0})},
               {Rv({1e-3, 0.0, 0.0, 1e3}), Rv({5.0}), Rv({1.0, 0.0, 0.0, 1.0})},
               {Rv({1.0, 0.99, 0.99, 1.0}), Rv({1.5}), Rv({2.0, -0.5, -0.5, 1.0})},
               {Rv({1.0, 0.2, 0.2, 1.0}), Rv({1e4}), Rv({1e-4, 0.0, 0.0, 1e-4})}};
    e.outside = {{Rv({1.0, 0.0, 0.0, 1.0}), Rv({1.0}), Rv({1.0, 0.0, 0.0, 1.0})},  // nu <= K - 1
                 {Rv({1.0, 2.0, 2.0, 1.0}), Rv({3.0}), Rv({1.0, 0.0, 0.0, 1.0})},  // W indefinite
                 {Rv({1.0, 0.0, 0.0, 1.0}), Rv({3.0}), Rv({1.0, 0.5, 0.1, 1.0})},  // S not symmetric
                 {Rv({-1.0}), Rv({3.0}), Rv({1.0})}};                              // W negative
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "multi_normal";
    e.kind = Kind::MultiDensity;
    e.symbols = {"pvi_multi_normal_lpdf", "pvi_multi_normal_lpdf_grad"};
    ArgSpec sigma = real("Sigma");
    sigma.fd = Fd::Symmetric;
    e.args = {real("y"), real("mu"), sigma};
    e.value = [](const Point& p) {
      const MvnLayout l = mvnLayout(p);
      return std::vector<double>{
          pvi_multi_normal_lpdf(l.n, l.k, p[0].r.data(), l.sy, p[1].r.data(), l.smu, p[2].r.data())};
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      const MvnLayout l = mvnLayout(p);
      return pvi_multi_normal_lpdf_grad(seed[0], l.n, l.k, p[0].r.data(), l.sy, p[1].r.data(), l.smu, p[2].r.data(),
                                        g[0], g[1], g[2]);
    };
    // Closed form with Eigen in long double, per variate m:
    // -k/2 log(2 pi) - 1/2 log det Sigma - 1/2 r_m^T Sigma^{-1} r_m.
    e.reference = [](const Point& p) {
      const MvnLayout l = mvnLayout(p);
      const auto k = static_cast<Eigen::Index>(l.k);
      MatLD S = toMat(p[2].r, k);
      Eigen::LLT<MatLD> llt(S);
      LD logdet = 0;
      for (Eigen::Index i = 0; i < k; ++i) logdet += 2 * std::log(LD(llt.matrixL()(i, i)));
      LD v = 0;
      for (int64_t m = 0; m < l.n; ++m) {
        const VecLD r = mvnResidual(p, l, m);
        v += -LD(k) / 2 * std::log(2 * LD(M_PI)) - logdet / 2 - r.dot(llt.solve(r)) / 2;
      }
      return std::vector<LD>{v};
    };
    e.random = [](Rng& g) {
      static const int64_t kSizes[] = {1, 2, 3, 4, 6};
      int64_t k = kSizes[g.integer(0, 4)];
      auto [y, mu] = randomMvnVariates(g, k);
      return Point{Rv(y), Rv(mu), Rv(randomCovariance(g, k))};
    };
    e.edges = {{Rv({1e-3}), Rv({0}), Rv({1e-300})},
               {Rv({1e150, 0}), Rv({0, 0}), Rv({1e300, 0, 0, 1e300})},
               {Rv({1, 2}), Rv({0.5, 0.5}), Rv({1, 0.999, 0.999, 1})},
               {Rv({0, 0, 0}), Rv({0, 0, 0}), Rv({4, 1, 0.5, 1, 3, 0.25, 0.5, 0.25, 2})}};
    e.outside = {{Rv({0, 0}), Rv({0, 0}), Rv({1, 2, 2, 1})},       // indefinite
                 {Rv({0, 0}), Rv({0, 0}), Rv({1, 1, 1, 1})},       // singular
                 {Rv({0, 0}), Rv({0, 0}), Rv({2, 0.5, 0.1, 2})},   // not symmetric
                 {Rv({0, 0}), Rv({0, 0}), Rv({0, 0, 0, 1})},       // zero variance
                 {Rv({0, 0}), Rv({0, 0}), Rv({-1, 0, 0, 1})}};     // negative variance
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "multi_normal_cholesky";
    e.kind = Kind::MultiDensity;
    e.symbols = {"pvi_multi_normal_cholesky_lpdf", "pvi_multi_normal_cholesky_lpdf_grad"};
    ArgSpec L = real("L");
    L.fd = Fd::Lower;
    e.args = {real("y"), real("mu"), L};
    e.value = [](const Point& p) {
      const MvnLayout l = mvnLayout(p);
      return std::vector<double>{
          pvi_multi_normal_cholesky_lpdf(l.n, l.k, p[0].r.data(), l.sy, p[1].r.data(), l.smu, p[2].r.data())};
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      const MvnLayout l = mvnLayout(p);
      return pvi_multi_normal_cholesky_lpdf_grad(seed[0], l.n, l.k, p[0].r.data(), l.sy, p[1].r.data(), l.smu,
                                                 p[2].r.data(), g[0], g[1], g[2]);
    };
    // Closed form with Eigen in long double from the lower triangle only, per variate m:
    // -k/2 log(2 pi) - sum log L_ii - 1/2 |L^{-1} r_m|^2.
    e.reference = [](const Point& p) {
      const MvnLayout l = mvnLayout(p);
      const auto k = static_cast<Eigen::Index>(l.k);
      MatLD L = MatLD::Zero(k, k);
      for (Eigen::Index j = 0; j < k; ++j)
        for (Eigen::Index i = j; i < k; ++i) L(i, j) = p[2].r[static_cast<std::size_t>(i + j * k)];
      LD v = 0;
      for (int64_t m = 0; m < l.n; ++m) {
        VecLD z = L.triangularView<Eigen::Lower>().solve(mvnResidual(p, l, m));
        v += -LD(k) / 2 * std::log(2 * LD(M_PI)) - z.squaredNorm() / 2;
        for (Eigen::Index i = 0; i < k; ++i) v -= std::log(L(i, i));
      }
      return std::vector<LD>{v};
    };
    // The strict upper triangle is NaN: the kernel must never read it.
    e.random = [](Rng& g) {
      static const int64_t kSizes[] = {1, 2, 3, 4, 6};
      int64_t k = kSizes[g.integer(0, 4)];
      std::vector<double> L(static_cast<std::size_t>(k * k), kNaN);
      for (int64_t j = 0; j < k; ++j) {
        L[static_cast<std::size_t>(j + j * k)] = std::exp(g.uni(-0.5, 0.5));
        for (int64_t i = j + 1; i < k; ++i) L[static_cast<std::size_t>(i + j * k)] = 0.5 * g.normal();
      }
      auto [y, mu] = randomMvnVariates(g, k);
      return Point{Rv(y), Rv(mu), Rv(L)};
    };
    e.edges = {{Rv({1e-300}), Rv({0}), Rv({1e-300})},
               {Rv({1, 2}), Rv({0, 0}), Rv({1e-150, 1e150, kNaN, 1e150})},
               {Rv({1, 2}), Rv({0.5, 0.5}), Rv({1, 0.999999, 123.0, 1e-3})}};
    e.outside = {{Rv({0, 0}), Rv({0, 0}), Rv({0, 0.5, kNaN, 1})},
                 {Rv({0, 0}), Rv({0, 0}), Rv({1, 0.5, kNaN, -1})},
                 {Rv({0, 0}), Rv({0, 0}), Rv({-1, 0.5, kNaN, 1})}};
    t.push_back(e);
  }
}

// ---- element-wise functions -------------------------------------------------------------------

using UnaryFn = void (*)(int64_t, const double*, double*);
using UnaryGradFn = void (*)(int64_t, const double*, const double*, const double*, double*);

// `ref` is a generic callable, evaluated in long double (the value reference) and in 50 digits
// (the finite-difference reference).
template <class Ref>
Entry unary(std::string name, UnaryFn f, UnaryGradFn fg, Ref ref, std::function<double(Rng&)> gen,
            std::vector<double> edges, Step step) {
  Entry e;
  e.name = name;
  e.kind = Kind::Function;
  e.symbols = {"pvi_" + name, "pvi_" + name + "_grad"};
  ArgSpec x = real("x", step);
  x.nullable = false;  // the unary _grad kernels are only called when g_x is wanted
  e.args = {x};
  e.value = [f](const Point& p) {
    std::vector<double> out(p[0].r.size());
    f(static_cast<int64_t>(out.size()), p[0].r.data(), out.data());
    return out;
  };
  e.grad = [f, fg](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
    std::vector<double> out(p[0].r.size());
    f(static_cast<int64_t>(out.size()), p[0].r.data(), out.data());
    fg(static_cast<int64_t>(out.size()), p[0].r.data(), out.data(), seed.data(), g[0]);
    return std::nullopt;
  };
  e.reference = [ref](const Point& p) {
    std::vector<LD> out;
    for (double x : p[0].r) out.push_back(ref(LD(x)));
    return out;
  };
  e.reference_hp = [ref](const Point& p) {
    std::vector<HP> out;
    for (double x : p[0].r) out.push_back(ref(HP(x)));
    return out;
  };
  e.random = [gen](Rng& g) {
    std::vector<double> x(7);
    for (auto& v : x) v = gen(g);
    return Point{Rv(x)};
  };
  e.edges = {{Rv(std::move(edges))}};
  // Results below the normal range (exp(-745) and the like) carry only absolute accuracy.
  e.floor = 1e-300;
  return e;
}
#define UNARY(f) #f, &pvi_##f, &pvi_##f##_grad

template <class T>
T invLogitT(const T& x) {
  using std::exp;
  return x >= 0 ? T(1 / (1 + exp(-x))) : T(exp(x) / (1 + exp(x)));
}
template <class T>
T softplusT(const T& x) {
  using std::exp;
  return x > 0 ? T(x + bm::log1p(T(exp(-x)))) : T(bm::log1p(T(exp(x))));
}
template <class T>
T logSumExpT(const std::vector<double>& x) {
  using std::exp;
  using std::log;
  T m = -INFINITY;
  for (double v : x) m = std::max<T>(m, T(v));
  if (boost::math::isinf(m)) return m;
  T s = 0;
  for (double v : x) s += exp(T(v) - m);
  return T(m + log(s));
}

// The sample variance (denominator n - 1; 0 below two elements) in long double.
LD sampleVariance(const std::vector<double>& x) {
  if (x.size() < 2) return LD(0);
  LD m = 0, s = 0;
  for (double v : x) m += v;
  m /= LD(x.size());
  for (double v : x) s += (LD(v) - m) * (LD(v) - m);
  return s / LD(x.size() - 1);
}

void addElementwise(std::vector<Entry>& t) {
  // Generic references: std:: functions for long double, Boost.Multiprecision's (found by ADL) or
  // Boost.Math's for 50 digits.
  t.push_back(unary(
      UNARY(exp), [](auto x) { using std::exp; return decltype(x)(exp(x)); }, [](Rng& g) { return g.uni(-20, 20); },
      {0, -1e-300, 1e-20, -745, -700, 709.7, -40}, Step::Abs));
  t.push_back(unary(
      UNARY(log), [](auto x) { using std::log; return decltype(x)(log(x)); }, [](Rng& g) { return g.logUni(1e-3, 1e3); },
      {1e-300, 1e300, 1, 1 + 2.220446049250313e-16, 1 - 1.1102230246251565e-16, 4.9e-324}, Step::Rel));
  t.push_back(unary(
      UNARY(log10), [](auto x) { using std::log10; return decltype(x)(log10(x)); },
      [](Rng& g) { return g.logUni(1e-3, 1e3); }, {1e-300, 1e300, 1, 10, 4.9e-324}, Step::Rel));
  t.push_back(unary(
      UNARY(log1p), [](auto x) { return decltype(x)(bm::log1p(x)); }, [](Rng& g) { return g.uni(-0.9, 20); },
      {1e-20, -1e-20, -0.999999, 1e300, 0}, Step::Abs));
  t.push_back(unary(
      UNARY(expm1), [](auto x) { return decltype(x)(bm::expm1(x)); }, [](Rng& g) { return g.uni(-20, 20); },
      {1e-20, -1e-20, -40, 700, 1e-300, 0}, Step::Abs));
  t.push_back(unary(
      UNARY(log1m), [](auto x) { return decltype(x)(bm::log1p(-x)); }, [](Rng& g) { return g.uni(-20, 0.9); },
      {1e-20, -1e-20, 0.999999, -1e300, 1 - 1.1102230246251565e-16}, Step::Abs));
  t.push_back(unary(
      UNARY(log1m_exp),
      [](auto x) {
        // log(-expm1(x)) loses the value's digits below -log 2 (1 + expm1(x) rounds), where
        // log1p(-exp(x)) keeps them (Maechler 2012).
        using std::exp;
        using std::log;
        using T = decltype(x);
        return x > T(-0.6931471805599453) ? T(log(-bm::expm1(x))) : T(bm::log1p(-exp(x)));
      }, [](Rng& g) { return g.uni(-20, -0.01); },
      {-1e-20, -0.6931, -0.6932, -40, -800, -1e300}, Step::Abs));
  t.push_back(unary(
      UNARY(lgamma), [](auto x) { return decltype(x)(bm::lgamma(x)); },
      [](Rng& g) { return g.uniAwayFromIntegers(-5, 30, 0.1); },
      {1e-300, 1e300, 1, 2, 1 + 9.313225746154785e-10, 2 - 9.313225746154785e-10, -2.5, 1e-8, 170.5, 1e15},
      Step::Abs));
  t.push_back(unary(
      UNARY(digamma), [](auto x) { return decltype(x)(bm::digamma(x)); },
      [](Rng& g) { return g.uniAwayFromIntegers(-5, 30, 0.1); },
      {1e-8, 1e8, -2.5, 1.4616321449683623, 1e300, 0.5, -1e-8}, Step::Abs));
  t.push_back(unary(
      UNARY(inv_logit), [](auto x) { return invLogitT(x); }, [](Rng& g) { return g.uni(-30, 30); },
      {0, 40, -40, 700, -700, 745, -745, 1e-20, 1e300, -1e300}, Step::Abs));
  t.back().tol_note = "floor 1e-300: inv_logit(-745) is subnormal (absolute accuracy only)";
  t.push_back(unary(
      UNARY(log_inv_logit), [](auto x) { return decltype(x)(-softplusT(decltype(x)(-x))); },
      [](Rng& g) { return g.uni(-30, 30); }, {0, 40, -40, 800, -800, 1e-20, -1e300, 1e300}, Step::Abs));
  t.push_back(unary(
      UNARY(log1m_inv_logit), [](auto x) { return decltype(x)(-softplusT(x)); }, [](Rng& g) { return g.uni(-30, 30); },
      {0, 40, -40, 800, -800, 1e-20, -1e300, 1e300}, Step::Abs));
  t.push_back(unary(
      UNARY(logit), [](auto x) { using std::log; return decltype(x)(log(x) - bm::log1p(-x)); },
      [](Rng& g) { return g.uni(0.01, 0.99); }, {1e-300, 1 - 1.1102230246251565e-16, 1e-20, 0.5, 0.5 + 1e-12},
      Step::Unit));
  // logit(x) = log(x) - log1p(-x) cancels near x = 1/2 (both terms ~ -0.69): there only absolute
  // accuracy ~1e-16 exists, so the floor is 1 (the size of the terms).
  t.back().floor = 1.0;
  t.back().tol_note = "floor 1: log(x) - log1p(-x) cancels near x = 1/2";
  t.push_back(unary(
      UNARY(sqrt), [](auto x) { using std::sqrt; return decltype(x)(sqrt(x)); }, [](Rng& g) { return g.logUni(1e-3, 1e3); },
      {1e-300, 1e300, 0, 4.9e-324, 1}, Step::Rel));
  t.push_back(unary(
      UNARY(square), [](auto x) { return decltype(x)(x * x); }, [](Rng& g) { return g.uni(-30, 30); },
      {0, 1e-150, -1e150, 1e-200}, Step::Abs));
  t.push_back(unary(
      UNARY(tanh), [](auto x) { using std::tanh; return decltype(x)(tanh(x)); }, [](Rng& g) { return g.uni(-10, 10); },
      {0, 1e-20, -1e-300, 20, -20, 400, 1e300}, Step::Abs));
  t.push_back(unary(
      UNARY(abs), [](auto x) { using std::fabs; return decltype(x)(fabs(x)); },
      [](Rng& g) {
        double x = g.uni(0.01, 30);
        return g.integer(0, 1) ? x : -x;  // away from the kink at 0
      },
      {0, -0.0, 1e-300, -1e300}, Step::Rel));
  t.push_back(unary(
      UNARY(relu), [](auto x) { return x > 0 ? x : decltype(x)(0); },
      [](Rng& g) {
        double x = g.uni(0.01, 30);
        return g.integer(0, 1) ? x : -x;
      },
      {0, -0.0, 1e-300, -1e300, 1e300}, Step::Rel));
  t.push_back(unary(
      UNARY(inv), [](auto x) { return decltype(x)(1 / x); },
      [](Rng& g) {
        double x = g.logUni(1e-2, 1e2);
        return g.integer(0, 1) ? x : -x;
      },
      {1e-300, -1e300, 1e-308, 3}, Step::Rel));
}

// ---- scalar binary functions, reductions, vector functions -----------------------------------

using BinaryFn = double (*)(double, double);
using BinaryGradFn = void (*)(double, double, double, double, double*, double*);

template <class Ref>
Entry binary(std::string name, BinaryFn f, BinaryGradFn fg, Ref ref, std::function<Point(Rng&)> gen,
             std::vector<Point> edges, Step sa, Step sb) {
  Entry e;
  e.name = name;
  e.kind = Kind::Function;
  e.symbols = {"pvi_" + name, "pvi_" + name + "_grad"};
  e.args = {real("a", sa), real("b", sb)};
  e.value = [f](const Point& p) { return std::vector<double>{f(r0(p, 0), r0(p, 1))}; };
  e.grad = [f, fg](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
    double out = f(r0(p, 0), r0(p, 1));
    fg(r0(p, 0), r0(p, 1), out, seed[0], g[0], g[1]);
    return std::nullopt;
  };
  e.reference = [ref](const Point& p) { return std::vector<LD>{ref(LD(r0(p, 0)), LD(r0(p, 1)))}; };
  e.reference_hp = [ref](const Point& p) { return std::vector<HP>{ref(HP(r0(p, 0)), HP(r0(p, 1)))}; };
  e.random = std::move(gen);
  e.edges = std::move(edges);
  e.floor = 1e-300;
  return e;
}

void addScalarAndVectorFunctions(std::vector<Entry>& t) {
  t.push_back(binary(
      "pow", &pvi_pow, &pvi_pow_grad, [](auto a, auto b) { using std::pow; return decltype(a)(pow(a, b)); },
      [](Rng& g) { return Point{R(g.logUni(0.1, 10)), R(g.uni(-4, 4))}; },
      {{R(2), R(0.5)}, {R(0), R(3)}, {R(-2), R(3)}, {R(1e-300), R(0.5)}, {R(10), R(300)}, {R(7), R(0)}},
      Step::Rel, Step::Abs));
  t.push_back(binary(
      "fmax", &pvi_fmax, &pvi_fmax_grad, [](auto a, auto b) { return a > b ? a : b; },
      [](Rng& g) {  // a tie has probability 0, but keep the arguments 0.01 apart
        double a = g.uni(-5, 5), d = g.uni(0.01, 3);
        return g.integer(0, 1) ? Point{R(a), R(a + d)} : Point{R(a + d), R(a)};
      },
      {{R(1), R(1)}, {R(-kInf), R(3)}, {R(1e300), R(-1e300)}}, Step::Abs, Step::Abs));
  t.push_back(binary(
      "fmin", &pvi_fmin, &pvi_fmin_grad, [](auto a, auto b) { return a < b ? a : b; },
      [](Rng& g) {
        double a = g.uni(-5, 5), d = g.uni(0.01, 3);
        return g.integer(0, 1) ? Point{R(a), R(a + d)} : Point{R(a + d), R(a)};
      },
      {{R(1), R(1)}, {R(kInf), R(3)}, {R(1e300), R(-1e300)}}, Step::Abs, Step::Abs));
  t.push_back(binary(
      "log_sum_exp2", &pvi_log_sum_exp2, &pvi_log_sum_exp2_grad,
      [](auto a, auto b) { return logSumExpT<decltype(a)>({static_cast<double>(a), static_cast<double>(b)}); },
      [](Rng& g) { return Point{R(g.uni(-20, 20)), R(g.uni(-20, 20))}; },
      {{R(-kInf), R(-kInf)}, {R(-kInf), R(2)}, {R(1000), R(1000)}, {R(-1000), R(-1001)}, {R(800), R(-800)},
       {R(1e300), R(1e300)}, {R(0), R(-40)}},
      Step::Abs, Step::Abs));
  // log_sum_exp(1000, 1000) = 1000 + log 2 etc.: well conditioned, default floor is fine.
  t.back().floor = 1.0;
  t.push_back(binary(
      "log_diff_exp", &pvi_log_diff_exp, &pvi_log_diff_exp_grad,
      [](auto a, auto b) {
        using std::log;
        return decltype(a)(a + log(-bm::expm1(b - a)));
      },
      [](Rng& g) {  // b below a by 0.5 or more: the finite differences' steps (up to 0.02) stay far
                    // from the singularity at a = b, which the edge points approach (values only)
        double a = g.uni(-20, 20);
        return Point{R(a), R(a - g.logUni(0.5, 30))};
      },
      {{R(0), R(-1e-12)}, {R(1000), R(999)}, {R(-1000), R(-1040)}, {R(5), R(-kInf)}, {R(0), R(-700)}},
      Step::Abs, Step::Abs));
  t.back().floor = 1.0;
  {
    Entry e;
    e.name = "log_mix";
    e.kind = Kind::Function;
    e.symbols = {"pvi_log_mix", "pvi_log_mix_grad"};
    e.args = {real("theta", Step::Unit), real("lp1"), real("lp2")};
    e.value = [](const Point& p) { return std::vector<double>{pvi_log_mix(r0(p, 0), r0(p, 1), r0(p, 2))}; };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      double out = pvi_log_mix(r0(p, 0), r0(p, 1), r0(p, 2));
      pvi_log_mix_grad(r0(p, 0), r0(p, 1), r0(p, 2), out, seed[0], g[0], g[1], g[2]);
      return std::nullopt;
    };
    // Closed form in long double: log(theta exp(lp1) + (1 - theta) exp(lp2)), shifted by the max.
    auto ref = [](auto th, auto a, auto b) {
      using std::exp;
      using std::log;
      auto m = a > b ? a : b;
      return decltype(a)(m + log(th * exp(a - m) + (1 - th) * exp(b - m)));
    };
    e.reference = [ref](const Point& p) { return std::vector<LD>{ref(LD(r0(p, 0)), LD(r0(p, 1)), LD(r0(p, 2)))}; };
    e.reference_hp = [ref](const Point& p) {
      return std::vector<HP>{ref(HP(r0(p, 0)), HP(r0(p, 1)), HP(r0(p, 2)))};
    };
    e.random = [](Rng& g) { return Point{R(g.uni(0.02, 0.98)), R(g.uni(-30, 5)), R(g.uni(-30, 5))}; };
    e.edges = {{R(0), R(1), R(2)}, {R(1), R(1), R(2)}, {R(0.5), R(-1000), R(-1000)}, {R(1e-300), R(800), R(0)},
               {R(0.3), R(-kInf), R(0)}};
    // The value is a log-sum of O(1)+ terms; near 0 only absolute accuracy exists.
    e.floor = 1.0;
    t.push_back(e);
  }
  // Stan's reductions: dot_self, variance and sd (denominator n - 1), prod, max, min; references in long
  // double, gradients against central differences of the value.
  struct Reduction {
    const char* name;
    double (*value)(int64_t, const double*);
    void (*grad)(int64_t, const double*, double, double, double*);
    LD (*reference)(const std::vector<double>&);
    std::size_t minSize;
  };
  const Reduction reductions[] = {
      {"dot_self", &pvi_dot_self, &pvi_dot_self_grad,
       [](const std::vector<double>& x) {
         LD s = 0;
         for (double v : x) s += LD(v) * LD(v);
         return s;
       },
       0},
      {"variance", &pvi_variance, &pvi_variance_grad, [](const std::vector<double>& x) { return sampleVariance(x); },
       1},
      {"sd", &pvi_sd, &pvi_sd_grad, [](const std::vector<double>& x) { return std::sqrt(sampleVariance(x)); }, 1},
      {"prod", &pvi_prod, &pvi_prod_grad,
       [](const std::vector<double>& x) {
         LD p = 1;
         for (double v : x) p *= v;
         return p;
       },
       0},
      {"max", &pvi_max, &pvi_max_grad,
       [](const std::vector<double>& x) { return LD(*std::max_element(x.begin(), x.end())); }, 1},
      {"min", &pvi_min, &pvi_min_grad,
       [](const std::vector<double>& x) { return LD(*std::min_element(x.begin(), x.end())); }, 1},
  };
  for (const Reduction& r : reductions) {
    Entry e;
    e.name = r.name;
    e.kind = Kind::Function;
    e.symbols = {std::string("pvi_") + r.name, std::string("pvi_") + r.name + "_grad"};
    ArgSpec x = real("x");
    x.nullable = false;
    e.args = {x};
    e.value = [r](const Point& p) {
      return std::vector<double>{r.value(static_cast<int64_t>(p[0].r.size()), p[0].r.data())};
    };
    e.grad = [r](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      auto n = static_cast<int64_t>(p[0].r.size());
      r.grad(n, p[0].r.data(), r.value(n, p[0].r.data()), seed[0], g[0]);
      return std::nullopt;
    };
    e.reference = [r](const Point& p) { return std::vector<LD>{r.reference(p[0].r)}; };
    const std::size_t minSize = r.minSize;
    const bool product = std::string(r.name) == "prod";
    e.random = [minSize, product](Rng& g) {
      std::vector<double> x(static_cast<std::size_t>(g.integer(static_cast<int>(std::max<std::size_t>(minSize, 2)), 9)));
      for (auto& v : x) v = product ? g.uni(0.5, 2.0) * (g.uni(0, 1) < 0.5 ? -1 : 1) : g.uni(-10, 10);
      return Point{Rv(x)};
    };
    e.edges = {{Rv({3.0})}, {Rv({1e8 + 1, 1e8 + 2, 1e8 + 3})}, {Rv({0.0, 2.0, -3.0})}};
    if (minSize == 0) e.edges.push_back({Rv({})});
    if (product) e.edges.push_back({Rv({1e-200, 1e-200, 1e200})});  // the partial products underflow
    e.floor = 1e-300;
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "sum";
    e.kind = Kind::Function;
    e.symbols = {"pvi_sum"};  // no gradient kernel: g_x[i] += g_out needs none
    e.args = {real("x")};
    e.value = [](const Point& p) {
      return std::vector<double>{pvi_sum(static_cast<int64_t>(p[0].r.size()), p[0].r.data())};
    };
    e.reference = [](const Point& p) {
      LD s = 0;
      for (double x : p[0].r) s += x;
      return std::vector<LD>{s};
    };
    e.random = [](Rng& g) {
      std::vector<double> x(static_cast<std::size_t>(g.integer(0, 23)));
      for (auto& v : x) v = g.uni(-10, 10);
      return Point{Rv(x)};
    };
    e.edges = {{Rv({})}, {Rv({1e300, -1e300, 1})}, {Rv({1e-300, 2e-300, 3e-300, 4e-300, 5e-300})}};
    // A sum is accurate relative to sum |x_i| (the rounding of the partial sums), not to its
    // possibly cancelled result.
    e.scale = [](const Point& p) {
      LD s = 0;
      for (double x : p[0].r) s += std::fabs(LD(x));
      return std::vector<LD>{s};
    };
    e.floor = 1e-300;
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "log_sum_exp";
    e.kind = Kind::Function;
    e.symbols = {"pvi_log_sum_exp", "pvi_log_sum_exp_grad"};
    ArgSpec x = real("x");
    x.nullable = false;
    e.args = {x};
    e.value = [](const Point& p) {
      return std::vector<double>{pvi_log_sum_exp(static_cast<int64_t>(p[0].r.size()), p[0].r.data())};
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      auto n = static_cast<int64_t>(p[0].r.size());
      double out = pvi_log_sum_exp(n, p[0].r.data());
      pvi_log_sum_exp_grad(n, p[0].r.data(), out, seed[0], g[0]);
      return std::nullopt;
    };
    e.reference = [](const Point& p) { return std::vector<LD>{logSumExpT<LD>(p[0].r)}; };
    e.reference_hp = [](const Point& p) { return std::vector<HP>{logSumExpT<HP>(p[0].r)}; };
    e.random = [](Rng& g) {
      std::vector<double> x(static_cast<std::size_t>(g.integer(1, 9)));
      for (auto& v : x) v = g.uni(-20, 20);
      return Point{Rv(x)};
    };
    e.edges = {{Rv({})}, {Rv({-kInf, -kInf})}, {Rv({1000, 1000, 999})}, {Rv({-1000, -1e300})}, {Rv({kInf, 1})},
               {Rv({0})}};
    e.floor = 1.0;  // a log-sum of O(1) terms: absolute accuracy near 0
    t.push_back(e);
  }
  for (bool log_form : {false, true}) {
    Entry e;
    e.name = log_form ? "log_softmax" : "softmax";
    e.kind = Kind::Function;
    e.symbols = {"pvi_" + e.name, "pvi_" + e.name + "_grad"};
    ArgSpec x = real("x");
    x.nullable = false;
    e.args = {x};
    auto f = log_form ? &pvi_log_softmax : &pvi_softmax;
    auto fg = log_form ? &pvi_log_softmax_grad : &pvi_softmax_grad;
    e.value = [f](const Point& p) {
      std::vector<double> out(p[0].r.size());
      f(static_cast<int64_t>(out.size()), p[0].r.data(), out.data());
      return out;
    };
    e.grad = [f, fg](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      std::vector<double> out(p[0].r.size());
      f(static_cast<int64_t>(out.size()), p[0].r.data(), out.data());
      fg(static_cast<int64_t>(out.size()), p[0].r.data(), out.data(), seed.data(), g[0]);
      return std::nullopt;
    };
    auto ref = [log_form](const Point& p, auto zero) {
      using T = decltype(zero);
      using std::exp;
      T lse = logSumExpT<T>(p[0].r);
      std::vector<T> out;
      for (double v : p[0].r) out.push_back(log_form ? T(T(v) - lse) : T(exp(T(v) - lse)));
      return out;
    };
    e.reference = [ref](const Point& p) { return ref(p, LD(0)); };
    e.reference_hp = [ref](const Point& p) { return ref(p, HP(0)); };
    e.random = [](Rng& g) {
      std::vector<double> x(static_cast<std::size_t>(g.integer(1, 9)));
      for (auto& v : x) v = g.uni(-10, 10);
      return Point{Rv(x)};
    };
    e.edges = {{Rv({1000, 1000, -1000})}, {Rv({0})}, {Rv({1e-10, 2e-10})}, {Rv({-800, 0, 30})}};
    // softmax: relative (probabilities down to exp(-1030) are representable in long double; in
    // double they underflow, absolute accuracy only: floor 1e-300). log_softmax: x_i - lse cancels
    // when x_i is the maximum, absolute accuracy relative to |x_i| ~ 1: floor 1.
    e.floor = log_form ? 1.0 : 1e-300;
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "cumulative_sum";
    e.kind = Kind::Function;
    e.symbols = {"pvi_cumulative_sum", "pvi_cumulative_sum_grad"};
    ArgSpec x = real("x");
    x.nullable = false;
    e.args = {x};
    e.value = [](const Point& p) {
      std::vector<double> out(p[0].r.size());
      pvi_cumulative_sum(static_cast<int64_t>(out.size()), p[0].r.data(), out.data());
      return out;
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      std::vector<double> out(p[0].r.size());
      pvi_cumulative_sum(static_cast<int64_t>(out.size()), p[0].r.data(), out.data());
      pvi_cumulative_sum_grad(static_cast<int64_t>(out.size()), p[0].r.data(), out.data(), seed.data(), g[0]);
      return std::nullopt;
    };
    e.reference = [](const Point& p) {
      std::vector<LD> out;
      LD s = 0;
      for (double v : p[0].r) out.push_back(s += v);
      return out;
    };
    e.random = [](Rng& g) {
      std::vector<double> x(static_cast<std::size_t>(g.integer(0, 9)));
      for (auto& v : x) v = g.uni(-10, 10);
      return Point{Rv(x)};
    };
    e.edges = {{Rv({})}, {Rv({1e300, -1e300, 1})}, {Rv({3.0})}};
    // A partial sum is accurate relative to the sum of |x_i| so far, not to its cancelled value.
    e.scale = [](const Point& p) {
      std::vector<LD> out;
      LD s = 0;
      for (double v : p[0].r) out.push_back(s += std::fabs(LD(v)));
      return out;
    };
    e.floor = 1e-300;
    t.push_back(e);
  }
}

// ---- linear algebra -----------------------------------------------------------------------------

MatLD colMajor(const std::vector<double>& v, int64_t r, int64_t c) {
  MatLD m(r, c);
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = 0; i < r; ++i) m(i, j) = v[static_cast<std::size_t>(i + j * r)];
  return m;
}
std::vector<LD> flat(const MatLD& m) { return std::vector<LD>(m.data(), m.data() + m.size()); }
std::vector<double> randomMatrix(Rng& g, int64_t r, int64_t c) { return randomVector(g, r * c, 1.0); }

// A k x k matrix to a k x k matrix by the element-wise convention (n = k^2): the gradient kernel gets
// the value kernel's output.
using MatrixValue = void (*)(int64_t, const double*, double*);
using MatrixGrad = void (*)(int64_t, const double*, const double*, const double*, double*);
Entry squareMatrixFunction(std::string name, const char* arg, std::string symbol, MatrixValue value, MatrixGrad grad) {
  Entry e;
  e.name = std::move(name);
  e.kind = Kind::Function;
  e.symbols = {symbol, symbol + "_grad"};
  e.args = {real(arg)};
  e.value = [value](const Point& p) {
    std::vector<double> out(p[0].r.size());
    value(static_cast<int64_t>(out.size()), p[0].r.data(), out.data());
    return out;
  };
  e.grad = [value, grad](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
    std::vector<double> out(p[0].r.size());
    const auto n = static_cast<int64_t>(out.size());
    value(n, p[0].r.data(), out.data());
    grad(n, p[0].r.data(), out.data(), seed.data(), g[0]);
    return std::nullopt;
  };
  return e;
}

void addLinearAlgebra(std::vector<Entry>& t) {
  {
    Entry e = squareMatrixFunction("cholesky_decompose", "A", KPAIR(pvi_cholesky_decompose));
    e.args[0].fd = Fd::Symmetric;  // the gradient over a symmetric A is symmetric
    // Eigen's LLT in long double.
    e.reference = [](const Point& p) {
      const auto k = static_cast<Eigen::Index>(std::llround(std::sqrt(static_cast<double>(p[0].r.size()))));
      const MatLD L = toMat(p[0].r, k).llt().matrixL();
      return flat(L);
    };
    e.random = [](Rng& g) {
      const int64_t k = g.integer(1, 6);
      return Point{Rv(randomCovariance(g, k))};
    };
    e.edges = {{Rv({4.0})}, {Rv({1.0, 0.999, 0.999, 1.0})}, {Rv({1e4, 1.0, 1.0, 1e-4 + 1e-8})}};
    t.push_back(e);
  }
  // eigenvalues_sym and eigenvectors_sym on matrices with eigenvalues at least 0.5 apart (a
  // random rotation of a spread spectrum), against Eigen's solver in long double with the same
  // sign convention (each eigenvector's largest element positive).
  const auto eigensystem = [](const Point& p) {
    const auto k = static_cast<Eigen::Index>(std::llround(std::sqrt(static_cast<double>(p[0].r.size()))));
    Eigen::SelfAdjointEigenSolver<MatLD> solver(toMat(p[0].r, k));
    MatLD V = solver.eigenvectors();
    for (Eigen::Index j = 0; j < k; ++j) {
      Eigen::Index largest = 0;
      V.col(j).cwiseAbs().maxCoeff(&largest);
      if (V(largest, j) < 0) V.col(j) *= -1;
    }
    return std::make_pair(VecLD(solver.eigenvalues()), V);
  };
  const auto spreadSpectrum = [](Rng& g) {
    const int64_t k = g.integer(1, 5);
    const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(Eigen::Map<const Eigen::MatrixXd>(
                                  randomMatrix(g, k, k).data(), k, k)).householderQ();
    Eigen::VectorXd lambda(k);
    double at = g.uni(-2.0, 2.0);
    for (int64_t i = 0; i < k; ++i) lambda(i) = (at += g.uni(0.5, 2.0));
    Eigen::MatrixXd a = q * lambda.asDiagonal() * q.transpose();
    a = (0.5 * (a + a.transpose())).eval();
    return Point{Rv(std::vector<double>(a.data(), a.data() + k * k))};
  };
  {
    Entry e;
    e.name = "eigenvalues_sym";
    e.kind = Kind::Function;
    e.symbols = {"pvi_eigenvalues_sym", "pvi_eigenvalues_sym_grad"};
    ArgSpec a = real("A");
    a.fd = Fd::Symmetric;
    e.args = {a};
    const auto order = [](const Point& p) {
      return static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(p[0].r.size()))));
    };
    e.value = [order](const Point& p) {
      std::vector<double> out(static_cast<std::size_t>(order(p)));
      pvi_eigenvalues_sym(order(p), p[0].r.data(), out.data());
      return out;
    };
    e.grad = [order](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      std::vector<double> out(static_cast<std::size_t>(order(p)));
      pvi_eigenvalues_sym(order(p), p[0].r.data(), out.data());
      pvi_eigenvalues_sym_grad(order(p), p[0].r.data(), out.data(), seed.data(), g[0]);
      return std::nullopt;
    };
    e.reference = [eigensystem](const Point& p) {
      const VecLD lambda = eigensystem(p).first;
      return std::vector<LD>(lambda.data(), lambda.data() + lambda.size());
    };
    e.random = spreadSpectrum;
    e.edges = {{Rv({4.0})}, {Rv({2.0, 0.0, 0.0, 1.0})}, {Rv({1.0, 0.5, 0.5, 3.0})}};
    t.push_back(e);
  }
  {
    Entry e = squareMatrixFunction("eigenvectors_sym", "A", KPAIR(pvi_eigenvectors_sym));
    e.args[0].fd = Fd::Symmetric;
    e.reference = [eigensystem](const Point& p) { return flat(eigensystem(p).second); };
    e.random = spreadSpectrum;
    e.edges = {{Rv({4.0})}, {Rv({2.0, 0.0, 0.0, 1.0})}, {Rv({1.0, 0.5, 0.5, 3.0})}};
    t.push_back(e);
  }
  {
    Entry e = squareMatrixFunction("multiply_lower_tri_self_transpose", "x", KPAIR(pvi_multiply_lower_tri_self_transpose));
    // The lower triangle (the upper one is ignored) times its transpose, in long double.
    e.reference = [](const Point& p) {
      const auto k = static_cast<Eigen::Index>(std::llround(std::sqrt(static_cast<double>(p[0].r.size()))));
      const MatLD T = toMat(p[0].r, k).triangularView<Eigen::Lower>();
      return flat(T * T.transpose());
    };
    e.random = [](Rng& g) {
      const int64_t k = g.integer(1, 6);
      return Point{Rv(randomMatrix(g, k, k))};
    };
    e.edges = {{Rv({})}, {Rv({-2.0})}, {Rv({1.0, 0.5, 7.0, 2.0})}};
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "diag_matrix";
    e.kind = Kind::Function;
    e.symbols = {"pvi_diag_matrix", "pvi_diag_matrix_grad"};
    e.args = {real("v")};
    e.value = [](const Point& p) {
      const std::size_t k = p[0].r.size();
      std::vector<double> out(k * k);
      pvi_diag_matrix(static_cast<int64_t>(k * k), p[0].r.data(), out.data());
      return out;
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      const std::size_t k = p[0].r.size();
      pvi_diag_matrix_grad(static_cast<int64_t>(k * k), p[0].r.data(), nullptr, seed.data(), g[0]);
      return std::nullopt;
    };
    e.reference = [](const Point& p) {
      const auto k = static_cast<Eigen::Index>(p[0].r.size());
      MatLD m = MatLD::Zero(k, k);
      for (Eigen::Index i = 0; i < k; ++i) m(i, i) = p[0].r[static_cast<std::size_t>(i)];
      return flat(m);
    };
    e.random = [](Rng& g) { return Point{Rv(randomVector(g, g.integer(1, 6), 1.0))}; };
    e.edges = {{Rv({})}, {Rv({1e300, -1e-300})}};
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "dot";
    e.kind = Kind::Function;
    e.symbols = {"pvi_dot", "pvi_dot_grad"};
    e.args = {real("a"), real("b")};
    e.value = [](const Point& p) {
      return std::vector<double>{pvi_dot(static_cast<int64_t>(p[0].r.size()), p[0].r.data(), p[1].r.data())};
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      pvi_dot_grad(static_cast<int64_t>(p[0].r.size()), p[0].r.data(), p[1].r.data(), seed[0], g[0], g[1]);
      return std::nullopt;
    };
    e.reference = [](const Point& p) {
      return std::vector<LD>{toVec(p[0].r).dot(toVec(p[1].r))};
    };
    e.random = [](Rng& g) {
      int64_t n = g.integer(1, 19);
      return Point{Rv(randomVector(g, n, 1.0)), Rv(randomVector(g, n, 1.0))};
    };
    e.edges = {{Rv({}), Rv({})}, {Rv({1e300, 1e-300}), Rv({1e-300, 1e300})}};
    e.scale = [](const Point& p) {
      return std::vector<LD>{toVec(p[0].r).cwiseAbs().dot(toVec(p[1].r).cwiseAbs())};
    };
    e.floor = 1e-300;
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "matvec";
    e.kind = Kind::Function;
    e.symbols = {"pvi_matvec", "pvi_matvec_grad"};
    e.args = {integer("dims"), real("A"), real("x")};  // dims = {r, c}
    e.value = [](const Point& p) {
      int64_t r = p[0].i[0], c = p[0].i[1];
      std::vector<double> out(static_cast<std::size_t>(r));
      pvi_matvec(r, c, p[1].r.data(), p[2].r.data(), out.data());
      return out;
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      pvi_matvec_grad(p[0].i[0], p[0].i[1], p[1].r.data(), p[2].r.data(), seed.data(), g[1], g[2]);
      return std::nullopt;
    };
    e.reference = [](const Point& p) {
      int64_t r = p[0].i[0], c = p[0].i[1];
      return flat(colMajor(p[1].r, r, c) * colMajor(p[2].r, c, 1));
    };
    e.random = [](Rng& g) {
      int64_t r = g.integer(1, 7), c = g.integer(1, 7);
      return Point{Iv({r, c}), Rv(randomMatrix(g, r, c)), Rv(randomVector(g, c, 1.0))};
    };
    e.edges = {{Iv({2, 0}), Rv({}), Rv({})}, {Iv({1, 3}), Rv({1, 2, 3}), Rv({1e-300, 1e300, -1})}};
    e.scale = [](const Point& p) {
      int64_t r = p[0].i[0], c = p[0].i[1];
      return flat(colMajor(p[1].r, r, c).cwiseAbs() * colMajor(p[2].r, c, 1).cwiseAbs());
    };
    e.floor = 1e-300;
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "vecmat";
    e.kind = Kind::Function;
    e.symbols = {"pvi_vecmat", "pvi_vecmat_grad"};
    e.args = {integer("dims"), real("x"), real("A")};  // dims = {r, c}
    e.value = [](const Point& p) {
      int64_t r = p[0].i[0], c = p[0].i[1];
      std::vector<double> out(static_cast<std::size_t>(c));
      pvi_vecmat(r, c, p[1].r.data(), p[2].r.data(), out.data());
      return out;
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      pvi_vecmat_grad(p[0].i[0], p[0].i[1], p[1].r.data(), p[2].r.data(), seed.data(), g[1], g[2]);
      return std::nullopt;
    };
    e.reference = [](const Point& p) {
      int64_t r = p[0].i[0], c = p[0].i[1];
      return flat(colMajor(p[1].r, 1, r) * colMajor(p[2].r, r, c));
    };
    e.random = [](Rng& g) {
      int64_t r = g.integer(1, 7), c = g.integer(1, 7);
      return Point{Iv({r, c}), Rv(randomVector(g, r, 1.0)), Rv(randomMatrix(g, r, c))};
    };
    e.edges = {{Iv({0, 2}), Rv({}), Rv({})}, {Iv({3, 1}), Rv({1e-300, 1e300, -1}), Rv({1, 2, 3})}};
    e.scale = [](const Point& p) {
      int64_t r = p[0].i[0], c = p[0].i[1];
      return flat(colMajor(p[1].r, 1, r).cwiseAbs() * colMajor(p[2].r, r, c).cwiseAbs());
    };
    e.floor = 1e-300;
    t.push_back(e);
  }
  {
    Entry e;
    e.name = "matmul";
    e.kind = Kind::Function;
    e.symbols = {"pvi_matmul", "pvi_matmul_grad"};
    e.args = {integer("dims"), real("A"), real("B")};  // dims = {r, k, c}
    e.value = [](const Point& p) {
      int64_t r = p[0].i[0], k = p[0].i[1], c = p[0].i[2];
      std::vector<double> out(static_cast<std::size_t>(r * c));
      pvi_matmul(r, k, c, p[1].r.data(), p[2].r.data(), out.data());
      return out;
    };
    e.grad = [](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
      pvi_matmul_grad(p[0].i[0], p[0].i[1], p[0].i[2], p[1].r.data(), p[2].r.data(), seed.data(), g[1], g[2]);
      return std::nullopt;
    };
    e.reference = [](const Point& p) {
      int64_t r = p[0].i[0], k = p[0].i[1], c = p[0].i[2];
      return flat(colMajor(p[1].r, r, k) * colMajor(p[2].r, k, c));
    };
    e.random = [](Rng& g) {
      int64_t r = g.integer(1, 6), k = g.integer(1, 6), c = g.integer(1, 6);
      return Point{Iv({r, k, c}), Rv(randomMatrix(g, r, k)), Rv(randomMatrix(g, k, c))};
    };
    e.edges = {{Iv({2, 0, 3}), Rv({}), Rv({})}, {Iv({1, 1, 1}), Rv({1e-300}), Rv({1e300})}};
    e.scale = [](const Point& p) {
      int64_t r = p[0].i[0], k = p[0].i[1], c = p[0].i[2];
      return flat(colMajor(p[1].r, r, k).cwiseAbs() * colMajor(p[2].r, k, c).cwiseAbs());
    };
    e.floor = 1e-300;
    t.push_back(e);
  }
}

// Densities evaluate through the vectorised kernels with n = 1.
void finalise(Entry& e) {
  if (e.kind != Kind::Density) return;
  auto vvalue = e.vvalue;
  auto vgrad = e.vgrad;
  std::size_t m = e.args.size();
  e.value = [vvalue, m](const Point& p) { return std::vector<double>{vvalue(1, p, Strides(m, 0))}; };
  e.grad = [vgrad, m](const Point& p, const std::vector<double>& seed, const Grads& g) -> std::optional<double> {
    return vgrad(seed[0], 1, p, Strides(m, 0), g);
  };
}

}  // namespace

const std::vector<Entry>& kernelCases() {
  static const std::vector<Entry> table = [] {
    std::vector<Entry> t;
    addDensities(t);
    addDiscreteDensities(t);
    addCdfs(t);
    addMultivariate(t);
    addElementwise(t);
    addScalarAndVectorFunctions(t);
    addLinearAlgebra(t);
    for (auto& e : t) finalise(e);
    return t;
  }();
  return table;
}

}  // namespace pvt
