#include "runtime/model/JointDensity.hpp"

#include <algorithm>
#include <stdexcept>

namespace pvi {

JointDensity::JointDensity(const FactorModel& model, HyperParameters hyper, std::vector<double> theta)
    : model_(model), hyper_(hyper), fixedTheta_(std::move(theta)) {
  if (hyper_ == HyperParameters::Fixed) {
    if (fixedTheta_.empty()) fixedTheta_.assign(model.hyperDim(), 0.0);
    if (fixedTheta_.size() != model.hyperDim())
      throw std::invalid_argument("JointDensity: the model has " + std::to_string(model.hyperDim()) +
                                  " hyperparameters, but " + std::to_string(fixedTheta_.size()) + " values were given");
  } else if (!fixedTheta_.empty()) {
    throw std::invalid_argument("JointDensity: theta is part of x; give fixed values only with HyperParameters::Fixed");
  }
  std::size_t offset = model.globalDim();
  for (std::size_t j = 0; j < model.numPartitions(); ++j) {
    localOffsets_.push_back(offset);
    offset += model.localDim(j);
  }
  hyperOffset_ = offset;
  dim_ = offset + (hyper_ == HyperParameters::Sampled ? model.hyperDim() : 0);
}

double JointDensity::logDensity(const double* x, double* gradient) const {
  const std::size_t d = model_.globalDim(), h = model_.hyperDim();
  const bool sampled = hyper_ == HyperParameters::Sampled;
  const double* theta = sampled ? x + hyperOffset_ : fixedTheta_.data();
  if (h == 0) theta = nullptr;
  if (!gradient) {
    double value = model_.priorLogDensity(x, theta, nullptr, nullptr);
    for (std::size_t j = 0; j < model_.numPartitions(); ++j)
      value += model_.partitionLogDensity(j, x, model_.localDim(j) ? x + localOffsets_[j] : nullptr, theta, nullptr,
                                          nullptr, nullptr);
    return value;
  }
  // Factors write (not add) their gradients: each partition's z and theta parts go to scratch and
  // are summed; its w part has a block of its own in `gradient`.
  std::fill(gradient, gradient + dim_, 0.0);
  // One scratch buffer per thread: a sampler calls this for every leapfrog step.
  thread_local std::vector<double> scratch;
  scratch.resize(d + h);
  double* gradTheta = sampled && h > 0 ? gradient + hyperOffset_ : nullptr;
  double* scratchTheta = sampled && h > 0 ? scratch.data() + d : nullptr;
  double value = model_.priorLogDensity(x, theta, gradient, gradTheta);
  for (std::size_t j = 0; j < model_.numPartitions(); ++j) {
    const std::size_t dw = model_.localDim(j);
    std::fill(scratch.begin(), scratch.end(), 0.0);
    value += model_.partitionLogDensity(j, x, dw ? x + localOffsets_[j] : nullptr, theta, scratch.data(),
                                        dw ? gradient + localOffsets_[j] : nullptr, scratchTheta);
    for (std::size_t i = 0; i < d; ++i) gradient[i] += scratch[i];
    if (gradTheta)
      for (std::size_t i = 0; i < h; ++i) gradTheta[i] += scratchTheta[i];
  }
  return value;
}

std::vector<std::string> JointDensity::names() const {
  std::vector<std::string> out = model_.globalNames();
  for (std::size_t j = 0; j < model_.numPartitions(); ++j)
    for (std::size_t k = 0; k < model_.localDim(j); ++k)
      out.push_back("w." + std::to_string(j + 1) + "." + std::to_string(k + 1));
  if (samplesHyperParameters())
    for (std::size_t k = 0; k < model_.hyperDim(); ++k) out.push_back("theta." + std::to_string(k + 1));
  return out;
}

}  // namespace pvi
