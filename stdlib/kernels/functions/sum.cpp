// sum(x). Its gradient (g_x[i] += g_out) needs no kernel.
#include "stdlib/kernels/kernel_support.hpp"

// Four independent partial sums: vectorisable without reassociation flags, and a smaller
// rounding error than one running sum.
extern "C" double pvi_sum(int64_t n, const double* x) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i];
    s1 += x[i + 1];
    s2 += x[i + 2];
    s3 += x[i + 3];
  }
  for (; i < n; ++i) s0 += x[i];
  return (s0 + s1) + (s2 + s3);
}
