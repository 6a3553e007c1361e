#pragma once
#include <stdexcept>

namespace pvi::samplers {

// A sampler that cannot proceed: no finite starting point, a step size that runs away.
class SamplerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace pvi::samplers
