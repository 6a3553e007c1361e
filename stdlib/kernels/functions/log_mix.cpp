// log_mix(theta, lp1, lp2) = log(theta exp(lp1) + (1 - theta) exp(lp2)): value and gradient.
#include <cmath>

#include "stdlib/kernels/kernel_support.hpp"

using namespace pvi::kern;

// log_sum_exp(log(theta) + lp1, log1p(-theta) + lp2); NaN when theta is outside [0, 1].
extern "C" double pvi_log_mix(double theta, double lp1, double lp2) {
  if (!inUnit(theta)) return NAN;
  return pvi_log_sum_exp2(std::log(theta) + lp1, std::log1p(-theta) + lp2);
}

// With w1 = theta exp(lp1 - out), w2 = (1 - theta) exp(lp2 - out) (w1 + w2 = 1):
// d/dlp1 = w1, d/dlp2 = w2, d/dtheta = exp(lp1 - out) - exp(lp2 - out).
extern "C" void pvi_log_mix_grad(double theta, double lp1, double lp2, double out, double g_out, double* g_theta,
                                 double* g_lp1, double* g_lp2) {
  double a = std::log(theta) + lp1, b = std::log1p(-theta) + lp2;
  if (g_lp1 || g_lp2) {
    double w1 = a == b ? 0.5 : invLogit(a - b);
    double w2 = a == b ? 0.5 : invLogit(b - a);
    if (g_lp1) *g_lp1 += g_out * w1;
    if (g_lp2) *g_lp2 += g_out * w2;
  }
  if (g_theta) *g_theta += g_out * (std::exp(lp1 - out) - std::exp(lp2 - out));
}
