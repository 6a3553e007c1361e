#pragma once
// The hottest kernels' contiguous loops, built once per instruction-set level (SSE2, AVX2,
// AVX-512: stdlib/CMakeLists.txt) and chosen once per process for the CPU it runs on
// (simd_dispatch.cpp). The kernels call them when their arguments are contiguous (or, for the
// element-wise gradients, broadcast); other strides keep their portable loops. exp and log1p
// are glibc's libmvec vector variants. Results depend on the level in the last bits (lanes,
// libmvec's implementations): PVI_SIMD=baseline gives the same on every x86-64 machine.
#include <cstdint>

namespace pvi::kern {

struct SimdLoops {
  const char* level;  // "baseline", "avx2" or "avx512"
  // bernoulli_logit_lpmf of y[0..n) given alpha[0..n), and g[i] += adj * d/dalpha_i when g is
  // not null; -inf when an alpha is not finite or a y is not 0 or 1 (g then untouched).
  double (*bernoulliLogit)(double adj, int64_t n, const int64_t* y, const double* alpha, double* g);
  // out[0..r) = A x, A column-major r x c.
  void (*matvec)(int64_t r, int64_t c, const double* A, const double* x, double* out);
  // g_x[j] += A(:, j) . g_out for j < c.
  void (*matvecTransposeAdd)(int64_t r, int64_t c, const double* A, const double* g_out, double* g_x);
  double (*dot)(int64_t n, const double* a, const double* b);
  // g[i sg] += sign * u[i] * v[i sv] (v null: 1), strides 0 or 1: the gradient of an element-wise
  // operation for one operand (sg == 0 sums into g[0]).
  void (*accumulate)(int64_t n, double* g, int64_t sg, double sign, const double* u, const double* v, int64_t sv);
};

// The levels built into this library, widest last, and the one this process uses: the widest
// the CPU runs, or the one named by the environment variable PVI_SIMD (baseline, avx2, avx512)
// when the CPU runs it.
const SimdLoops* const* simdLevels(int* count);
bool simdRunsHere(const SimdLoops& loops);
const SimdLoops& simdLoops();

}  // namespace pvi::kern

// One per level, defined by simd_loops.cpp compiled for that level.
extern "C" const pvi::kern::SimdLoops pvi_simd_loops_baseline, pvi_simd_loops_avx2, pvi_simd_loops_avx512;
