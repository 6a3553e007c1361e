#pragma once
// The generic kernel test machinery (in the spirit of Stan Math's generic distribution tests):
// every density and function of stdlib/kernels/kernels.h is described ONCE by an Entry in the
// table of kernel_cases.cpp (its argument kinds, a reference value function, generators of valid
// random points, edge points, out-of-support points), and ONE set of checks
// (kernel_checks_test.cpp) runs every entry through the same machinery.
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace pvt {

using LD = long double;
using HP = boost::multiprecision::cpp_bin_float_50;  // 50 decimal digits

// How the gradient of a real argument is checked by finite differences.
enum class Fd {
  None,       // not differentiated (data); no gradient pointer is passed
  Coord,      // every entry independently
  Symmetric,  // k x k symmetric matrix: entries (i, j) and (j, i) are perturbed together, so the
              // difference sees G_ij + G_ji; G must also be symmetric
  Lower,      // k x k lower-triangular factor: only entries i >= j are perturbed; the strict upper
              // triangle of the gradient must stay exactly 0
  Simplex,    // a point of the simplex: the density is only defined on it, so the kernel is
              // differenced along the tangent directions e_i - e_j (seeing G_i - G_j); the full
              // coordinate gradient is checked against differences of the reference formula
};

// The finite-difference step for an argument at value x: h = kFdStep * scale(x).
enum class Step {
  Abs,   // scale = max(1, |x|): unbounded arguments
  Rel,   // scale = |x|: positive arguments (stays inside (0, inf))
  Unit,  // scale = min(x, 1 - x): arguments in (0, 1)
};

struct ArgSpec {
  std::string name;
  bool is_int = false;
  bool vectorisable = true;  // densities: passed with a stride (0 broadcast, 1 vector)
  Fd fd = Fd::Coord;         // ints are always Fd::None
  Step step = Step::Abs;
  bool nullable = true;      // a null gradient pointer is allowed for this argument
};

// One argument's data: reals or ints.
struct Arg {
  std::vector<double> r;
  std::vector<int64_t> i;
};
using Point = std::vector<Arg>;

inline Arg R(double x) { return Arg{{x}, {}}; }
inline Arg I(int64_t x) { return Arg{{}, {x}}; }
inline Arg Rv(std::vector<double> x) { return Arg{std::move(x), {}}; }
inline Arg Iv(std::vector<int64_t> x) { return Arg{{}, std::move(x)}; }

enum class Kind {
  Density,       // vectorised univariate density: (n, x, s_x, ...) and its _grad
  MultiDensity,  // multivariate density (not vectorised)
  Function,      // a function (element-wise, scalar, reduction, vector, linear algebra)
};

struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  double uni(double a, double b) { return std::uniform_real_distribution<double>(a, b)(g); }
  double logUni(double a, double b) { return std::exp(uni(std::log(a), std::log(b))); }
  double normal() { return std::normal_distribution<double>(0.0, 1.0)(g); }
  int64_t integer(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(g); }
  // uniform on [a, b] but at least `gap` away from every integer (poles of lgamma / digamma)
  double uniAwayFromIntegers(double a, double b, double gap) {
    for (;;) {
      double x = uni(a, b);
      if (std::fabs(x - std::round(x)) >= gap) return x;
    }
  }
};

using Strides = std::vector<int64_t>;
using Grads = std::vector<double*>;  // one per argument, null for ints / not wanted

struct Entry {
  std::string name;
  Kind kind = Kind::Function;
  std::vector<std::string> symbols;  // the kernel symbols this entry covers (value and grad)
  std::vector<ArgSpec> args;

  // Kind::Density: the vectorised kernels. Each vectorisable argument holds n elements (stride 1)
  // or 1 (stride 0); a non-vectorisable one is passed whole.
  std::function<double(int64_t n, const Point&, const Strides&)> vvalue;
  std::function<double(double adj, int64_t n, const Point&, const Strides&, const Grads&)> vgrad;

