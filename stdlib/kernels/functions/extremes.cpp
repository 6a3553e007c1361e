// max(x) and min(x) of a container (Stan's; -inf and +inf for none, NaN if any element is NaN):
// value and gradient. The derivative goes to the first element that attains the extreme (a
// subgradient where several tie).
#include <cmath>
#include <limits>

#include "stdlib/kernels/kernel_support.hpp"

namespace {

// The index of the first extreme element (largest when `largest`), of the first NaN if any, or
// -1 for none.
int64_t extremeIndex(int64_t n, const double* x, bool largest) {
  int64_t best = -1;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) return i;
    if (best < 0 || (largest ? x[i] > x[best] : x[i] < x[best])) best = i;
  }
  return best;
}

double extreme(int64_t n, const double* x, bool largest) {
  const int64_t i = extremeIndex(n, x, largest);
  if (i < 0) return largest ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  return x[i];
}

void extremeGrad(int64_t n, const double* x, double g_out, double* g_x, bool largest) {
  const int64_t i = extremeIndex(n, x, largest);
  if (i >= 0) g_x[i] += g_out;
}

}  // namespace

extern "C" {
double pvi_max(int64_t n, const double* x) { return extreme(n, x, true); }
void pvi_max_grad(int64_t n, const double* x, double, double g_out, double* g_x) { extremeGrad(n, x, g_out, g_x, true); }
double pvi_min(int64_t n, const double* x) { return extreme(n, x, false); }
void pvi_min_grad(int64_t n, const double* x, double, double g_out, double* g_x) { extremeGrad(n, x, g_out, g_x, false); }
}
