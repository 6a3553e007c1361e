#pragma once
// The autocovariance of one chain at every lag, by FFT (posterior's autocovariance).
#include <Eigen/Core>

namespace pvi::diagnostics {

// gamma_t = (1/n) sum_{i=0}^{n-1-t} (x_i - xbar)(x_{i+t} - xbar) for t = 0..n-1 (the biased
// estimate, so gamma_0 = var(x) (n - 1) / n), from |FFT|^2 of the centred chain zero-padded to
// 2m, m >= n with no prime factor above 5 (no circular wrap-around): O(n log n). All zero for a
// constant chain.
Eigen::VectorXd autocovariance(const Eigen::Ref<const Eigen::VectorXd>& chain);

}  // namespace pvi::diagnostics
