/* Kernels for the IR's own operations: element-wise arithmetic with broadcasting, reductions,
 * gathers, copies, and the transforms of bounded variables. Same conventions as kernels.h. */
#ifndef PVI_STDLIB_ARITH_H
#define PVI_STDLIB_ARITH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = a[i*sa] op b[i*sb]; gradients accumulate (sums for broadcast operands). */
#define PVI_EW(op)                                                                                       \
  void pvi_ew_##op(int64_t n, const double *a, int64_t sa, const double *b, int64_t sb, double *out);   \
  void pvi_ew_##op##_grad(int64_t n, const double *a, int64_t sa, const double *b, int64_t sb,          \
                          const double *out, const double *g_out, double *g_a, double *g_b);
PVI_EW(add)
PVI_EW(sub)
PVI_EW(mul)
PVI_EW(div)
PVI_EW(pow)
#undef PVI_EW

void pvi_neg(int64_t n, const double *x, double *out);
void pvi_neg_grad(int64_t n, const double *x, const double *out, const double *g_out, double *g_x);
void pvi_sum_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
double pvi_mean(int64_t n, const double *x);
void pvi_mean_grad(int64_t n, const double *x, double out, double g_out, double *g_x);
/* Broadcast a scalar to n elements (rep_vector, rep_matrix). */
void pvi_fill(int64_t n, const double *x, double *out);
void pvi_fill_grad(int64_t n, const double *x, const double *out, const double *g_out, double *g_x);
/* Stan's print, reject and fatal_error (print.cpp): begin a line, append a string, an int, n ints
 * or n reals (rank 0: one value; else as [a,b,c]), and end it: kind 0 writes it to stderr, 1
 * writes "reject: " and it (the first 20 of a process), 2 writes "fatal_error: " and it. */
void pvi_print_begin(void);
void pvi_print_text(const char *text);
void pvi_print_int(int64_t v);
void pvi_print_ints(int64_t n, const int64_t *x, int64_t rank);
void pvi_print_reals(int64_t n, const double *x, int64_t rank);
void pvi_print_end(int64_t kind);
/* For the runtime (not generated code): the message of this thread's last reject or fatal_error
 * since its evaluation began, shown or not, so that an error that stops a run can carry it ("" for
 * none); pvi_begin_evaluation clears it and the non-finite note below and says where this thread
 * evaluates (a partition: "district 12"; null for none), which those messages then name:
 * "reject (district 12): ..."; pvi_print_context(NULL) ends that. A kernel that rejects a point
 * without a reject statement (an ODE solver that fails) sets the message with
 * pvi_set_reject_message. */
const char *pvi_last_message(void);
void pvi_begin_evaluation(const char *where);
void pvi_print_context(const char *where);
void pvi_set_reject_message(const char *text);
/* A term added to target that is not finite (-inf, +inf or NaN) notes its statement's site, the
 * first of an evaluation; the runtime takes it (and clears it) to say which statement made a log
 * density not finite. */
void pvi_note_nonfinite(int64_t site);
int64_t pvi_take_nonfinite(void);
/* An int array of n copies of x (an int variable initialised with one value, as rep_array(0, n)). */
void pvi_fill_int(int64_t n, int64_t x, int64_t *out);
/* The largest (largest != 0) or smallest element of an int array, 0 when n is 0: bounds the sizes
 * that change inside loops (ir::Op::IntExtreme). */
int64_t pvi_int_extreme(int64_t n, const int64_t *x, int64_t largest);
/* out[i] = base[idx[i] - 1]; returns 0, or the 1-based position i + 1 of the first index out of
 * 1..len (then out is not fully written). */
int64_t pvi_gather(int64_t n, const int64_t *idx, int64_t len, const double *base, double *out);
void pvi_gather_grad(int64_t n, const int64_t *idx, const double *g_out, double *g_base);
/* Row i (1-based) of a column-major r x c matrix: out[j] = A[(i-1) + j*r]. */
void pvi_row(int64_t r, int64_t c, int64_t i, const double *A, double *out);
void pvi_row_grad(int64_t r, int64_t c, int64_t i, const double *g_out, double *g_A);
/* out (c x r) = A (r x c) transposed. */
void pvi_transpose(int64_t r, int64_t c, const double *A, double *out);
void pvi_transpose_grad(int64_t r, int64_t c, const double *g_out, double *g_A);
/* General subscript of a rank-r tensor (dims[0] varies fastest). spec holds 3 ints per
 * dimension d: {0, -, -} every index; {1, i, -} the single index i (the dimension is dropped);
 * {2, a, b} the range a..b (empty when b < a); {3, -, n} the n indices lists[d][0..n-1]. All
 * indices are 1-based. The selected elements go to out in the same order (dims[0] fastest);
 * elements are 8-byte words (doubles or int64). Returns 0, or 1 when an index is out of range
 * (then nothing is written). The store writes value into the selected elements of base (of
 * repeated indices the last wins); its gradient moves g_base of the selected elements into
 * g_value (when not null) and zeroes them, since their earlier values were overwritten. */
