/* The kernel library: value and gradient of every standard-library density and function.
 *
 * Compiled code (JIT or AOT) calls these through plain C symbols; the runtime links them, so an
 * AOT executable needs no LLVM. Each distribution or function lives in its own file with its
 * value and its gradient side by side (stdlib/kernels/<kind>/<name>.cpp).
 *
 * Conventions
 * - Containers are flat arrays of doubles (matrices column-major) or of int64_t.
 * - Vectorised arguments: every argument `x` of a density is passed as (x, sx) where sx is its
 *   stride: 1 for a container of the common length n, 0 for a scalar broadcast to all n.
 * - Densities include every normalising constant. Out-of-support arguments (a scale <= 0, a
 *   probability outside [0, 1], a variate outside the support) give -INFINITY, never NaN.
 * - `<name>_grad` returns the same value as `<name>` and ACCUMULATES adj * d value / d x into
 *   g_x (g_x[0] for a broadcast scalar, g_x[i] for a container). A null g_x means that argument
 *   needs no gradient (data). When the value is -INFINITY the gradients are unspecified.
 * - Element-wise functions: `pvi_<f>(n, x, out)` writes out[i] = f(x[i]);
 *   `pvi_<f>_grad(n, x, out, g_out, g_x)` accumulates g_x[i] += g_out[i] * f'(x[i]) (out is the
 *   forward result, available to the rule).
 * - Every kernel symbol is listed once in kernels.def, from which the JIT's symbol table and the
 *   tests' coverage checks are generated.
 */
#ifndef PVI_STDLIB_KERNELS_H
#define PVI_STDLIB_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- densities (one file each under distributions/) ----------------------------------------- */
#define PVI_R(x) const double *x, int64_t s_##x   /* real argument with stride */
#define PVI_I(x) const int64_t *x, int64_t s_##x  /* int argument with stride */

double pvi_normal_lpdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_normal_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu,
                            double *g_sigma);
double pvi_std_normal_lpdf(int64_t n, PVI_R(y));
double pvi_std_normal_lpdf_grad(double adj, int64_t n, PVI_R(y), double *g_y);
double pvi_lognormal_lpdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_lognormal_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu,
                               double *g_sigma);
double pvi_cauchy_lpdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_cauchy_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu,
                            double *g_sigma);
double pvi_student_t_lpdf(int64_t n, PVI_R(y), PVI_R(nu), PVI_R(mu), PVI_R(sigma));
double pvi_student_t_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(nu), PVI_R(mu), PVI_R(sigma), double *g_y,
                               double *g_nu, double *g_mu, double *g_sigma);
double pvi_double_exponential_lpdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_double_exponential_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y,
                                        double *g_mu, double *g_sigma);
double pvi_logistic_lpdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_logistic_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu,
                              double *g_sigma);
double pvi_exponential_lpdf(int64_t n, PVI_R(y), PVI_R(beta));
double pvi_exponential_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(beta), double *g_y, double *g_beta);
double pvi_gamma_lpdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta));
double pvi_gamma_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta), double *g_y, double *g_alpha,
                           double *g_beta);
double pvi_weibull_lpdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(sigma));
double pvi_weibull_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(sigma), double *g_y, double *g_alpha,
                             double *g_sigma);
double pvi_inv_gamma_lpdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta));
double pvi_inv_gamma_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta), double *g_y,
                               double *g_alpha, double *g_beta);
double pvi_beta_lpdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta));
double pvi_beta_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta), double *g_y, double *g_alpha,
                          double *g_beta);
double pvi_uniform_lpdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta));
double pvi_uniform_lpdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta), double *g_y,
                             double *g_alpha, double *g_beta);

