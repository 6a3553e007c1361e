#pragma once
// The rng kernels' view of pvi_rng: a uniform random bit generator for Boost.Random's
// distributions (not part of the C interface).
#include <boost/random/gamma_distribution.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "stdlib/kernels/kernel_support.hpp"
#include "stdlib/kernels/rng/rng.h"

namespace pvi::kern {

class Engine {
 public:
  using result_type = uint64_t;
  explicit Engine(pvi_rng* state) : state_(state) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }
  result_type operator()() { return pvi_rng_next(state_); }

  // Uniform on (0, 1): never 0 or 1 (53 random bits, offset by half a step).
  double open01() { return (static_cast<double>((*this)() >> 11) + 0.5) * 0x1.0p-53; }

 private:
  pvi_rng* state_;
};

// log of a gamma(alpha, 1) draw, without underflow for small alpha: for alpha < 1,
// G(alpha) = G(alpha + 1) U^(1 / alpha) (Marsaglia and Tsang), taken in logs.
inline double logGammaDraw(Engine& e, double alpha) {
  if (alpha >= 1.0) return std::log(boost::random::gamma_distribution<double>(alpha)(e));
  double g = boost::random::gamma_distribution<double>(alpha + 1.0)(e);
  return std::log(g) + std::log(e.open01()) / alpha;
}

// Runs draw(i) for i = 0 .. n-1 while valid(i) holds; the kernels' return convention (0, or
// 1 + the first element with arguments outside the domain).
template <class Valid, class Draw>
int64_t drawEach(int64_t n, Valid valid, Draw draw) {
  for (int64_t i = 0; i < n; ++i) {
    if (!valid(i)) return i + 1;
    draw(i);
  }
  return 0;
}

}  // namespace pvi::kern
