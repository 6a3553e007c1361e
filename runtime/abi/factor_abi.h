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
/* An index out of range in the statement with that site: the model description's statements[site]
 * (any function). */
#define PVI_STATUS_INDEX_SITE_BASE (-1000)
#define PVI_STATUS_INDEX_OUT_OF_RANGE_AT(site) (PVI_STATUS_INDEX_SITE_BASE - (int64_t)(site))

/* Writes {dim z, dim w, dim theta} as implied by the data (w: of this partition). */
typedef void (*pvi_dims_fn)(const void *const *shared, const void *const *partition, int64_t *out);

/* Data checks of one block (shared, or one partition):
 * counts writes the number of elements each variable of the block must have (by index);
 * check verifies bounds and that no real is NaN, assuming the counts hold: *status = 0, or -3
 * with where = {variable, element (0-based, column-major), 1 below lower / 2 above upper /
 * 3 NaN}, or -5 when a size equality the compiler could not decide fails (the size checks of the
 * model description, runtime/model/ModelInfo.hpp) with where = {check index, first size, second
 * size}, or > 0 when the workspace is too small (bytes needed). */
typedef void (*pvi_counts_fn)(const void *const *shared, const void *const *partition, int64_t *counts);
typedef double (*pvi_check_fn)(const void *const *shared, const void *const *partition, void *workspace,
                               int64_t workspace_bytes, int64_t *status, int64_t *where);
#define PVI_STATUS_DATA_OUT_OF_BOUNDS (-3)
#define PVI_STATUS_VALUE_OUT_OF_BOUNDS (-4) /* unconstrain: a value outside its variable's bounds */
#define PVI_STATUS_SIZE_MISMATCH (-5)      /* check: two sizes that must be equal differ */
/* generate: a generated quantity outside its declared bounds; out[0..2] = {the quantity's index
 * among this function's outputs, element (0-based, column-major), 1 below lower / 2 above upper /
 * 3 NaN}, as doubles (transform: a transformed data variable, by its index among the outputs) */
#define PVI_STATUS_GENERATED_OUT_OF_BOUNDS (-6)
/* generate: an _rng function got arguments outside its domain; out[0..1] = {the call's index in
 * the model description's rng_calls, the element (0-based) of its vectorised arguments} */
#define PVI_STATUS_RNG_DOMAIN (-7)
/* Any function: the model's reject(...) ran (its message went to stderr); in a factor function
 * the point has zero density, and the runtime reads it as log density -inf. */
#define PVI_STATUS_REJECT (-8)
/* Any function: the model's fatal_error(...) ran (its message went to stderr): the run stops. */
#define PVI_STATUS_FATAL_ERROR (-9)

/* Output functions: constrained values and generated quantities, written to `out`; the size
 * function writes the output's length to out[0] (other entries unspecified). */
typedef double (*pvi_output_fn)(const double *z, const double *w, const double *theta, const void *const *shared,
                                const void *const *partition, double *out, void *workspace,
                                int64_t workspace_bytes, int64_t *status);

/* The random number state of the generated quantities' _rng functions: xoshiro256** (Blackman
 * and Vigna). pvi_rng_seed (stdlib/kernels/rng/rng.h) sets it from a seed and a stream number;
 * the runtime seeds one state per draw and partition, so that generated quantities are
 * reproducible whatever the order or thread they are computed in. */
typedef struct pvi_rng {
  uint64_t s[4];
} pvi_rng;

/* Generated quantities: an output function that may draw random numbers from `rng`. */
typedef double (*pvi_generate_fn)(const double *z, const double *w, const double *theta, const void *const *shared,
                                  const void *const *partition, double *out, void *workspace,
                                  int64_t workspace_bytes, int64_t *status, pvi_rng *rng);

/* The version of this contract: the function types above, the members of pvi_model_code and
 * their symbols, and the model description (runtime/model/ModelInfo.hpp) an AOT object carries.
 * A model description records the version it was compiled for; the runtime refuses one of
 * another version. Increase it with every incompatible change. */
#define PVI_FACTOR_ABI_VERSION 4

