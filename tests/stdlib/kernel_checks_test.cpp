// THE checks: every entry of the kernel table (kernel_cases.cpp) runs through the same machinery.
//
//   KernelValue.RandomPoints       kernel == reference at 25 random valid points (fixed seed)
//   KernelValue.EdgePoints         kernel == reference at the entry's extreme points; densities
//                                  also: _grad returns the same value, no NaN gradient
//   KernelGradient.FiniteDifferences  every gradient component against a Richardson-extrapolated
//                                  central difference (20 random points), relative error < 1e-6
//   KernelGradient.NullAndPartialPointers  all-null gradient pointers: the value is unchanged;
//                                  one non-null pointer: exactly the same gradient as with all
//   KernelGradient.AccumulationAndScaling  called twice = 2x; into a pre-filled buffer = sum;
//                                  adj / g_out scaled by 2.5 = 2.5x
//   KernelVectorised.SumOfScalars  (densities) n = 5 with every broadcast (stride 0) / vector
//                                  (stride 1) combination: value = sum of the scalar values,
//                                  gradients = sums of the scalar gradients
//   KernelSupport.OutsideIsNegativeInfinity  (densities) every out-of-support point, plus NaN /
//                                  +Inf / -Inf in every real argument: exactly -INFINITY (value and
//                                  _grad), also as one bad element of a vector
//   KernelCoverage.*               every symbol of kernels.def / pvi_kernel_table / kernels.h is
//                                  covered by a table entry
//
// Value tolerance: |kernel - ref| <= tol * max(|ref|, floor, scale) with tol = 1e-12 by default
// (see Entry in kernel_test_framework.hpp and the per-entry notes in kernel_cases.cpp).
//
// Finite differences. For a direction d in the argument space and output adjoints w (adj for a
// density, g_out for a function), each output is differenced separately and then weighted,
//   D(h) = sum_o w_o (f_o(x + h d) - f_o(x - h d)) / (2h)
// (differencing the weighted sum instead would drown a small output's change in the rounding of
// a large unrelated output), and two Richardson steps
//   FD = (64 D(h/4) - 20 D(h/2) + D(h)) / 45
// cancel the h^2 and h^4 error terms (error O(h^6)). With h ~ 1e-3 * scale(x) (rounded down to a
// power of two, so that x +- h/2^i are exact; scale = max(1, |x|)
// for unbounded arguments, |x| for positive ones, min(x, 1 - x) on (0, 1): the nearest singularity
// is at least ~scale away) the truncation error is ~(1e-3)^6 relative, and the rounding error is
//   noise = 16 * (64 N(h/4) + 20 N(h/2) + N(h)) / 45,   N(h) = sum_o |w_o| ulp(f_o) / h
// over the outputs o that depend on the perturbation (those whose analytic directional derivative,
// from the _grad kernel with a unit adjoint on o, is nonzero; 16: the kernels' own error, a few
// ulps per evaluation).
// Every gradient component g is compared with two differences:
//  - of the kernel itself (double): consistency of the value and gradient kernels;
//  - of the reference (long double, or 50 digits for the functions): the true derivative, with
//    rounding noise ~2000 (long double) or ~1e34 (50 digits) times smaller.
// A component passes when
//   |g - FD| <= 1e-6 * max(|g|, |FD|) + noise,
// i.e. the relative error err = |g - FD| / max(|g|, |FD|) is below 1e-6 wherever the difference
// resolves the derivative (noise << 1e-6 |g|). The reference differences are REQUIRED to resolve
// every component (noise <= 1e-7 |g|), so every component meets the plain relative bound
// err < 1e-6 against them. The kernel differences resolve nearly all components too; the few they
// cannot (d log_sum_exp / dx_i = exp(x_i - lse) ~ 1e-14 beside lse ~ 14, 1 - tanh(x)^2 at x = 9:
// below the resolution of any double difference) are checked to their rounding noise. The run
// prints, per entry, the worst relative errors and how many kernel differences were unresolved.
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "stdlib/kernels/kernel_table.h"
#include "tests/stdlib/kernel_test_framework.hpp"

