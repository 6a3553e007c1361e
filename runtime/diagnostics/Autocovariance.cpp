#include "runtime/diagnostics/Autocovariance.hpp"

#include <algorithm>
#include <complex>
#include <unsupported/Eigen/FFT>
#include <vector>

#include "runtime/diagnostics/Moments.hpp"

namespace pvi::diagnostics {
namespace {

// The smallest m >= n with no prime factor above 5 (R's nextn, as posterior pads): FFT sizes
// that stay fast, and at most 25% above n where a power of two can be 100%.
std::size_t smoothSizeAtLeast(std::size_t n) {
  for (std::size_t m = std::max<std::size_t>(n, 1);; ++m) {
    std::size_t rest = m;
    for (const std::size_t p : {2, 3, 5})
      while (rest % p == 0) rest /= p;
    if (rest == 1) return m;
  }
}

}  // namespace

Eigen::VectorXd autocovariance(const Eigen::Ref<const Eigen::VectorXd>& chain) {
  const Eigen::Index n = chain.size();
  if (n == 0 || (chain.array() == chain[0]).all()) return Eigen::VectorXd::Zero(n);
  std::vector<double> centred(2 * smoothSizeAtLeast(static_cast<std::size_t>(n)), 0.0);
  const double xbar = mean(chain);
  for (Eigen::Index i = 0; i < n; ++i) centred[static_cast<std::size_t>(i)] = chain[i] - xbar;
  thread_local Eigen::FFT<double> fft;  // keeps its plans (twiddle factors) per size
  std::vector<std::complex<double>> spectrum;
  fft.fwd(spectrum, centred);
  for (std::complex<double>& f : spectrum) f = std::norm(f);
  std::vector<double> lagged;
  fft.inv(lagged, spectrum);
  // Scaled so that lag 0 is exactly the sum of squares over n (posterior scales by var(x) (n-1)/n).
  double sumOfSquares = 0.0;
  for (Eigen::Index i = 0; i < n; ++i)
    sumOfSquares += centred[static_cast<std::size_t>(i)] * centred[static_cast<std::size_t>(i)];
  const double scale = sumOfSquares / static_cast<double>(n) / lagged[0];
  Eigen::VectorXd gamma(n);
  for (Eigen::Index t = 0; t < n; ++t) gamma[t] = lagged[static_cast<std::size_t>(t)] * scale;
  return gamma;
}

}  // namespace pvi::diagnostics