double pvi_bernoulli_lpmf(int64_t n, PVI_I(y), PVI_R(theta));
double pvi_bernoulli_lpmf_grad(double adj, int64_t n, PVI_I(y), PVI_R(theta), double *g_theta);
double pvi_bernoulli_logit_lpmf(int64_t n, PVI_I(y), PVI_R(alpha));
double pvi_bernoulli_logit_lpmf_grad(double adj, int64_t n, PVI_I(y), PVI_R(alpha), double *g_alpha);
double pvi_binomial_lpmf(int64_t n, PVI_I(y), PVI_I(N), PVI_R(theta));
double pvi_binomial_lpmf_grad(double adj, int64_t n, PVI_I(y), PVI_I(N), PVI_R(theta), double *g_theta);
double pvi_binomial_logit_lpmf(int64_t n, PVI_I(y), PVI_I(N), PVI_R(alpha));
double pvi_binomial_logit_lpmf_grad(double adj, int64_t n, PVI_I(y), PVI_I(N), PVI_R(alpha), double *g_alpha);
double pvi_poisson_lpmf(int64_t n, PVI_I(y), PVI_R(lambda));
double pvi_poisson_lpmf_grad(double adj, int64_t n, PVI_I(y), PVI_R(lambda), double *g_lambda);
double pvi_poisson_log_lpmf(int64_t n, PVI_I(y), PVI_R(alpha));
double pvi_poisson_log_lpmf_grad(double adj, int64_t n, PVI_I(y), PVI_R(alpha), double *g_alpha);
double pvi_neg_binomial_2_lpmf(int64_t n, PVI_I(y), PVI_R(mu), PVI_R(phi));
double pvi_neg_binomial_2_lpmf_grad(double adj, int64_t n, PVI_I(y), PVI_R(mu), PVI_R(phi), double *g_mu,
                                    double *g_phi);
/* y: n outcomes in 1..k (stride 0 or 1), all with the same logits beta[0..k-1]. */
double pvi_categorical_lpmf(int64_t n, PVI_I(y), int64_t k, const double *theta);
double pvi_categorical_lpmf_grad(double adj, int64_t n, PVI_I(y), int64_t k, const double *theta, double *g_theta);
double pvi_categorical_logit_lpmf(int64_t n, PVI_I(y), int64_t k, const double *beta);
double pvi_categorical_logit_lpmf_grad(double adj, int64_t n, PVI_I(y), int64_t k, const double *beta,
                                       double *g_beta);

/* Log CDFs and CCDFs (distributions/<name>_cdf.cpp): D_lcdf(y | ...) = sum_i log F(y_i | ...),
 * D_lccdf = sum_i log(1 - F(y_i | ...)), with the densities' argument and gradient conventions
 * (every real argument finite, else -INFINITY). */
double pvi_normal_lcdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_normal_lcdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu, double *g_sigma);
double pvi_normal_lccdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_normal_lccdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu, double *g_sigma);
double pvi_lognormal_lcdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_lognormal_lcdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu, double *g_sigma);
double pvi_lognormal_lccdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_lognormal_lccdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu, double *g_sigma);
double pvi_cauchy_lcdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_cauchy_lcdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu, double *g_sigma);
double pvi_cauchy_lccdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_cauchy_lccdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu, double *g_sigma);
double pvi_logistic_lcdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_logistic_lcdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu, double *g_sigma);
double pvi_logistic_lccdf(int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma));
double pvi_logistic_lccdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_mu, double *g_sigma);
double pvi_student_t_lcdf(int64_t n, PVI_R(y), PVI_R(nu), PVI_R(mu), PVI_R(sigma));
double pvi_student_t_lcdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(nu), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_nu, double *g_mu, double *g_sigma);
double pvi_student_t_lccdf(int64_t n, PVI_R(y), PVI_R(nu), PVI_R(mu), PVI_R(sigma));
double pvi_student_t_lccdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(nu), PVI_R(mu), PVI_R(sigma), double *g_y, double *g_nu, double *g_mu, double *g_sigma);
double pvi_exponential_lcdf(int64_t n, PVI_R(y), PVI_R(beta));
double pvi_exponential_lcdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(beta), double *g_y, double *g_beta);
double pvi_exponential_lccdf(int64_t n, PVI_R(y), PVI_R(beta));
double pvi_exponential_lccdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(beta), double *g_y, double *g_beta);
double pvi_gamma_lcdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta));
double pvi_gamma_lcdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta), double *g_y, double *g_alpha, double *g_beta);
double pvi_gamma_lccdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta));
double pvi_gamma_lccdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(beta), double *g_y, double *g_alpha, double *g_beta);
double pvi_weibull_lcdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(sigma));
double pvi_weibull_lcdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(sigma), double *g_y, double *g_alpha, double *g_sigma);
double pvi_weibull_lccdf(int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(sigma));
double pvi_weibull_lccdf_grad(double adj, int64_t n, PVI_R(y), PVI_R(alpha), PVI_R(sigma), double *g_y, double *g_alpha, double *g_sigma);
double pvi_poisson_lcdf(int64_t n, PVI_I(y), PVI_R(lambda));
double pvi_poisson_lcdf_grad(double adj, int64_t n, PVI_I(y), PVI_R(lambda), double *g_lambda);
double pvi_poisson_lccdf(int64_t n, PVI_I(y), PVI_R(lambda));
double pvi_poisson_lccdf_grad(double adj, int64_t n, PVI_I(y), PVI_R(lambda), double *g_lambda);