  // Every kind: the outputs at a point (a density has one), and the gradient kernel called with
  // output adjoints `seed` (adj for a density, g_out for a function), accumulating into the
  // non-null pointers; it returns the value when the kernel returns one. Filled from
  // vvalue / vgrad (n = 1) for densities. `grad` is empty when there is no gradient kernel.
  std::function<std::vector<double>(const Point&)> value;
  std::function<std::optional<double>(const Point&, const std::vector<double>& seed, const Grads&)> grad;

  // The reference outputs, in long double (or higher precision where needed), independent of the
  // kernel: Boost.Math distributions, special functions, closed forms, Eigen products.
  std::function<std::vector<LD>(const Point&)> reference;
  // Optionally the same reference in 50 digits: then the finite differences of the reference are
  // taken in 50 digits (they resolve derivatives ~1e-30 beside values ~1, e.g. inv_logit at 40).
  std::function<std::vector<HP>(const Point&)> reference_hp;

  std::function<Point(Rng&)> random;  // a valid point; for densities, generators are product-form
                                      // (any mix of coordinates of valid points is valid)
  std::vector<Point> edges;           // extreme but valid points, compared to the reference
  std::vector<Point> outside;         // out-of-support points: the density must be exactly -INFINITY
                                      // (NaN / +-Inf versions of every real argument are added
                                      // automatically by the checks)

  // |kernel - reference| <= tol * max(|reference|, floor, scale), where `scale` (optional, per
  // output) is the magnitude of the summed terms for sums and products (sum |x_i|, sum |a_i b_i|):
  // a computed sum is accurate relative to that, not to its possibly cancelled result.
  // floor = 1 (the default, used by every density): a log density is a sum of terms of size
  // O(1) or more (log(sigma), log(2 pi)/2, lgamma(alpha), ...), so where the value crosses 0 only
  // absolute accuracy ~eps * (size of the terms) exists: the check is relative for |value| >= 1
  // and absolute (1e-12) below. Functions whose values are relatively accurate use floor 1e-300.
  std::function<std::vector<LD>(const Point&)> scale;
  double tol = 1e-12;
  double floor = 1.0;
  std::string tol_note;  // why, when tol or floor differ from the defaults
};

// The table (kernel_cases.cpp).
const std::vector<Entry>& kernelCases();

// ---- adapters from kernel signatures to Entry callables -------------------------------------

struct RealArg {};
struct IntArg {};

namespace detail {
template <class K>
auto argPack(const Arg& a, int64_t s) {
  if constexpr (std::is_same_v<K, RealArg>)
    return std::tuple<const double*, int64_t>(a.r.data(), s);
  else
    return std::tuple<const int64_t*, int64_t>(a.i.data(), s);
}
template <class K>
auto gradPack(double* g) {
  if constexpr (std::is_same_v<K, RealArg>)
    return std::tuple<double*>(g);
  else
    return std::tuple<>();
}
template <class... K, std::size_t... Is>
auto packArgs(const Point& p, const Strides& s, std::index_sequence<Is...>) {
  return std::tuple_cat(argPack<K>(p[Is], s[Is])...);
}
template <class... K, std::size_t... Is>
auto packGrads(const Grads& g, std::index_sequence<Is...>) {
  return std::tuple_cat(gradPack<K>(g[Is])...);
}
}  // namespace detail

// A vectorised density kernel pair with arguments of kinds K... (RealArg / IntArg).
template <class... K, class VF, class GF>
void setDensityKernels(Entry& e, VF vf, GF gf) {
  using Seq = std::index_sequence_for<K...>;
  e.vvalue = [vf](int64_t n, const Point& p, const Strides& s) {
    return std::apply(vf, std::tuple_cat(std::make_tuple(n), detail::packArgs<K...>(p, s, Seq{})));
  };
  e.vgrad = [gf](double adj, int64_t n, const Point& p, const Strides& s, const Grads& g) {
    return std::apply(gf, std::tuple_cat(std::make_tuple(adj, n), detail::packArgs<K...>(p, s, Seq{}),
                                         detail::packGrads<K...>(g, Seq{})));
  };
}

}  // namespace pvt