int64_t pvi_subscript(int64_t r, const int64_t *dims, const int64_t *spec, const int64_t *const *lists,
                      const void *base, void *out);
void pvi_subscript_grad(int64_t r, const int64_t *dims, const int64_t *spec, const int64_t *const *lists,
                        const double *g_out, double *g_base);
int64_t pvi_subscript_store(int64_t r, const int64_t *dims, const int64_t *spec, const int64_t *const *lists,
                            const void *value, void *base);
void pvi_subscript_store_grad(int64_t r, const int64_t *dims, const int64_t *spec, const int64_t *const *lists,
                              double *g_base, double *g_value);
void pvi_copy(int64_t n, const double *x, double *out);
void pvi_copy_grad(int64_t n, const double *g_out, double *g_x);

/* Bounded variables: x = transform(u). Each returns sum log|dx/du| and writes out = x; the
 * gradient kernels take g_out (adjoint of x) and g_lj (adjoint of the log-Jacobian, usually 1)
 * and accumulate into g_u and, when not null, into the bound's gradient. */
double pvi_tf_lower(int64_t n, const double *u, const double *lb, int64_t slb, double *out);
void pvi_tf_lower_grad(int64_t n, const double *u, const double *lb, int64_t slb, const double *out,
                       const double *g_out, double g_lj, double *g_u, double *g_lb);
double pvi_tf_upper(int64_t n, const double *u, const double *ub, int64_t sub, double *out);
void pvi_tf_upper_grad(int64_t n, const double *u, const double *ub, int64_t sub, const double *out,
                       const double *g_out, double g_lj, double *g_u, double *g_ub);
double pvi_tf_lower_upper(int64_t n, const double *u, const double *lb, int64_t slb, const double *ub, int64_t sub,
                          double *out);
void pvi_tf_lower_upper_grad(int64_t n, const double *u, const double *lb, int64_t slb, const double *ub,
                             int64_t sub, const double *out, const double *g_out, double g_lj, double *g_u,
                             double *g_lb, double *g_ub);
/* Stan's offset and multiplier: x = o + m u, log-Jacobian sum log m (-inf where m <= 0). */
double pvi_tf_affine(int64_t n, const double *u, const double *o, int64_t so, const double *m, int64_t sm,
                     double *out);
void pvi_tf_affine_grad(int64_t n, const double *u, const double *o, int64_t so, const double *m, int64_t sm,
                        const double *out, const double *g_out, double g_lj, double *g_u, double *g_o, double *g_m);
/* Inverses, for initial values and user-given points: u = transform^-1(x). Return 0, or i + 1 for
 * the first x[i] outside its bounds (affine: a multiplier that is not positive, or x not finite). */
int64_t pvi_tf_affine_inv(int64_t n, const double *x, const double *o, int64_t so, const double *m, int64_t sm,
                          double *u);
int64_t pvi_tf_lower_inv(int64_t n, const double *x, const double *lb, int64_t slb, double *u);
int64_t pvi_tf_upper_inv(int64_t n, const double *x, const double *ub, int64_t sub, double *u);
int64_t pvi_tf_lower_upper_inv(int64_t n, const double *x, const double *lb, int64_t slb, const double *ub,
                               int64_t sub, double *u);

/* Constrained vectors (vector_transforms.cpp): n outputs, as vectors of length k = kp[0]
 * (simplex: from n / k * (k - 1) inputs). Same conventions as the bounded transforms, the
 * length in the place of a bound (its gradient pointer is ignored). */
double pvi_tf_simplex(int64_t n, const double *u, const double *kp, int64_t skp, double *out);
void pvi_tf_simplex_grad(int64_t n, const double *u, const double *kp, int64_t skp, const double *out,
                         const double *g_out, double g_lj, double *g_u, double *g_kp);
