#include "compiler/driver/LowerSource.hpp"

namespace pvi {

std::unique_ptr<LoweredSource> lowerSource(std::string path, std::string text) {
  auto out = std::make_unique<LoweredSource>(LoweredSource{runFrontend(std::move(path), std::move(text)), std::nullopt});
  if (out->front.ok()) out->model = lowerModel(*out->front.checked, *out->front.diags);
  return out;
}

}  // namespace pvi
