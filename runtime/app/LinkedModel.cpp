#include "runtime/app/LinkedModel.hpp"

#include <stdexcept>

// Weak, so that a model without a partition (no pvi_partition_* functions) still links; a
// missing required symbol is then a null pointer, reported below.
extern "C" {
#define PVI_FACTOR(name)                                                                                   \
  double name(const double*, const double*, const double*, const void* const*, const void* const*, double*, \
              double*, double*, void*, int64_t, int64_t*) __attribute__((weak));
#define PVI_DIMS(name) void name(const void* const*, const void* const*, int64_t*) __attribute__((weak));
#define PVI_CHECK(name) \
  double name(const void* const*, const void* const*, void*, int64_t, int64_t*, int64_t*) __attribute__((weak));
#define PVI_OUTPUT(name)                                                                                     \
  double name(const double*, const double*, const double*, const void* const*, const void* const*, double*, \
              void*, int64_t, int64_t*) __attribute__((weak));
PVI_FACTOR(pvi_prior_value)
PVI_FACTOR(pvi_prior_grad)
PVI_DIMS(pvi_prior_dims)
PVI_FACTOR(pvi_partition_value)
PVI_FACTOR(pvi_partition_grad)
PVI_DIMS(pvi_partition_dims)
PVI_DIMS(pvi_shared_counts)
PVI_CHECK(pvi_shared_check)
PVI_DIMS(pvi_partition_counts)
PVI_CHECK(pvi_partition_check)
PVI_OUTPUT(pvi_constrain_globals)
PVI_DIMS(pvi_constrain_globals_size)
PVI_OUTPUT(pvi_constrain_locals)
PVI_DIMS(pvi_constrain_locals_size)
PVI_OUTPUT(pvi_generate_shared)
PVI_DIMS(pvi_generate_shared_size)
PVI_OUTPUT(pvi_generate_partition)
PVI_DIMS(pvi_generate_partition_size)
PVI_OUTPUT(pvi_unconstrain_globals)
PVI_OUTPUT(pvi_unconstrain_locals)
PVI_OUTPUT(pvi_shapes_globals)
PVI_DIMS(pvi_shapes_globals_size)
PVI_OUTPUT(pvi_shapes_partition)
PVI_DIMS(pvi_shapes_partition_size)
extern const char pvi_model_info[] __attribute__((weak));
}

namespace pvi {

LoadedModel linkedModel() {
  if (pvi_model_info == nullptr || pvi_prior_value == nullptr || pvi_prior_grad == nullptr)
    throw std::runtime_error("this executable contains no compiled model (build it with 'pvic build')");
  LoadedModel m;
  m.info = modelInfoFromJson(pvi_model_info);
  pvi_model_code& c = m.code;
  c.prior_value = pvi_prior_value;
  c.prior_grad = pvi_prior_grad;
  c.prior_dims = pvi_prior_dims;
  c.partition_value = pvi_partition_value;
  c.partition_grad = pvi_partition_grad;
  c.partition_dims = pvi_partition_dims;
  c.shared_counts = pvi_shared_counts;
  c.shared_check = pvi_shared_check;
  c.partition_counts = pvi_partition_counts;
  c.partition_check = pvi_partition_check;
  c.constrain_globals = pvi_constrain_globals;
  c.constrain_globals_size = pvi_constrain_globals_size;
  c.constrain_locals = pvi_constrain_locals;
  c.constrain_locals_size = pvi_constrain_locals_size;
  c.generate_shared = pvi_generate_shared;
  c.generate_shared_size = pvi_generate_shared_size;
  c.generate_partition = pvi_generate_partition;
  c.generate_partition_size = pvi_generate_partition_size;
  c.unconstrain_globals = pvi_unconstrain_globals;
  c.unconstrain_locals = pvi_unconstrain_locals;
  c.shapes_globals = pvi_shapes_globals;
  c.shapes_globals_size = pvi_shapes_globals_size;
  c.shapes_partition = pvi_shapes_partition;
  c.shapes_partition_size = pvi_shapes_partition_size;
  m.source = m.info.name;
  return m;
}

}  // namespace pvi
