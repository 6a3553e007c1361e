#pragma once
// The strongest hand-written baselines: what a careful engineer writes by hand (Eigen arrays,
// vectorised exp and log, -O3 for the host's instruction set). They are built into a shared
// library of their own (bench/CMakeLists.txt): its Eigen code is compiled for a different vector
// width than the rest of the benchmark, and its hidden symbols keep the two apart.
#include <cstdint>

extern "C" {

// Value and gradient of the logistic regression log likelihood sum_i y_i a_i - log(1 + e^a_i),
// a = alpha + X beta, X column-major n x d, y in {0, 1} as doubles, z = (alpha, beta), into
// grad[0..d]; work holds 3 n doubles.
double pvi_bench_logistic_native(int64_t n, int64_t d, const double* X, const double* y, const double* z, double* grad,
                                 double* work);

// The hierarchical logistic regression of bench/hierarchical_bench.cpp (its parameterisation and
// constants): z = (alpha, b_urban, b_age, b_livch[1..3], u), tau = exp(u), w_j = a_j; the prior
// factor plus every district's normal(a_j | 0, tau) + sum_n bernoulli_logit(use_n | eta_n). Its
// value, with the gradient written to gz[0..7) and gw[0..districts); work holds 3 times the
// largest district's size.
struct pvi_bench_hierarchical_data {
  int64_t districts;
  const int64_t* start;  // district j holds rows [start[j], start[j + 1])
  const double *use, *urban, *age, *livch1, *livch2, *livch3;
  double prior_sd, tau_prior_sd;
};
double pvi_bench_hierarchical_native(const struct pvi_bench_hierarchical_data* h, const double* z, const double* w,
                                     double* gz, double* gw, double* work);

// Eight schools, non-centred (examples/eight_schools/noncentered.pvi): x = (mu, u, t[0..8)) with
// tau = exp(u); log p = normal(mu | 0, 5) + cauchy(tau | 0, 5) + u + sum_j normal(t_j | 0, 1) +
// normal(y_j | mu + tau t_j, sigma_j). Its value, with the gradient written to g[0..10); what
// depends on the data alone is prepared once.
struct pvi_bench_eight_schools_data {
  double y[8], inv_sigma[8];
  double constant;  // the normalising constants and -log sigma_j of every term
};
void pvi_bench_eight_schools_prepare(const double* y, const double* sigma, struct pvi_bench_eight_schools_data* d);
double pvi_bench_eight_schools_native(const struct pvi_bench_eight_schools_data* d, const double* x, double* g);
}
