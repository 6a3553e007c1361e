// The contiguous loops of simd_loops.hpp, compiled once per instruction-set level with that
// level's flags (stdlib/CMakeLists.txt: PVI_SIMD_LEVEL and -march). Everything here has internal
// linkage except the level's table, whose name carries the level: when one source is built for
// several targets, a shared inline or template function (std::max, an Eigen packet) would be
// merged by the linker and an AVX-512 copy could run on a CPU without it. So this file uses only
// builtins and its own static functions (tests/stdlib check the objects' symbols).
#include "stdlib/kernels/simd/simd_loops.hpp"

#include <cstdint>

#if !defined(PVI_SIMD_LEVEL)
#error "build simd_loops.cpp through stdlib/CMakeLists.txt, which names the level"
#endif

// glibc declares libmvec's vector variants of exp and log1p (_ZGVdN4v_exp, _ZGVeN8v_log1p, ...)
// only under -ffast-math; these declarations let the vectoriser call them without it (where
// stdlib/CMakeLists.txt found them: PVI_SIMD_LIBMVEC).
#if defined(PVI_SIMD_LIBMVEC) && defined(__GNUC__) && !defined(__clang__)
#define PVI_VECTOR_VARIANT __attribute__((simd("notinbranch"), const, nothrow))
#else
#define PVI_VECTOR_VARIANT
#endif
extern "C" double pvi_libm_exp(double) noexcept __asm__("exp") PVI_VECTOR_VARIANT;
extern "C" double pvi_libm_log1p(double) noexcept __asm__("log1p") PVI_VECTOR_VARIANT;

