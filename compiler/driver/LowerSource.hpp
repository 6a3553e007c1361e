#pragma once
// Source text to a lowered model: the front end, then the lowering. Shared by `pvic run` and
// `pvic build`, the embedding API and the benchmarks.
#include <memory>
#include <optional>
#include <string>

#include "compiler/driver/Frontend.hpp"
#include "compiler/lower/Lower.hpp"

namespace pvi {

struct LoweredSource {
  FrontendResult front;               // its diagnostics say why `model` is missing
  std::optional<LoweredModel> model;  // set when the source checks and lowers
};

// On the heap, so that nothing the lowered model points into (the checked program) moves.
std::unique_ptr<LoweredSource> lowerSource(std::string path, std::string text);

}  // namespace pvi
