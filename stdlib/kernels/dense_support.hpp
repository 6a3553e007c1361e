#pragma once
// Small dense helpers for the multivariate densities (not part of the C interface): a scratch
// buffer, Cholesky factorisation and triangular solves on column-major k x k matrices. Inner
// loops run down contiguous columns (axpy / dot forms).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pvi::kern {

// k for a k x k matrix of n = k^2 elements (rounded: the caller checks k * k == n where it matters).
inline int64_t squareOrder(int64_t n) { return static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(n)))); }

// Workspace of n doubles: on the stack for small sizes, otherwise in a per-thread buffer that
// only grows, so that evaluating a model allocates nothing after its first call. (A second
// Scratch alive on the same thread, which no kernel makes today, gets its own heap block.)
class Scratch {
 public:
  explicit Scratch(std::size_t n) {
    if (n <= kInline) {
      p_ = inline_;
      return;
    }
    Pool& pool = pool_();
    if (pool.busy) {
      heap_.reset(new double[n]);
      p_ = heap_.get();
      return;
    }
    pool.busy = owner_ = true;
    if (pool.buffer.size() < n) pool.buffer.resize(n);
    p_ = pool.buffer.data();
  }
  ~Scratch() {
    if (owner_) pool_().busy = false;
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  double* data() { return p_; }

 private:
  struct Pool {
    std::vector<double> buffer;
    bool busy = false;
  };
  static Pool& pool_() {
    thread_local Pool pool;
    return pool;
  }
  static constexpr std::size_t kInline = 272;  // k <= 16 for k^2 + k
  double inline_[kInline];
  std::unique_ptr<double[]> heap_;
  double* p_;
  bool owner_ = false;
};

// L (k x k, lower triangle written, strict upper left untouched) = chol of the lower triangle of
// A. Returns false unless every pivot is positive and finite (A not positive definite, or NaN/Inf).
inline bool choleskyLower(int64_t k, const double* A, double* L) {
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = j; i < k; ++i) L[i + j * k] = A[i + j * k];
  for (int64_t j = 0; j < k; ++j) {
    double* __restrict__ cj = L + j * k;
    double d = cj[j];
    if (!(d > 0.0) || !std::isfinite(d)) return false;
    double ljj = std::sqrt(d);
    cj[j] = ljj;
    double inv = 1.0 / ljj;
    for (int64_t i = j + 1; i < k; ++i) cj[i] *= inv;
    // Right-looking update of the trailing columns: L(c:k, c) -= L(c, j) L(c:k, j).
    for (int64_t c = j + 1; c < k; ++c) {
      double* __restrict__ cc = L + c * k;
      double f = cj[c];
      for (int64_t i = c; i < k; ++i) cc[i] -= f * cj[i];
    }
  }
  return true;
}

// b <- L^{-1} b (L lower triangular, column-major).
inline void forwardSolve(int64_t k, const double* L, double* b) {
  for (int64_t j = 0; j < k; ++j) {
    const double* __restrict__ cj = L + j * k;
    double x = b[j] / cj[j];
    b[j] = x;
    double* __restrict__ bb = b;
    for (int64_t i = j + 1; i < k; ++i) bb[i] -= x * cj[i];
  }
}

// b <- L^{-T} b.
inline void backSolveTransposed(int64_t k, const double* L, double* b) {
  for (int64_t j = k - 1; j >= 0; --j) {
    const double* __restrict__ cj = L + j * k;
    double s = b[j];
    for (int64_t i = j + 1; i < k; ++i) s -= cj[i] * b[i];
    b[j] = s / cj[j];
  }
}

}  // namespace pvi::kern