/* Every generated function, once: X(member, type, partition) for each member of pvi_model_code,
 * in order. `type` is its function pointer type; `partition` is 1 for the functions only a model
 * with a partition has (null otherwise). In an AOT object the function is the symbol
 * pvi_<member> (PVI_ABI_SYMBOL). Code generation, the JIT and AOT loaders and the tests all
 * expand this list.
 *
 *   constrain_globals: globals then hyperparameters, from z and theta
 *   constrain_locals: one partition's locals, from w
 *   generate_shared / generate_partition: generated quantities that need only the globals /
 *     a partition
 *   unconstrain_*: inverses of the constrain maps: the constrained values are read from the `z`
 *     (or `w`) argument, laid out as the constrain functions write them, and the unconstrained
 *     ones are written to `out`.
 *   shapes_*: concrete sizes (as doubles), which depend on the data only: for each global, then
 *     each hyperparameter, then each shared generated quantity (shapes_globals), or each local,
 *     then each partition generated quantity (shapes_partition), its array dims then its vector /
 *     matrix dims, in declaration order. z, w and theta are not read.
 *   *_size: the length of the output of the function before it (out[0]).
 *   transform_shared / transform_partition: the transformed data (ModelInfo's
 *     data.transformedShared / transformedPartition), computed from the data read from files (the
 *     partition's: from the shared data with their transformed data appended, and the partition's);
 *     their values, flattened column-major in declaration order, ints as doubles. z, w and theta
 *     are not read; `rng` draws the block's _rng calls. transform_*_counts run the same
 *     statements and write each variable's element count instead (their output has one entry per
 *     variable). The runtime appends the variables to the data, after those from files, before
 *     calling anything else but the data checks.
 *   *_counts_transformed, *_check_transformed: the data checks of the data with their transformed
 *     data appended: the counts of every variable, those read from files then the transformed
 *     ones, and the size checks that read transformed data (SizeCheckInfo::transformed). */
#define PVI_MODEL_CODE_FUNCTIONS(X)                 \
  X(prior_value, pvi_factor_fn, 0)                  \
  X(prior_grad, pvi_factor_fn, 0)                   \
  X(prior_dims, pvi_dims_fn, 0)                     \
  X(partition_value, pvi_factor_fn, 1)              \
  X(partition_grad, pvi_factor_fn, 1)               \
  X(partition_dims, pvi_dims_fn, 1)                 \
  X(shared_counts, pvi_counts_fn, 0)                \
  X(shared_check, pvi_check_fn, 0)                  \
  X(partition_counts, pvi_counts_fn, 1)             \
  X(partition_check, pvi_check_fn, 1)               \
  X(constrain_globals, pvi_output_fn, 0)            \
  X(constrain_globals_size, pvi_dims_fn, 0)         \
  X(constrain_locals, pvi_output_fn, 1)             \
  X(constrain_locals_size, pvi_dims_fn, 1)          \
  X(generate_shared, pvi_generate_fn, 0)            \
  X(generate_shared_size, pvi_dims_fn, 0)           \
  X(generate_partition, pvi_generate_fn, 1)         \
  X(generate_partition_size, pvi_dims_fn, 1)        \
  X(unconstrain_globals, pvi_output_fn, 0)          \
  X(unconstrain_locals, pvi_output_fn, 1)           \
  X(shapes_globals, pvi_output_fn, 0)               \
  X(shapes_globals_size, pvi_dims_fn, 0)            \
  X(shapes_partition, pvi_output_fn, 1)             \
  X(shapes_partition_size, pvi_dims_fn, 1)          \
  X(transform_shared_counts, pvi_generate_fn, 0)    \
  X(transform_shared, pvi_generate_fn, 0)           \
  X(transform_partition_counts, pvi_generate_fn, 1) \
  X(transform_partition, pvi_generate_fn, 1)        \
  X(shared_counts_transformed, pvi_counts_fn, 0)    \
  X(shared_check_transformed, pvi_check_fn, 0)      \
  X(partition_counts_transformed, pvi_counts_fn, 1) \
  X(partition_check_transformed, pvi_check_fn, 1)

/* The symbol of a member in an AOT object (and in the JIT's module), e.g. "pvi_prior_dims". */
#define PVI_ABI_SYMBOL(member) "pvi_" #member

/* The generated code of one model. */
typedef struct pvi_model_code {
#define PVI_MODEL_CODE_MEMBER(member, type, partition) type member;
  PVI_MODEL_CODE_FUNCTIONS(PVI_MODEL_CODE_MEMBER)
#undef PVI_MODEL_CODE_MEMBER
} pvi_model_code;

/* An AOT object also defines `const char pvi_model_info[]`: the model's description
 * (runtime/model/ModelInfo.hpp) as JSON, NUL-terminated, with its "abi_version". */
#define PVI_MODEL_INFO_SYMBOL "pvi_model_info"

#ifdef __cplusplus
}
#endif

#endif