/* Multivariate: vectors of length k; matrices k x k column-major. */
double pvi_dirichlet_lpdf(int64_t k, const double *theta, const double *alpha);
/* lkj_corr_cholesky: kk = K^2 elements of L, eta a scalar. */
double pvi_lkj_corr_cholesky_lpdf(int64_t kk, const double *L, const double *eta);
double pvi_lkj_corr_cholesky_lpdf_grad(double adj, int64_t kk, const double *L, const double *eta, double *g_L,
                                       double *g_eta);
/* lkj_corr: kk = K^2 elements of Omega, eta a scalar. */
double pvi_lkj_corr_lpdf(int64_t kk, const double *Omega, const double *eta);
double pvi_lkj_corr_lpdf_grad(double adj, int64_t kk, const double *Omega, const double *eta, double *g_Omega,
                              double *g_eta);
/* wishart, inv_wishart: kk = K^2 elements of W and of S, nu a scalar. */
double pvi_wishart_lpdf(int64_t kk, const double *W, const double *nu, const double *S);
double pvi_wishart_lpdf_grad(double adj, int64_t kk, const double *W, const double *nu, const double *S, double *g_W,
                             double *g_nu, double *g_S);
double pvi_inv_wishart_lpdf(int64_t kk, const double *W, const double *nu, const double *S);
double pvi_inv_wishart_lpdf_grad(double adj, int64_t kk, const double *W, const double *nu, const double *S,
                                 double *g_W, double *g_nu, double *g_S);
double pvi_dirichlet_lpdf_grad(double adj, int64_t k, const double *theta, const double *alpha, double *g_theta,
                               double *g_alpha);
// n variates of length k; y and mu each one vector (stride 0) or n side by side (stride k).
double pvi_multi_normal_lpdf(int64_t n, int64_t k, const double *y, int64_t s_y, const double *mu, int64_t s_mu,
                             const double *Sigma);
double pvi_multi_normal_lpdf_grad(double adj, int64_t n, int64_t k, const double *y, int64_t s_y, const double *mu,
                                  int64_t s_mu, const double *Sigma, double *g_y, double *g_mu, double *g_Sigma);
double pvi_multi_normal_cholesky_lpdf(int64_t n, int64_t k, const double *y, int64_t s_y, const double *mu,
                                      int64_t s_mu, const double *L);
double pvi_multi_normal_cholesky_lpdf_grad(double adj, int64_t n, int64_t k, const double *y, int64_t s_y,
                                           const double *mu, int64_t s_mu, const double *L, double *g_y,
                                           double *g_mu, double *g_L);

/* --- element-wise functions (one file each under functions/) -------------------------------- */
#define PVI_UNARY(f)                                                  \
  void pvi_##f(int64_t n, const double *x, double *out);              \
  void pvi_##f##_grad(int64_t n, const double *x, const double *out, \
                      const double *g_out, double *g_x);
PVI_UNARY(exp)
PVI_UNARY(log)
PVI_UNARY(log1p)
PVI_UNARY(expm1)
PVI_UNARY(log1m)
PVI_UNARY(log1m_exp)
PVI_UNARY(lgamma)
PVI_UNARY(digamma)
PVI_UNARY(inv_logit)
PVI_UNARY(log_inv_logit)
PVI_UNARY(log1m_inv_logit)
PVI_UNARY(logit)
PVI_UNARY(sqrt)
PVI_UNARY(square)
PVI_UNARY(tanh)
PVI_UNARY(abs)
PVI_UNARY(relu)
PVI_UNARY(inv)
PVI_UNARY(log10)
#undef PVI_UNARY

