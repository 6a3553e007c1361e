#include "runtime/app/LinkedModel.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

// Weak, so that a model without a partition (no pvi_partition_* functions) still links; a
// missing required symbol is then a null pointer, reported below. The declarations come from
// the factor ABI's list, so they have its types and symbols.
extern "C" {
#define PVI_DECLARE_FUNCTION(member, type, partition) std::remove_pointer_t<type> pvi_##member __attribute__((weak));
PVI_MODEL_CODE_FUNCTIONS(PVI_DECLARE_FUNCTION)
#undef PVI_DECLARE_FUNCTION
extern const char pvi_model_info[] __attribute__((weak));
}

namespace pvi {

LoadedModel loadModelObject(const char* info, const pvi_model_code& code) {
  if (info == nullptr || code.prior_value == nullptr)
    throw std::runtime_error("this executable contains no compiled model (build it with 'pvic build')");
  LoadedModel m;
  // Refuses a description (and so code) compiled for another factor ABI version.
  m.info = modelInfoFromJson(info);
  m.code = code;
  const bool partitioned = !m.info.data.partitionName.empty();
#define PVI_REQUIRE_FUNCTION(member, type, partition)                                                \
  if ((!(partition) || partitioned) && code.member == nullptr)                                       \
    throw std::runtime_error("the compiled model lacks the function " PVI_ABI_SYMBOL(member) " (rebuild it " \
                             "with 'pvic build')");
  PVI_MODEL_CODE_FUNCTIONS(PVI_REQUIRE_FUNCTION)
#undef PVI_REQUIRE_FUNCTION
  m.source = m.info.name;
  return m;
}

LoadedModel linkedModel() {
  pvi_model_code c{};
#define PVI_TAKE_FUNCTION(member, type, partition) c.member = pvi_##member;
  PVI_MODEL_CODE_FUNCTIONS(PVI_TAKE_FUNCTION)
#undef PVI_TAKE_FUNCTION
  return loadModelObject(pvi_model_info, c);
}

}  // namespace pvi
