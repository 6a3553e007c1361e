#include "runtime/diagnostics/Diagnostics.hpp"

namespace pvi::diagnostics {

Diagnostics diagnose(const IterationsByChains& draws) {
  return {rhat(draws), essBulk(draws), essTail(draws), mcseMean(draws), mcseSd(draws)};
}

}  // namespace pvi::diagnostics