/* Scalar binary functions: value, and gradient accumulated into *g_a, *g_b (null: not needed). */
double pvi_pow(double a, double b);
void pvi_pow_grad(double a, double b, double out, double g_out, double *g_a, double *g_b);
double pvi_fmax(double a, double b);
void pvi_fmax_grad(double a, double b, double out, double g_out, double *g_a, double *g_b);
double pvi_fmin(double a, double b);
void pvi_fmin_grad(double a, double b, double out, double g_out, double *g_a, double *g_b);
double pvi_log_diff_exp(double a, double b);
void pvi_log_diff_exp_grad(double a, double b, double out, double g_out, double *g_a, double *g_b);
double pvi_log_sum_exp2(double a, double b);
void pvi_log_sum_exp2_grad(double a, double b, double out, double g_out, double *g_a, double *g_b);
double pvi_log_mix(double theta, double lp1, double lp2);
void pvi_log_mix_grad(double theta, double lp1, double lp2, double out, double g_out, double *g_theta,
                      double *g_lp1, double *g_lp2);

/* Reductions and vector functions. */
double pvi_sum(int64_t n, const double *x);
double pvi_log_sum_exp(int64_t n, const double *x);
void pvi_log_sum_exp_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
double pvi_dot_self(int64_t n, const double *x);
void pvi_dot_self_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
double pvi_variance(int64_t n, const double *x);
void pvi_variance_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
double pvi_sd(int64_t n, const double *x);
void pvi_sd_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
double pvi_prod(int64_t n, const double *x);
void pvi_prod_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
double pvi_max(int64_t n, const double *x);
void pvi_max_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
double pvi_min(int64_t n, const double *x);
void pvi_min_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
void pvi_cumulative_sum(int64_t n, const double *x, double *out);
void pvi_cumulative_sum_grad(int64_t n, const double *x, const double *out, const double *g_out, double *g_x);
void pvi_softmax(int64_t n, const double *x, double *out);
void pvi_softmax_grad(int64_t n, const double *x, const double *out, const double *g_out, double *g_x);
void pvi_log_softmax(int64_t n, const double *x, double *out);
void pvi_log_softmax_grad(int64_t n, const double *x, const double *out, const double *g_out, double *g_x);
/* The eigensystem of a symmetric k x k matrix (linalg/eigen_sym.cpp): eigenvalues_sym has n = k
 * outputs (ascending), eigenvectors_sym n = k^2 (columns, in the same order). */
void pvi_eigenvalues_sym(int64_t n, const double *A, double *out);
void pvi_eigenvalues_sym_grad(int64_t n, const double *A, const double *out, const double *g_out, double *g_A);
void pvi_eigenvectors_sym(int64_t n, const double *A, double *out);
void pvi_eigenvectors_sym_grad(int64_t n, const double *A, const double *out, const double *g_out, double *g_A);
/* k x k matrices, n = k^2 (linalg/cholesky_decompose.cpp): the lower Cholesky factor (NaN unless
 * positive definite; the gradient is symmetric), and diag_matrix of a vector of k. */
void pvi_cholesky_decompose(int64_t n, const double *A, double *out);
void pvi_cholesky_decompose_grad(int64_t n, const double *A, const double *out, const double *g_out, double *g_A);
void pvi_diag_matrix(int64_t n, const double *v, double *out);
void pvi_diag_matrix_grad(int64_t n, const double *v, const double *out, const double *g_out, double *g_v);
void pvi_multiply_lower_tri_self_transpose(int64_t n, const double *x, double *out);
void pvi_multiply_lower_tri_self_transpose_grad(int64_t n, const double *x, const double *out, const double *g_out,
                                                double *g_x);

/* --- linear algebra (linalg/), column-major, accumulate into non-null gradients ------------- */
double pvi_dot(int64_t n, const double *a, const double *b);
void pvi_dot_grad(int64_t n, const double *a, const double *b, double g_out, double *g_a, double *g_b);
/* out[r] = A[r x c] * x[c] */
void pvi_matvec(int64_t r, int64_t c, const double *A, const double *x, double *out);
void pvi_matvec_grad(int64_t r, int64_t c, const double *A, const double *x, const double *g_out, double *g_A,
                     double *g_x);
/* out[c] = x[r]^T * A[r x c]  (row_vector times matrix) */
void pvi_vecmat(int64_t r, int64_t c, const double *x, const double *A, double *out);
void pvi_vecmat_grad(int64_t r, int64_t c, const double *x, const double *A, const double *g_out, double *g_x,
                     double *g_A);
/* out[r x c] = A[r x k] * B[k x c] */
void pvi_matmul(int64_t r, int64_t k, int64_t c, const double *A, const double *B, double *out);
void pvi_matmul_grad(int64_t r, int64_t k, int64_t c, const double *A, const double *B, const double *g_out,
                     double *g_A, double *g_B);

#undef PVI_R
#undef PVI_I

#ifdef __cplusplus
}
#endif

#endif