namespace {

using namespace pvt;

constexpr int kRandomPoints = 25;
constexpr int kGradPoints = 20;
constexpr double kFdStep = 1e-3;
constexpr double kFdTol = 1e-6;
constexpr int kVecLen = 5;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

uint64_t seedOf(const std::string& name, uint64_t salt) {
  uint64_t h = 1469598103934665603ull ^ salt;  // FNV-1a
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

std::string fmt(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

std::string show(const Entry& e, const Point& p) {
  std::ostringstream os;
  os << e.name << "(";
  for (std::size_t a = 0; a < p.size(); ++a) {
    os << (a ? ", " : "") << e.args[a].name << "=";
    const bool many = p[a].r.size() + p[a].i.size() != 1;
    if (many) os << "[";
    for (std::size_t j = 0; j < p[a].r.size(); ++j) os << (j ? " " : "") << fmt(p[a].r[j]);
    for (std::size_t j = 0; j < p[a].i.size(); ++j) os << (j ? " " : "") << p[a].i[j];
    if (many) os << "]";
  }
  os << ")";
  return os.str();
}

// Per-entry maxima, printed at the end of the run (for the record of how close things are).
struct FdStats {
  double worst = 0;        // max relative error among resolved components
  long probes = 0;         // comparisons
  long noise_limited = 0;  // of which the rounding noise exceeded 1e-7 |g| (not resolved)
};
struct Stats {
  double value_err = 0;  // max |kernel - ref| / (tol * denominator)
  long value_checks = 0;
  FdStats kernel_fd, reference_fd;
};
std::map<std::string, Stats>& stats() {
  static std::map<std::string, Stats> s;
  return s;
}

// Checks one output against the reference; returns the error in units of the tolerance.
double checkValue(const Entry& e, const Point& p, std::size_t o, double got, LD ref, LD scale) {
  if (std::isnan(static_cast<double>(ref))) {
    EXPECT_TRUE(std::isnan(got)) << show(e, p) << " output " << o << ": got " << fmt(got) << ", want NaN";
    return 0;
  }
  if (std::isinf(ref)) {
    EXPECT_EQ(got, static_cast<double>(ref)) << show(e, p) << " output " << o;
    return 0;
  }
  LD denom = std::max({std::fabs(ref), LD(e.floor), scale});
  LD err = std::fabs(LD(got) - ref) / (LD(e.tol) * denom);
  EXPECT_LE(static_cast<double>(err), 1.0)
      << show(e, p) << " output " << o << ": kernel " << fmt(got) << ", reference "
      << fmt(static_cast<double>(ref)) << ", |diff| = " << static_cast<double>(std::fabs(LD(got) - ref))
      << " > " << e.tol << " * " << static_cast<double>(denom) << (e.tol_note.empty() ? "" : " [" + e.tol_note + "]");
  ++stats()[e.name].value_checks;
  return static_cast<double>(err);
}

double checkAgainstReference(const Entry& e, const Point& p) {
  std::vector<double> got = e.value(p);
  std::vector<LD> ref = e.reference(p);
  std::vector<LD> scale = e.scale ? e.scale(p) : std::vector<LD>(ref.size(), 0);
  EXPECT_EQ(got.size(), ref.size()) << show(e, p);
  double worst = 0;
  for (std::size_t o = 0; o < std::min(got.size(), ref.size()); ++o)
    worst = std::max(worst, checkValue(e, p, o, got[o], ref[o], scale[o]));
  return worst;
}

bool isDensity(const Entry& e) { return e.kind == Kind::Density || e.kind == Kind::MultiDensity; }
bool differentiated(const ArgSpec& a) { return !a.is_int && a.fd != Fd::None; }

std::vector<double> makeSeed(const Entry& e, std::size_t outputs, Rng& g) {
  if (isDensity(e)) return {g.uni(0.5, 2.0)};
  std::vector<double> s(outputs);
  for (auto& x : s) x = g.uni(0.5, 1.5) * (g.integer(0, 1) ? 1 : -1);
  return s;
}

double stepScale(Step s, double x) {
  switch (s) {
    case Step::Abs:
      return std::max(1.0, std::fabs(x));
    case Step::Rel:
      return std::fabs(x);
    case Step::Unit:
      return std::min(x, 1.0 - x);
  }
  return 1.0;
}

double ulp(double x) {
  x = std::fabs(x);
  return std::nextafter(x, kInf) - x;
}
// (within a factor 2)
LD ulp(LD x) { return std::fabs(x) * std::numeric_limits<LD>::epsilon(); }
HP ulp(const HP& x) { return HP(abs(x) * std::numeric_limits<HP>::epsilon()); }

struct FdEstimate {
  double value;
  double noise;
};

// What is differenced: the kernel itself (double), or the reference (long double, or 50 digits
// when the entry has reference_hp: it resolves derivatives that are tiny beside the function
// value, e.g. 1 - tanh(x)^2 at x = 9, which no double difference can).
enum class Source { Kernel, Reference };

// Richardson-extrapolated, per-output central difference along `dir` in argument `a` (see the
// header comment), with its rounding-noise estimate.
template <class T, class Eval>
FdEstimate finiteDifference(Eval eval, const Point& p, std::size_t a,
                            const std::vector<std::pair<std::size_t, double>>& dir, const std::vector<double>& seed,
                            const std::vector<bool>& dependent, double h) {
  const std::vector<T> f0 = eval(p);
  auto at = [&](double t) {
    Point q = p;
    for (auto [j, c] : dir) q[a].r[j] += t * c;
    return eval(q);
  };
  T D[3], N[3];
  for (int k = 0; k < 3; ++k) {
    const double hk = k == 0 ? h : (k == 1 ? h / 2 : h / 4);
    std::vector<T> fp = at(hk), fm = at(-hk);
    T d = 0, nz = 0;
    for (std::size_t o = 0; o < f0.size(); ++o) {
      using std::fabs;
      d += seed[o] * T(fp[o] - fm[o]);
      if (dependent[o]) nz += std::fabs(seed[o]) * ulp(std::max({T(fabs(fp[o])), T(fabs(fm[o])), T(fabs(f0[o]))}));
    }
    D[k] = d / (2 * hk);
    N[k] = nz / hk;
  }
  return {static_cast<double>((64 * D[2] - 20 * D[1] + D[0]) / 45),
          static_cast<double>(16 * (64 * N[2] + 20 * N[1] + N[0]) / 45)};
}

// One finite-difference probe: direction (element index, coefficient) within argument `arg`, and
// the analytic directional derivative.
struct Probe {
  std::size_t arg;
  std::vector<std::pair<std::size_t, double>> dir;
  double analytic;
  std::string label;
};

std::vector<Probe> probesFor(const Entry& e, std::size_t a, const Point& p, const std::vector<double>& g) {
  std::vector<Probe> out;
  const ArgSpec& s = e.args[a];
  const std::size_t n = p[a].r.size();
  auto k = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(n))));
  switch (s.fd) {
    case Fd::None:
      break;
    case Fd::Coord:
      for (std::size_t j = 0; j < n; ++j) out.push_back({a, {{j, 1.0}}, g[j], s.name + "[" + std::to_string(j) + "]"});
      break;
    case Fd::Symmetric:
      for (std::size_t j = 0; j < k; ++j)
        for (std::size_t i = j; i < k; ++i) {
          std::string l = s.name + "(" + std::to_string(i) + "," + std::to_string(j) + ")";
          if (i == j)
            out.push_back({a, {{i + j * k, 1.0}}, g[i + j * k], l});
          else
            out.push_back({a, {{i + j * k, 1.0}, {j + i * k, 1.0}}, g[i + j * k] + g[j + i * k], l + "+sym"});
        }
      break;
    case Fd::Lower:
      for (std::size_t j = 0; j < k; ++j)
        for (std::size_t i = j; i < k; ++i)
          out.push_back({a, {{i + j * k, 1.0}}, g[i + j * k],
                         s.name + "(" + std::to_string(i) + "," + std::to_string(j) + ")"});
      break;
    case Fd::Simplex:
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
          out.push_back({a, {{i, 1.0}, {j, -1.0}}, g[i] - g[j],
                         s.name + "[" + std::to_string(i) + "]-" + s.name + "[" + std::to_string(j) + "]"});
      break;
  }
  return out;
}

