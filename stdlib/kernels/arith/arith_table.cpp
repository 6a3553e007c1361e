// The symbol table of the arith kernels (see arith.h) and of the ODE solver (ode/ode.h), for the JIT.
#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/ode/ode.h"

#define ENTRY(f) {#f, reinterpret_cast<void*>(&f)}

extern "C" const pvi_arith_kernel_entry pvi_arith_kernel_table[] = {
    ENTRY(pvi_ew_add), ENTRY(pvi_ew_add_grad), ENTRY(pvi_ew_sub), ENTRY(pvi_ew_sub_grad),
    ENTRY(pvi_ew_mul), ENTRY(pvi_ew_mul_grad), ENTRY(pvi_ew_div), ENTRY(pvi_ew_div_grad),
    ENTRY(pvi_ew_pow), ENTRY(pvi_ew_pow_grad), ENTRY(pvi_neg), ENTRY(pvi_neg_grad),
    ENTRY(pvi_sum_grad), ENTRY(pvi_mean), ENTRY(pvi_mean_grad), ENTRY(pvi_fill), ENTRY(pvi_fill_grad), ENTRY(pvi_fill_int), ENTRY(pvi_print_begin), ENTRY(pvi_print_text),
    ENTRY(pvi_print_int), ENTRY(pvi_print_ints), ENTRY(pvi_print_reals), ENTRY(pvi_print_end),
    ENTRY(pvi_gather), ENTRY(pvi_gather_grad), ENTRY(pvi_row), ENTRY(pvi_row_grad),
    ENTRY(pvi_transpose), ENTRY(pvi_transpose_grad), ENTRY(pvi_copy), ENTRY(pvi_copy_grad),
    ENTRY(pvi_subscript), ENTRY(pvi_subscript_grad), ENTRY(pvi_subscript_store), ENTRY(pvi_subscript_store_grad),
    ENTRY(pvi_tf_lower), ENTRY(pvi_tf_lower_grad), ENTRY(pvi_tf_upper), ENTRY(pvi_tf_upper_grad),
    ENTRY(pvi_tf_lower_upper), ENTRY(pvi_tf_lower_upper_grad), ENTRY(pvi_tf_lower_inv), ENTRY(pvi_tf_upper_inv),
    ENTRY(pvi_tf_lower_upper_inv), ENTRY(pvi_tf_affine), ENTRY(pvi_tf_affine_grad), ENTRY(pvi_tf_affine_inv), ENTRY(pvi_tf_simplex), ENTRY(pvi_tf_simplex_grad), ENTRY(pvi_tf_ordered),
    ENTRY(pvi_tf_ordered_grad), ENTRY(pvi_tf_positive_ordered), ENTRY(pvi_tf_positive_ordered_grad),
    ENTRY(pvi_tf_simplex_inv), ENTRY(pvi_tf_ordered_inv), ENTRY(pvi_tf_positive_ordered_inv),
    ENTRY(pvi_tf_cholesky_factor_corr), ENTRY(pvi_tf_cholesky_factor_corr_grad), ENTRY(pvi_tf_cholesky_factor_corr_inv),
    ENTRY(pvi_tf_cholesky_factor_cov), ENTRY(pvi_tf_cholesky_factor_cov_grad), ENTRY(pvi_tf_cholesky_factor_cov_inv),
    ENTRY(pvi_tf_cov_matrix), ENTRY(pvi_tf_cov_matrix_grad), ENTRY(pvi_tf_cov_matrix_inv),
    ENTRY(pvi_tf_corr_matrix), ENTRY(pvi_tf_corr_matrix_grad), ENTRY(pvi_tf_corr_matrix_inv),
    ENTRY(pvi_tf_unit_vector), ENTRY(pvi_tf_unit_vector_grad), ENTRY(pvi_tf_unit_vector_inv),
    ENTRY(pvi_integrate_ode), ENTRY(pvi_integrate_ode_sens), ENTRY(pvi_integrate_ode_grad),
    {nullptr, nullptr}};