double pvi_tf_ordered(int64_t n, const double *u, const double *kp, int64_t skp, double *out);
void pvi_tf_ordered_grad(int64_t n, const double *u, const double *kp, int64_t skp, const double *out,
                         const double *g_out, double g_lj, double *g_u, double *g_kp);
double pvi_tf_positive_ordered(int64_t n, const double *u, const double *kp, int64_t skp, double *out);
void pvi_tf_positive_ordered_grad(int64_t n, const double *u, const double *kp, int64_t skp, const double *out,
                                  const double *g_out, double g_lj, double *g_u, double *g_kp);
/* Inverses: n unconstrained outputs (simplex: n / (k - 1) vectors of k values read). */
int64_t pvi_tf_simplex_inv(int64_t n, const double *x, const double *kp, int64_t skp, double *u);
int64_t pvi_tf_ordered_inv(int64_t n, const double *x, const double *kp, int64_t skp, double *u);
int64_t pvi_tf_positive_ordered_inv(int64_t n, const double *x, const double *kp, int64_t skp, double *u);

/* cholesky_factor_corr[K] (cholesky_corr_transform.cpp): n = m K^2 outputs from m K (K - 1) / 2
 * inputs, K in kp[0]; the inverse writes n unconstrained values (n / (K (K - 1) / 2) matrices). */
double pvi_tf_cholesky_factor_corr(int64_t n, const double *u, const double *kp, int64_t skp, double *out);
void pvi_tf_cholesky_factor_corr_grad(int64_t n, const double *u, const double *kp, int64_t skp, const double *out,
                                      const double *g_out, double g_lj, double *g_u, double *g_kp);
int64_t pvi_tf_cholesky_factor_corr_inv(int64_t n, const double *x, const double *kp, int64_t skp, double *u);

/* cholesky_factor_cov[M, N], cov_matrix[K], corr_matrix[K], unit_vector[K] (matrix_transforms.cpp):
 * n outputs, m matrices (vectors) of M N (K^2, K) elements from m N (N + 1) / 2 + (M - N) N
 * (K (K + 1) / 2, K (K - 1) / 2, K) inputs; the inverses write n unconstrained values. */
double pvi_tf_cholesky_factor_cov(int64_t n, const double *u, const double *mp, int64_t smp, const double *np,
                                  int64_t snp, double *out);
void pvi_tf_cholesky_factor_cov_grad(int64_t n, const double *u, const double *mp, int64_t smp, const double *np,
                                     int64_t snp, const double *out, const double *g_out, double g_lj, double *g_u,
                                     double *g_mp, double *g_np);
int64_t pvi_tf_cholesky_factor_cov_inv(int64_t n, const double *x, const double *mp, int64_t smp, const double *np,
                                       int64_t snp, double *u);
double pvi_tf_cov_matrix(int64_t n, const double *u, const double *kp, int64_t skp, double *out);
void pvi_tf_cov_matrix_grad(int64_t n, const double *u, const double *kp, int64_t skp, const double *out,
                            const double *g_out, double g_lj, double *g_u, double *g_kp);
int64_t pvi_tf_cov_matrix_inv(int64_t n, const double *x, const double *kp, int64_t skp, double *u);
double pvi_tf_corr_matrix(int64_t n, const double *u, const double *kp, int64_t skp, double *out);
void pvi_tf_corr_matrix_grad(int64_t n, const double *u, const double *kp, int64_t skp, const double *out,
                             const double *g_out, double g_lj, double *g_u, double *g_kp);
int64_t pvi_tf_corr_matrix_inv(int64_t n, const double *x, const double *kp, int64_t skp, double *u);
double pvi_tf_unit_vector(int64_t n, const double *u, const double *kp, int64_t skp, double *out);
void pvi_tf_unit_vector_grad(int64_t n, const double *u, const double *kp, int64_t skp, const double *out,
                             const double *g_out, double g_lj, double *g_u, double *g_kp);
int64_t pvi_tf_unit_vector_inv(int64_t n, const double *x, const double *kp, int64_t skp, double *u);

/* Every kernel above, by name, for the JIT's symbol table; ends with {NULL, NULL}. */
typedef struct pvi_arith_kernel_entry {
  const char *name;
  void *address;
} pvi_arith_kernel_entry;
extern const pvi_arith_kernel_entry pvi_arith_kernel_table[];

#ifdef __cplusplus
}
#endif

#endif