double relErr(double g, double fd) {
  if (g == fd) return 0;
  return std::fabs(g - fd) / std::max(std::fabs(g), std::fabs(fd));
}

struct GradResult {
  std::vector<std::vector<double>> g;
  std::optional<double> ret;
};

// Calls e.grad with buffers for the arguments in `want` (initial contents `init`, or zeros).
GradResult callGrad(const Entry& e, const Point& p, const std::vector<double>& seed, const std::vector<bool>& want,
                    const std::vector<std::vector<double>>* init = nullptr) {
  GradResult r;
  r.g.resize(e.args.size());
  Grads ptrs(e.args.size(), nullptr);
  for (std::size_t a = 0; a < e.args.size(); ++a) {
    if (!want[a]) continue;
    r.g[a] = init ? (*init)[a] : std::vector<double>(p[a].r.size(), 0.0);
    ptrs[a] = r.g[a].data();
  }
  r.ret = e.grad(p, seed, ptrs);
  return r;
}

std::vector<bool> allReal(const Entry& e) {
  std::vector<bool> w(e.args.size());
  for (std::size_t a = 0; a < e.args.size(); ++a) w[a] = !e.args[a].is_int;
  return w;
}

std::vector<std::size_t> indicesWhere(bool (*pred)(const Entry&)) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < kernelCases().size(); ++i)
    if (pred(kernelCases()[i])) out.push_back(i);
  return out;
}
bool any(const Entry&) { return true; }
bool hasGrad(const Entry& e) { return static_cast<bool>(e.grad); }
bool vectorisedDensity(const Entry& e) { return e.kind == Kind::Density; }
bool density(const Entry& e) { return isDensity(e); }

std::string paramName(const testing::TestParamInfo<std::size_t>& info) { return kernelCases()[info.param].name; }

