#pragma once
// What a sampler draws from: an unnormalised log density over R^dim with its gradient. The
// runtime adapts JointDensity (runtime/model/) to it; tests use closed-form targets.
#include <cstddef>
#include <functional>
#include <string>

namespace pvi::samplers {

struct Target {
  std::size_t dim = 0;
  // log p(x) up to a constant; writes d/dx log p(x) to `gradient` (dim entries). May return -inf
  // or NaN outside the support: the sampler treats that as infinite energy. Must be safe to call
  // from several threads at once (each chain runs on its own thread).
  std::function<double(const double* x, double* gradient)> logDensity;
  // Optional: on the calling thread, why the last log density that was not finite was so (a
  // statement, a reject), for the sampler's messages; empty when not known.
  std::function<std::string()> whyNotFinite;
};

}  // namespace pvi::samplers