namespace {

constexpr double kInf = __builtin_inf();

// Eight elements per block: a loop of known length, which every level vectorises whole. A tail
// shorter than a block is copied into a padded block, so no element takes a scalar exp or log1p.
constexpr int64_t kBlock = 8;

// With s = 2y - 1: t = log p = min(s alpha, 0) - log1p(exp(-|alpha|)) and d = d/dalpha = s
// inv_logit(-s alpha) (the portable kernel's formulas, bernoulli_logit.cpp), for one block.
void bernoulliLogitBlock(const int64_t* __restrict__ y, const double* __restrict__ alpha, double* __restrict__ t,
                         double* __restrict__ d) {
#pragma omp simd
  for (int64_t k = 0; k < kBlock; ++k) {
    const double a = alpha[k], sa = y[k] == 1 ? a : -a;
    const double e = pvi_libm_exp(-__builtin_fabs(a));
    t[k] = (sa < 0.0 ? sa : 0.0) - pvi_libm_log1p(e);
    const double r = 1.0 / (1.0 + e);
    const double other = sa >= 0.0 ? e * r : r;  // inv_logit(-s alpha)
    d[k] = y[k] == 1 ? other : -other;
  }
}

// The sum is kept in eight lanes (lane k sums the elements k mod 8) and added up at the end, in
// the same order at every level (though each level's libmvec exp and log1p may differ in the
// last bit).
double bernoulliLogit(double adj, int64_t n, const int64_t* __restrict__ y, const double* __restrict__ alpha,
                      double* __restrict__ g) {
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    bad |= static_cast<int64_t>(!(__builtin_fabs(alpha[i]) < kInf)) | (y[i] & ~int64_t{1});
  if (bad != 0) return -kInf;
  double lanes[kBlock] = {0, 0, 0, 0, 0, 0, 0, 0}, t[kBlock], d[kBlock];
  const int64_t whole = n - n % kBlock;
  for (int64_t i = 0; i < whole; i += kBlock) {
    bernoulliLogitBlock(y + i, alpha + i, t, d);
    for (int64_t k = 0; k < kBlock; ++k) lanes[k] += t[k];
    if (g != nullptr)
      for (int64_t k = 0; k < kBlock; ++k) g[i + k] += adj * d[k];
  }
  if (whole < n) {
    int64_t yTail[kBlock] = {0, 0, 0, 0, 0, 0, 0, 0};
    double aTail[kBlock] = {0, 0, 0, 0, 0, 0, 0, 0};
    const int64_t rest = n - whole;
    for (int64_t k = 0; k < rest; ++k) {
      yTail[k] = y[whole + k];
      aTail[k] = alpha[whole + k];
    }
    bernoulliLogitBlock(yTail, aTail, t, d);
    for (int64_t k = 0; k < rest; ++k) lanes[k] += t[k];
    if (g != nullptr)
      for (int64_t k = 0; k < rest; ++k) g[whole + k] += adj * d[k];
  }
  return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}

// Four columns per pass over out, so out is loaded and stored once per four columns.
void matvec(int64_t r, int64_t c, const double* __restrict__ A, const double* __restrict__ x,
            double* __restrict__ out) {
  for (int64_t i = 0; i < r; ++i) out[i] = 0.0;
  int64_t j = 0;
  for (; j + 4 <= c; j += 4) {
    const double* __restrict__ a0 = A + j * r;
    const double* __restrict__ a1 = a0 + r;
    const double* __restrict__ a2 = a1 + r;
    const double* __restrict__ a3 = a2 + r;
    const double x0 = x[j], x1 = x[j + 1], x2 = x[j + 2], x3 = x[j + 3];
    for (int64_t i = 0; i < r; ++i) out[i] += (x0 * a0[i] + x1 * a1[i]) + (x2 * a2[i] + x3 * a3[i]);
  }
  for (; j < c; ++j) {
    const double* __restrict__ aj = A + j * r;
    const double xj = x[j];
    for (int64_t i = 0; i < r; ++i) out[i] += xj * aj[i];
  }
}

double dot(int64_t n, const double* __restrict__ a, const double* __restrict__ b) {
  double s = 0.0;
#pragma omp simd reduction(+ : s)
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

// Four dots per pass over g_out.
void matvecTransposeAdd(int64_t r, int64_t c, const double* __restrict__ A, const double* __restrict__ go,
                        double* __restrict__ gx) {
  int64_t j = 0;
  for (; j + 4 <= c; j += 4) {
    const double* __restrict__ a0 = A + j * r;
    const double* __restrict__ a1 = a0 + r;
    const double* __restrict__ a2 = a1 + r;
    const double* __restrict__ a3 = a2 + r;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
    for (int64_t i = 0; i < r; ++i) {
      s0 += a0[i] * go[i];
      s1 += a1[i] * go[i];
      s2 += a2[i] * go[i];
      s3 += a3[i] * go[i];
    }
    gx[j] += s0;
    gx[j + 1] += s1;
    gx[j + 2] += s2;
    gx[j + 3] += s3;
  }
  for (; j < c; ++j) gx[j] += dot(r, A + j * r, go);
}

void accumulate(int64_t n, double* __restrict__ g, int64_t sg, double sign, const double* __restrict__ u,
                const double* __restrict__ v, int64_t sv) {
  if (sg == 0) {
    double s = 0.0;
    if (v == nullptr) {
#pragma omp simd reduction(+ : s)
      for (int64_t i = 0; i < n; ++i) s += u[i];
    } else if (sv == 1) {
#pragma omp simd reduction(+ : s)
      for (int64_t i = 0; i < n; ++i) s += u[i] * v[i];
    } else {
#pragma omp simd reduction(+ : s)
      for (int64_t i = 0; i < n; ++i) s += u[i];
      s *= v[0];
    }
    g[0] += sign * s;
  } else if (v == nullptr) {
    for (int64_t i = 0; i < n; ++i) g[i] += sign * u[i];
  } else if (sv == 1) {
    for (int64_t i = 0; i < n; ++i) g[i] += sign * (u[i] * v[i]);
  } else {
    const double w = sign * v[0];
    for (int64_t i = 0; i < n; ++i) g[i] += w * u[i];
  }
}

}  // namespace

#define PVI_CONCAT2(a, b) a##b
#define PVI_CONCAT(a, b) PVI_CONCAT2(a, b)
#define PVI_STRING2(a) #a
#define PVI_STRING(a) PVI_STRING2(a)

extern "C" const pvi::kern::SimdLoops PVI_CONCAT(pvi_simd_loops_, PVI_SIMD_LEVEL) = {
    PVI_STRING(PVI_SIMD_LEVEL), bernoulliLogit, matvec, matvecTransposeAdd, dot, accumulate,
};