class KernelTest : public testing::TestWithParam<std::size_t> {
 protected:
  const Entry& entry() const { return kernelCases()[GetParam()]; }
};

// ---- values -------------------------------------------------------------------------------------

class KernelValue : public KernelTest {};

TEST_P(KernelValue, RandomPoints) {
  const Entry& e = entry();
  Rng g(seedOf(e.name, 1));
  double worst = 0;
  for (int t = 0; t < kRandomPoints; ++t) {
    Point p = e.random(g);
    worst = std::max(worst, checkAgainstReference(e, p));
    for (double v : e.value(p)) EXPECT_FALSE(std::isnan(v)) << show(e, p);
  }
  stats()[e.name].value_err = std::max(stats()[e.name].value_err, worst);
}

TEST_P(KernelValue, EdgePoints) {
  const Entry& e = entry();
  double worst = 0;
  for (const Point& p : e.edges) {
    worst = std::max(worst, checkAgainstReference(e, p));
    if (!isDensity(e)) continue;
    double v = e.value(p)[0];
    EXPECT_FALSE(std::isnan(v)) << show(e, p);
    GradResult r = callGrad(e, p, {1.0}, allReal(e));
    ASSERT_TRUE(r.ret.has_value());
    EXPECT_EQ(*r.ret, v) << show(e, p) << ": _grad returns a different value";
    for (std::size_t a = 0; a < e.args.size(); ++a)
      for (std::size_t j = 0; j < r.g[a].size(); ++j)
        EXPECT_FALSE(std::isnan(r.g[a][j])) << show(e, p) << ": NaN gradient " << e.args[a].name << "[" << j << "]";
  }
  stats()[e.name].value_err = std::max(stats()[e.name].value_err, worst);
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelValue, testing::ValuesIn(indicesWhere(any)), paramName);

// ---- gradients ----------------------------------------------------------------------------------

class KernelGradient : public KernelTest {};

TEST_P(KernelGradient, FiniteDifferences) {
  const Entry& e = entry();
  Rng g(seedOf(e.name, 2));
  Stats& st = stats()[e.name];
  for (int t = 0; t < kGradPoints; ++t) {
    Point p = e.random(g);
    std::vector<double> out = e.value(p);
    std::vector<double> seed = makeSeed(e, out.size(), g);
    std::vector<bool> want(e.args.size());
    for (std::size_t a = 0; a < e.args.size(); ++a) want[a] = differentiated(e.args[a]);
    GradResult r = callGrad(e, p, seed, want);
    if (r.ret) {
      EXPECT_EQ(*r.ret, out[0]) << show(e, p) << ": _grad returns a different value";
    }
    // The Jacobian rows (unit adjoint on each output), for a multi-output function.
    std::vector<GradResult> jac;
    if (out.size() > 1)
      for (std::size_t o = 0; o < out.size(); ++o) {
        std::vector<double> unit(out.size(), 0.0);
        unit[o] = 1.0;
        jac.push_back(callGrad(e, p, unit, want));
      }
    for (std::size_t a = 0; a < e.args.size(); ++a) {
      if (!want[a]) continue;
      for (std::size_t j = 0; j < r.g[a].size(); ++j)
        ASSERT_FALSE(std::isnan(r.g[a][j])) << show(e, p) << ": NaN gradient " << e.args[a].name << "[" << j << "]";
      const std::size_t n = p[a].r.size();
      auto k = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(n))));
      if (e.args[a].fd == Fd::Lower) {  // the strict upper triangle is never written
        for (std::size_t j = 0; j < k; ++j)
          for (std::size_t i = 0; i < j; ++i)
            EXPECT_EQ(r.g[a][i + j * k], 0.0) << show(e, p) << ": upper-triangle gradient written";
      }
      if (e.args[a].fd == Fd::Symmetric) {  // the full-matrix gradient is symmetric
        double gmax = 0;
        for (double v : r.g[a]) gmax = std::max(gmax, std::fabs(v));
        for (std::size_t j = 0; j < k; ++j)
          for (std::size_t i = 0; i < j; ++i)
            EXPECT_LE(std::fabs(r.g[a][i + j * k] - r.g[a][j + i * k]), 1e-12 * gmax) << show(e, p);
      }
      for (Source src : {Source::Kernel, Source::Reference}) {
        // The reference has no simplex check: it is differenced coordinate-wise (the gradient with
        // the theta_i as independent coordinates), the kernel along the simplex.
        std::vector<Probe> probes = probesFor(e, a, p, r.g[a]);
        if (src == Source::Reference && e.args[a].fd == Fd::Simplex) {
          probes.clear();
          for (std::size_t j = 0; j < n; ++j)
            probes.push_back({a, {{j, 1.0}}, r.g[a][j], e.args[a].name + "[" + std::to_string(j) + "]"});
        }
        for (const Probe& pr : probes) {
          double h = kInf;
          for (auto [j, c] : pr.dir) h = std::min(h, kFdStep * stepScale(e.args[a].step, p[a].r[j]));
          if (e.args[a].fd == Fd::Simplex && pr.dir.size() == 2)
            h = std::min(h, kFdStep * std::min(p[a].r[pr.dir[0].first], p[a].r[pr.dir[1].first]));
          if (e.args[a].fd == Fd::Simplex && pr.dir.size() == 1) h = kFdStep * p[a].r[pr.dir[0].first];
          h = std::ldexp(1.0, std::ilogb(h));  // a power of two: x +- h/2^i are (nearly always) exact
          // Which outputs depend on this direction (analytically).
          std::vector<bool> dependent(out.size());
          for (std::size_t o = 0; o < out.size(); ++o) {
            double dd = 0;
            for (auto [j, c] : pr.dir) dd += c * (out.size() == 1 ? r.g[a][j] : jac[o].g[a][j]);
            dependent[o] = dd != 0;
          }
          FdEstimate fd = src == Source::Kernel ? finiteDifference<double>(e.value, p, a, pr.dir, seed, dependent, h)
                          : e.reference_hp ? finiteDifference<HP>(e.reference_hp, p, a, pr.dir, seed, dependent, h)
                                           : finiteDifference<LD>(e.reference, p, a, pr.dir, seed, dependent, h);
          const double scale = std::max(std::fabs(pr.analytic), std::fabs(fd.value));
          const double diff = std::fabs(pr.analytic - fd.value);
          FdStats& fs = src == Source::Kernel ? st.kernel_fd : st.reference_fd;
          if (src == Source::Reference) {
            EXPECT_LE(fd.noise, 0.1 * kFdTol * scale)
                << show(e, p) << " d/d" << pr.label << ": the reference difference does not resolve the derivative "
                << fmt(pr.analytic) << " (rounding noise " << fd.noise << ")";
          }
          ++fs.probes;
          if (fd.noise > 0.1 * kFdTol * scale)
            ++fs.noise_limited;
          else
            fs.worst = std::max(fs.worst, relErr(pr.analytic, fd.value));
          EXPECT_LE(diff, kFdTol * scale + fd.noise)
              << show(e, p) << " d/d" << pr.label << ": kernel gradient " << fmt(pr.analytic)
              << ", finite difference of the " << (src == Source::Kernel ? "kernel " : "reference ")
              << fmt(fd.value) << " (relative error " << relErr(pr.analytic, fd.value) << ", rounding noise "
              << fd.noise << ", seed[0] = " << seed[0] << ")";
        }
      }
    }
  }

}

