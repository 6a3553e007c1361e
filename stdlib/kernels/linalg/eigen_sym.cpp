// eigenvalues_sym(A) and eigenvectors_sym(A) of a symmetric k x k matrix (column-major), as in
// Stan: the eigenvalues in ascending order, and the eigenvectors as the columns of a matrix in the
// same order (each with its largest element positive; Stan leaves the signs to Eigen). Element-wise-convention kernels: n is the number of outputs (k eigenvalues, or k^2
// elements of the eigenvectors). Only A's lower triangle is read (Eigen's SelfAdjointEigenSolver),
// as cholesky_decompose reads it; a matrix with a non-finite element gives NaN everywhere.
//
// Gradients (e.g. Giles 2008, "An extended collection of matrix derivative results"), with
// A = V diag(lambda) V':
//   eigenvalues:  Abar = V diag(lambdabar) V'
//   eigenvectors: Abar = V (F o (V' Vbar)) V',  F_ij = 1 / (lambda_j - lambda_i) (i != j), F_ii = 0
// added symmetrised, (Abar + Abar') / 2, as the gradient over a symmetric A. Repeated eigenvalues
// leave the eigenvectors undetermined and their gradient infinite, as in Stan.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

#include "stdlib/kernels/kernels.h"

namespace {

using Matrix = Eigen::MatrixXd;
using MatrixMap = Eigen::Map<const Eigen::MatrixXd>;

int64_t orderOf(int64_t n) { return static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(n)))); }

// A = V diag(lambda) V' from A's lower triangle, each eigenvector's sign chosen so that its
// element of largest magnitude is positive (the solver's signs are arbitrary; this choice is
// continuous in A, so the values and gradients agree); false when A has a non-finite element.
struct Eigensystem {
  Eigen::VectorXd lambda;
  Matrix V;
};

bool decompose(int64_t k, const double* A, Eigensystem& out) {
  const MatrixMap a(A, k, k);
  if (!a.triangularView<Eigen::Lower>().toDenseMatrix().allFinite()) return false;
  Eigen::SelfAdjointEigenSolver<Matrix> solver(a, Eigen::ComputeEigenvectors);
  if (solver.info() != Eigen::Success) return false;
  out.lambda = solver.eigenvalues();
  out.V = solver.eigenvectors();
  for (int64_t j = 0; j < k; ++j) {
    Eigen::Index largest = 0;
    out.V.col(j).cwiseAbs().maxCoeff(&largest);
    if (out.V(largest, j) < 0.0) out.V.col(j) *= -1.0;
  }
  return true;
}

void addSymmetrised(int64_t k, const Matrix& g, double* g_A) {
  Eigen::Map<Eigen::MatrixXd> out(g_A, k, k);
  out += 0.5 * (g + g.transpose());
}

}  // namespace

extern "C" void pvi_eigenvalues_sym(int64_t n, const double* A, double* out) {
  Eigensystem e;
  if (!decompose(n, A, e)) {
    for (int64_t i = 0; i < n; ++i) out[i] = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  Eigen::Map<Eigen::VectorXd>(out, n) = e.lambda;
}

extern "C" void pvi_eigenvalues_sym_grad(int64_t n, const double* A, const double*, const double* g_out,
                                         double* g_A) {
  Eigensystem e;
  if (g_A == nullptr || !decompose(n, A, e)) return;
  addSymmetrised(n, e.V * Eigen::Map<const Eigen::VectorXd>(g_out, n).asDiagonal() * e.V.transpose(), g_A);
}

extern "C" void pvi_eigenvectors_sym(int64_t n, const double* A, double* out) {
  const int64_t k = orderOf(n);
  Eigensystem e;
  if (k * k != n || !decompose(k, A, e)) {
    for (int64_t i = 0; i < n; ++i) out[i] = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  Eigen::Map<Eigen::MatrixXd>(out, k, k) = e.V;
}

extern "C" void pvi_eigenvectors_sym_grad(int64_t n, const double* A, const double*, const double* g_out,
                                          double* g_A) {
  const int64_t k = orderOf(n);
  Eigensystem e;
  if (g_A == nullptr || k * k != n || !decompose(k, A, e)) return;
  const Matrix& V = e.V;
  const Eigen::VectorXd& lambda = e.lambda;
  Matrix inner = V.transpose() * MatrixMap(g_out, k, k);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) inner(i, j) = i == j ? 0.0 : inner(i, j) / (lambda(j) - lambda(i));
  addSymmetrised(k, V * inner * V.transpose(), g_A);
}
