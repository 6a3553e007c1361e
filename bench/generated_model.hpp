#pragma once
#include <string>

namespace pvi::bench {

// A valid model with about `statements` statements across all blocks: per-partition data,
// globals, locals, loops, local variables, vectorised densities and generated quantities.
std::string generatedModel(int statements);

}  // namespace pvi::bench