TEST_P(KernelGradient, NullAndPartialPointers) {
  const Entry& e = entry();
  Rng g(seedOf(e.name, 3));
  for (int t = 0; t < 5; ++t) {
    Point p = e.random(g);
    std::vector<double> out = e.value(p);
    std::vector<double> seed = makeSeed(e, out.size(), g);
    GradResult full = callGrad(e, p, seed, allReal(e));
    bool all_nullable = true;
    for (const ArgSpec& a : e.args) all_nullable &= a.is_int || a.nullable;
    if (all_nullable) {
      GradResult none = callGrad(e, p, seed, std::vector<bool>(e.args.size(), false));
      if (none.ret) {
        EXPECT_EQ(*none.ret, out[0]) << show(e, p) << ": value with all-null gradient pointers";
      }
      if (full.ret) {
        EXPECT_EQ(*full.ret, out[0]) << show(e, p);
      }
      for (std::size_t a = 0; a < e.args.size(); ++a) {
        if (e.args[a].is_int) continue;
        std::vector<bool> only(e.args.size(), false);
        only[a] = true;
        GradResult one = callGrad(e, p, seed, only);
        if (one.ret) {
          EXPECT_EQ(*one.ret, out[0]) << show(e, p);
        }
        EXPECT_EQ(one.g[a], full.g[a]) << show(e, p) << ": gradient of " << e.args[a].name
                                       << " differs when the other pointers are null";
      }
    }
  }
}

// |x - want| <= tol * |scale| for every component.
void expectClose(const Entry& e, const Point& p, const std::vector<std::vector<double>>& got,
                 const std::vector<std::vector<double>>& want, const std::vector<std::vector<double>>& scale,
                 double tol, const char* what) {
  for (std::size_t a = 0; a < got.size(); ++a)
    for (std::size_t j = 0; j < got[a].size(); ++j)
      EXPECT_LE(std::fabs(got[a][j] - want[a][j]), tol * std::fabs(scale[a][j]))
          << show(e, p) << " " << what << ": " << e.args[a].name << "[" << j << "] = " << fmt(got[a][j])
          << ", want " << fmt(want[a][j]);
}

