/* Random draws for the generated quantities: the _rng function of every distribution the
 * language supports, and the random number state they share (pvi_rng, runtime/abi/factor_abi.h).
 *
 * Conventions
 * - Vectorised draws: int64_t pvi_<dist>_rng(rng, n, [x, s_x]..., out) writes n draws, the i-th
 *   with the arguments x[i * s_x] (stride 1: a container of length n, 0: a scalar for all).
 *   Real variates go to a double array, int variates to an int64_t array.
 * - Multivariate draws (categorical, dirichlet, multi_normal) take the dimension k first and
 *   write one variate.
 * - The return value is 0, or 1 + the first element whose arguments lie outside the
 *   distribution's domain (as Stan's _rng functions check them); out is then incomplete.
 * - Every symbol is listed once in rng.def, from which the JIT's symbol table is generated.
 * - Draws use Boost.Random's algorithms, so a seed gives the same numbers on every platform. */
#ifndef PVI_STDLIB_RNG_H
#define PVI_STDLIB_RNG_H

#include <stdint.h>

#include "runtime/abi/factor_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The state for `stream` of `seed` (splitmix64 of both): different streams of one seed are
 * independent for every practical purpose. */
void pvi_rng_seed(pvi_rng *rng, uint64_t seed, uint64_t stream);
/* The next 64 random bits (xoshiro256**). */
uint64_t pvi_rng_next(pvi_rng *rng);

#define PVI_RR(x) const double *x, int64_t s_##x  /* real argument with stride */
#define PVI_RI(x) const int64_t *x, int64_t s_##x /* int argument with stride */

int64_t pvi_normal_rng(pvi_rng *rng, int64_t n, PVI_RR(mu), PVI_RR(sigma), double *out);
int64_t pvi_std_normal_rng(pvi_rng *rng, int64_t n, double *out);
int64_t pvi_lognormal_rng(pvi_rng *rng, int64_t n, PVI_RR(mu), PVI_RR(sigma), double *out);
int64_t pvi_cauchy_rng(pvi_rng *rng, int64_t n, PVI_RR(mu), PVI_RR(sigma), double *out);
int64_t pvi_student_t_rng(pvi_rng *rng, int64_t n, PVI_RR(nu), PVI_RR(mu), PVI_RR(sigma), double *out);
int64_t pvi_logistic_rng(pvi_rng *rng, int64_t n, PVI_RR(mu), PVI_RR(sigma), double *out);
int64_t pvi_double_exponential_rng(pvi_rng *rng, int64_t n, PVI_RR(mu), PVI_RR(sigma), double *out);
int64_t pvi_exponential_rng(pvi_rng *rng, int64_t n, PVI_RR(beta), double *out);
int64_t pvi_gamma_rng(pvi_rng *rng, int64_t n, PVI_RR(alpha), PVI_RR(beta), double *out);
int64_t pvi_inv_gamma_rng(pvi_rng *rng, int64_t n, PVI_RR(alpha), PVI_RR(beta), double *out);
int64_t pvi_weibull_rng(pvi_rng *rng, int64_t n, PVI_RR(alpha), PVI_RR(sigma), double *out);
int64_t pvi_beta_rng(pvi_rng *rng, int64_t n, PVI_RR(alpha), PVI_RR(beta), double *out);
int64_t pvi_uniform_rng(pvi_rng *rng, int64_t n, PVI_RR(alpha), PVI_RR(beta), double *out);

int64_t pvi_bernoulli_rng(pvi_rng *rng, int64_t n, PVI_RR(theta), int64_t *out);
int64_t pvi_bernoulli_logit_rng(pvi_rng *rng, int64_t n, PVI_RR(alpha), int64_t *out);
int64_t pvi_binomial_rng(pvi_rng *rng, int64_t n, PVI_RI(N), PVI_RR(theta), int64_t *out);
int64_t pvi_binomial_logit_rng(pvi_rng *rng, int64_t n, PVI_RI(N), PVI_RR(alpha), int64_t *out);
int64_t pvi_poisson_rng(pvi_rng *rng, int64_t n, PVI_RR(lambda), int64_t *out);
int64_t pvi_poisson_log_rng(pvi_rng *rng, int64_t n, PVI_RR(alpha), int64_t *out);
int64_t pvi_neg_binomial_2_rng(pvi_rng *rng, int64_t n, PVI_RR(mu), PVI_RR(phi), int64_t *out);

int64_t pvi_categorical_rng(pvi_rng *rng, int64_t k, const double *theta, int64_t *out);
int64_t pvi_categorical_logit_rng(pvi_rng *rng, int64_t k, const double *beta, int64_t *out);
int64_t pvi_dirichlet_rng(pvi_rng *rng, int64_t k, const double *alpha, double *out);
int64_t pvi_multi_normal_rng(pvi_rng *rng, int64_t k, const double *mu, const double *Sigma, double *out);
int64_t pvi_multi_normal_cholesky_rng(pvi_rng *rng, int64_t k, const double *mu, const double *L, double *out);

#undef PVI_RR
#undef PVI_RI

/* The symbol table of rng.def, for the JIT. Terminated by {NULL, NULL}. */
struct pvi_rng_kernel_entry {
  const char *name;
  void *address;
};
extern const struct pvi_rng_kernel_entry pvi_rng_kernel_table[];

#ifdef __cplusplus
}
#endif

#endif
