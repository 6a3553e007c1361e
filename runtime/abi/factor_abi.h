/* The factor ABI: the one contract between compiled models (JIT or AOT) and the runtime.
 * Plain C, so the runtime never needs a compiler or LLVM header. */
#ifndef PVI_FACTOR_ABI_H
#define PVI_FACTOR_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Data are passed as an array with one pointer per data variable of the block, in declaration
 * order: an int scalar or int array points to int64_t, a real scalar or container to double
 * (matrices column-major).
 *
 * z, w, theta: the unconstrained globals, the partition's locals, the hyperparameters.
 * grad_*: gradient outputs (gradient functions only; value functions ignore them).
 * workspace: scratch memory of workspace_bytes bytes (8-byte aligned).
 * status: 0 on success; > 0: the workspace is too small and *status bytes are needed; < 0: an
 * error (PVI_STATUS_*). The return value is NaN whenever *status != 0. */
typedef double (*pvi_factor_fn)(const double *z, const double *w, const double *theta,
                                const void *const *shared, const void *const *partition, double *grad_z,
                                double *grad_w, double *grad_theta, void *workspace, int64_t workspace_bytes,
                                int64_t *status);

#define PVI_STATUS_INDEX_OUT_OF_RANGE (-1)

/* Writes {dim z, dim w, dim theta} as implied by the data (w: of this partition). */
typedef void (*pvi_dims_fn)(const void *const *shared, const void *const *partition, int64_t *out);

/* Data checks of one block (shared, or one partition):
 * counts writes the number of elements each variable of the block must have (by index);
 * check verifies bounds and that no real is NaN, assuming the counts hold: *status = 0, or -3
 * with where = {variable, element (0-based, column-major), 1 below lower / 2 above upper /
 * 3 NaN}, or > 0 when the workspace is too small (bytes needed). */
typedef void (*pvi_counts_fn)(const void *const *shared, const void *const *partition, int64_t *counts);
typedef double (*pvi_check_fn)(const void *const *shared, const void *const *partition, void *workspace,
                               int64_t workspace_bytes, int64_t *status, int64_t *where);
#define PVI_STATUS_DATA_OUT_OF_BOUNDS (-3)
#define PVI_STATUS_VALUE_OUT_OF_BOUNDS (-4) /* unconstrain: a value outside its variable's bounds */

/* Output functions: constrained values and generated quantities, written to `out`; the size
 * function writes the output's length to out[0] (other entries unspecified). */
typedef double (*pvi_output_fn)(const double *z, const double *w, const double *theta, const void *const *shared,
                                const void *const *partition, double *out, void *workspace,
                                int64_t workspace_bytes, int64_t *status);

/* The generated code of one model. The partition functions are null for a model without a
 * partition. An AOT object defines these as pvi_prior_value, pvi_prior_grad, ... */
typedef struct pvi_model_code {
  pvi_factor_fn prior_value;
  pvi_factor_fn prior_grad;
  pvi_dims_fn prior_dims;
  pvi_factor_fn partition_value;
  pvi_factor_fn partition_grad;
  pvi_dims_fn partition_dims;
  pvi_counts_fn shared_counts;
  pvi_check_fn shared_check;
  pvi_counts_fn partition_counts;
  pvi_check_fn partition_check;
  pvi_output_fn constrain_globals; /* globals then hyperparameters, from z and theta */
  pvi_dims_fn constrain_globals_size;
  pvi_output_fn constrain_locals;  /* one partition's locals, from w */
  pvi_dims_fn constrain_locals_size;
  pvi_output_fn generate_shared;   /* generated quantities that need only the globals */
  pvi_dims_fn generate_shared_size;
  pvi_output_fn generate_partition; /* generated quantities that need a partition */
  pvi_dims_fn generate_partition_size;
  /* Inverses of the constrain maps: the constrained values are read from the `z` (or `w`)
   * argument, laid out as the constrain functions write them, and the unconstrained ones are
   * written to `out`. */
  pvi_output_fn unconstrain_globals;
  pvi_output_fn unconstrain_locals;
  /* Concrete sizes (as doubles), which depend on the data only: for each global, then each
   * hyperparameter, then each shared generated quantity (shapes_globals), or each local, then
   * each partition generated quantity (shapes_partition), its array dims then its vector /
   * matrix dims, in declaration order. z, w and theta are not read. */
  pvi_output_fn shapes_globals;
  pvi_dims_fn shapes_globals_size;
  pvi_output_fn shapes_partition;
  pvi_dims_fn shapes_partition_size;
} pvi_model_code;

/* An AOT object also defines `const char pvi_model_info[]`: the model's description
 * (runtime/model/ModelInfo.hpp) as JSON, NUL-terminated. */

#ifdef __cplusplus
}
#endif

#endif