TEST_P(KernelGradient, AccumulationAndScaling) {
  const Entry& e = entry();
  Rng g(seedOf(e.name, 4));
  // Accumulating sums of several terms (matmul, categorical_logit) round a little differently
  // when the buffer is not zero: 1e-13 relative to the magnitude involved.
  const double tol = 1e-13;
  for (int t = 0; t < 5; ++t) {
    Point p = e.random(g);
    std::vector<double> out = e.value(p);
    std::vector<double> seed = makeSeed(e, out.size(), g);
    std::vector<bool> want = allReal(e);
    GradResult once = callGrad(e, p, seed, want);
    // Twice into the same buffers: doubled.
    std::vector<std::vector<double>> twice = once.g;
    {
      Grads ptrs(e.args.size(), nullptr);
      for (std::size_t a = 0; a < e.args.size(); ++a)
        if (want[a]) ptrs[a] = twice[a].data();
      e.grad(p, seed, ptrs);
    }
    std::vector<std::vector<double>> doubled = once.g;
    for (auto& v : doubled)
      for (auto& x : v) x *= 2;
    expectClose(e, p, twice, doubled, doubled, tol, "called twice");
    // Into a pre-filled buffer: added, not overwritten.
    std::vector<std::vector<double>> init(e.args.size());
    for (std::size_t a = 0; a < e.args.size(); ++a)
      for (std::size_t j = 0; j < p[a].r.size(); ++j) init[a].push_back(g.uni(-3, 3));
    GradResult pre = callGrad(e, p, seed, want, &init);
    std::vector<std::vector<double>> sum = init, mag = init;
    for (std::size_t a = 0; a < e.args.size(); ++a)
      for (std::size_t j = 0; j < sum[a].size(); ++j) {
        sum[a][j] += once.g[a][j];
        mag[a][j] = std::fabs(init[a][j]) + std::fabs(once.g[a][j]);
      }
    expectClose(e, p, pre.g, sum, mag, tol, "into a pre-filled buffer");
    // adj / g_out scaled by 4: gradients scaled by 4, value unchanged. A power of two scales
    // every product exactly, so a sum with cancellation (a dot product of a matvec's gradient)
    // is not judged against its result's magnitude for rounding its terms differently.
    std::vector<double> seed2 = seed;
    for (auto& s : seed2) s *= 4.0;
    GradResult scaled = callGrad(e, p, seed2, want);
    if (scaled.ret) {
      EXPECT_EQ(*scaled.ret, out[0]) << show(e, p);
    }
    std::vector<std::vector<double>> times = once.g;
    for (auto& v : times)
      for (auto& x : v) x *= 4.0;
    expectClose(e, p, scaled.g, times, times, tol, "adjoint scaled by 4");
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelGradient, testing::ValuesIn(indicesWhere(hasGrad)), paramName);

// ---- vectorisation (univariate densities) -------------------------------------------------------

class KernelVectorised : public KernelTest {};

// The length-n point whose element t is pts[t] for the vector arguments, pts[0] for the others.
Point stack(const Entry& e, const std::vector<Point>& pts, const Strides& s) {
  Point v = pts[0];
  for (std::size_t a = 0; a < e.args.size(); ++a) {
    if (s[a] == 0) continue;
    v[a].r.clear();
    v[a].i.clear();
    for (const Point& q : pts) {
      v[a].r.insert(v[a].r.end(), q[a].r.begin(), q[a].r.end());
      v[a].i.insert(v[a].i.end(), q[a].i.begin(), q[a].i.end());
    }
  }
  return v;
}

TEST_P(KernelVectorised, SumOfScalars) {
  const Entry& e = entry();
  Rng g(seedOf(e.name, 5));
  std::vector<std::size_t> vec;
  for (std::size_t a = 0; a < e.args.size(); ++a)
    if (e.args[a].vectorisable) vec.push_back(a);
  EXPECT_EQ(e.vvalue(0, e.random(g), Strides(e.args.size(), 1)), 0.0) << "n = 0 must give 0";
  for (int rep = 0; rep < 3; ++rep) {
    std::vector<Point> pts;
    for (int t = 0; t < kVecLen; ++t) pts.push_back(e.random(g));
    const double adj = g.uni(0.5, 2.0);
    for (uint32_t mask = 0; mask < (1u << vec.size()); ++mask) {
      Strides s(e.args.size(), 0);
      for (std::size_t b = 0; b < vec.size(); ++b) s[vec[b]] = (mask >> b) & 1u;
      // The scalar points actually represented: broadcast arguments come from pts[0].
      std::vector<Point> q = pts;
      for (std::size_t a = 0; a < e.args.size(); ++a)
        if (s[a] == 0)
          for (auto& x : q) x[a] = pts[0][a];
      Point V = stack(e, q, s);
      double want = 0, mag = 0;
      std::vector<std::vector<double>> gwant(e.args.size()), gmag(e.args.size());
      for (std::size_t a = 0; a < e.args.size(); ++a) {
        if (e.args[a].is_int) continue;
        gwant[a].assign(V[a].r.size(), 0.0);
        gmag[a].assign(V[a].r.size(), 0.0);
      }
      for (int t = 0; t < kVecLen; ++t) {
        double v = e.value(q[t])[0];
        want += v;
        mag += std::fabs(v);
        GradResult r = callGrad(e, q[t], {adj}, allReal(e));
        for (std::size_t a = 0; a < e.args.size(); ++a)
          for (std::size_t j = 0; j < r.g[a].size(); ++j) {
            std::size_t at = s[a] ? t * r.g[a].size() + j : j;
            gwant[a][at] += r.g[a][j];
            gmag[a][at] += std::fabs(r.g[a][j]);
          }
      }
      std::string where = show(e, V) + " strides";
      for (auto x : s) where += " " + std::to_string(x);
      double got = e.vvalue(kVecLen, V, s);
      EXPECT_LE(std::fabs(got - want), 1e-14 * mag) << where << ": " << fmt(got) << " vs sum " << fmt(want);
      std::vector<std::vector<double>> gg(e.args.size());
      Grads ptrs(e.args.size(), nullptr);
      for (std::size_t a = 0; a < e.args.size(); ++a)
        if (!e.args[a].is_int) {
          gg[a].assign(V[a].r.size(), 0.0);
          ptrs[a] = gg[a].data();
        }
      double gotg = e.vgrad(adj, kVecLen, V, s, ptrs);
      EXPECT_EQ(gotg, got) << where << ": _grad returns a different value";
      for (std::size_t a = 0; a < e.args.size(); ++a)
        for (std::size_t j = 0; j < gg[a].size(); ++j)
          EXPECT_LE(std::fabs(gg[a][j] - gwant[a][j]), 1e-14 * gmag[a][j])
              << where << ": gradient " << e.args[a].name << "[" << j << "] " << fmt(gg[a][j]) << " vs sum "
              << fmt(gwant[a][j]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelVectorised, testing::ValuesIn(indicesWhere(vectorisedDensity)),
                         paramName);

// ---- support (densities) ----------------------------------------------------------------------------

class KernelSupport : public KernelTest {};

// The entry's out-of-support points plus, from a valid point, NaN / +Inf / -Inf in each element of
// each real argument that the kernel reads (the strict upper triangle of a Cholesky factor is not
// read).
std::vector<Point> outsidePoints(const Entry& e, Rng& g) {
  std::vector<Point> pts = e.outside;
  Point base = e.random(g);
  for (std::size_t a = 0; a < e.args.size(); ++a) {
    if (e.args[a].is_int) continue;
    const std::size_t n = base[a].r.size();
    auto k = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(n))));
    for (std::size_t j = 0; j < n; ++j) {
      if (e.args[a].fd == Fd::Lower && j % k < j / k) continue;
      for (double bad : {kNaN, kInf, -kInf}) {
        Point q = base;
        q[a].r[j] = bad;
        pts.push_back(q);
      }
    }
  }
  return pts;
}

TEST_P(KernelSupport, OutsideIsNegativeInfinity) {
  const Entry& e = entry();
  Rng g(seedOf(e.name, 6));
  for (const Point& p : outsidePoints(e, g)) {
    double v = e.value(p)[0];
    EXPECT_FALSE(std::isnan(v)) << show(e, p);
    EXPECT_EQ(v, -kInf) << show(e, p);
    GradResult r = callGrad(e, p, {1.0}, allReal(e));
    ASSERT_TRUE(r.ret.has_value());
    EXPECT_EQ(*r.ret, -kInf) << show(e, p) << " (_grad)";
    if (e.kind != Kind::Density) continue;
    // One bad element among valid ones, all arguments as vectors.
    std::vector<Point> pts;
    for (int t = 0; t < kVecLen; ++t) pts.push_back(t == 2 ? p : e.random(g));
    Strides s(e.args.size(), 0);
    for (std::size_t a = 0; a < e.args.size(); ++a) s[a] = e.args[a].vectorisable ? 1 : 0;
    for (std::size_t a = 0; a < e.args.size(); ++a)
      if (!e.args[a].vectorisable)  // a shared argument (the categorical logits): from the bad point
        for (auto& q : pts) q[a] = p[a];
    Point V = stack(e, pts, s);
    EXPECT_EQ(e.vvalue(kVecLen, V, s), -kInf) << show(e, V);
    std::vector<std::vector<double>> gg(e.args.size());
    Grads ptrs(e.args.size(), nullptr);
    for (std::size_t a = 0; a < e.args.size(); ++a)
      if (!e.args[a].is_int) {
        gg[a].assign(V[a].r.size(), 0.0);
        ptrs[a] = gg[a].data();
      }
    EXPECT_EQ(e.vgrad(1.0, kVecLen, V, s, ptrs), -kInf) << show(e, V) << " (_grad)";
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelSupport, testing::ValuesIn(indicesWhere(density)), paramName);

// ---- coverage ---------------------------------------------------------------------------------------

const std::vector<std::string>& defSymbols() {
  static const std::vector<std::string> v = {
#define PVI_KERNEL(symbol) #symbol,
#include "stdlib/kernels/kernels.def"
#undef PVI_KERNEL
  };
  return v;
}

std::set<std::string> testedSymbols() {
  std::set<std::string> s;
  for (const Entry& e : kernelCases()) s.insert(e.symbols.begin(), e.symbols.end());
  return s;
}

TEST(KernelCoverage, EveryTableSymbolHasATestEntry) {
  std::set<std::string> tested = testedSymbols();
  std::set<std::string> table;
  std::size_t n = 0;
  for (const pvi_kernel_entry* k = pvi_kernel_table; k->name; ++k, ++n) {
    table.insert(k->name);
    EXPECT_NE(k->address, nullptr) << k->name;
    EXPECT_TRUE(tested.count(k->name)) << k->name << " is in pvi_kernel_table but no test entry covers it";
  }
  EXPECT_EQ(n, defSymbols().size()) << "pvi_kernel_table and kernels.def differ in length";
  EXPECT_EQ(table.size(), n) << "pvi_kernel_table lists a symbol twice";
  for (const std::string& s : defSymbols()) EXPECT_TRUE(table.count(s)) << s << " from kernels.def is not in the table";
  for (const std::string& s : tested)
    EXPECT_TRUE(table.count(s)) << "the test table names " << s << ", which is not a kernel symbol";
}

// kernels.def must list every function declared in kernels.h (so that the JIT table and the
// coverage above are complete).
TEST(KernelCoverage, KernelsDefMatchesKernelsH) {
  std::ifstream in(std::string(PVI_SOURCE_DIR) + "/stdlib/kernels/kernels.h");
  ASSERT_TRUE(in) << "cannot read kernels.h";
  std::set<std::string> declared;
  std::regex decl(R"(^\s*(?:double|void)\s+(pvi_[a-z0-9_]+)\s*\()"), unary(R"(^PVI_UNARY\((\w+)\))");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, decl)) declared.insert(m[1]);
    if (std::regex_search(line, m, unary)) {
      declared.insert("pvi_" + m[1].str());
      declared.insert("pvi_" + m[1].str() + "_grad");
    }
  }
  std::set<std::string> def(defSymbols().begin(), defSymbols().end());
  EXPECT_EQ(def.size(), defSymbols().size()) << "kernels.def lists a symbol twice";
  for (const auto& s : declared) EXPECT_TRUE(def.count(s)) << s << " is declared in kernels.h but not in kernels.def";
  for (const auto& s : def) EXPECT_TRUE(declared.count(s)) << s << " is in kernels.def but not declared in kernels.h";
  EXPECT_GT(declared.size(), 90u);
}

// Prints how close every entry came to its bounds (value error in units of its tolerance, worst
// relative finite-difference error).
class StatsPrinter : public testing::EmptyTestEventListener {
  void OnTestProgramEnd(const testing::UnitTest&) override {
    if (stats().empty()) return;
    std::printf("\n%-22s %10s | %-33s | %-33s\n", "", "value", "FD of the kernel", "FD of the reference");
    std::printf("%-22s %10s | %10s %10s %11s | %10s %10s %11s\n", "kernel", "err/tol", "max rel", "probes",
                "unresolved", "max rel", "probes", "unresolved");
    long probes = 0, values = 0;
    for (const auto& [name, s] : stats()) {
      std::printf("%-22s %10.2g | %10.2g %10ld %11ld | %10.2g %10ld %11ld\n", name.c_str(), s.value_err,
                  s.kernel_fd.worst, s.kernel_fd.probes, s.kernel_fd.noise_limited, s.reference_fd.worst,
                  s.reference_fd.probes, s.reference_fd.noise_limited);
      probes += s.kernel_fd.probes + s.reference_fd.probes;
      values += s.value_checks;
    }
    std::printf("%ld reference value comparisons, %ld finite-difference comparisons in all\n", values, probes);
  }
};
const bool kStatsRegistered = [] {
  testing::UnitTest::GetInstance()->listeners().Append(new StatsPrinter);
  return true;
}();

}  // namespace
