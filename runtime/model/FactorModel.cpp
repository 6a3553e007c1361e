#include "runtime/model/FactorModel.hpp"

namespace pvi {

double jointLogDensity(const FactorModel& model, const double* z, const std::vector<const double*>& w,
                       const double* theta, double* gradZ) {
  const size_t d = model.globalDim();
  std::vector<double> g(gradZ ? d : 0);
  double value = model.priorLogDensity(z, theta, gradZ, nullptr);
  for (size_t j = 0; j < model.numPartitions(); ++j) {
    const double* wj = j < w.size() ? w[j] : nullptr;
    value += model.partitionLogDensity(j, z, wj, theta, gradZ ? g.data() : nullptr, nullptr, nullptr);
    if (gradZ)
      for (size_t i = 0; i < d; ++i) gradZ[i] += g[i];
  }
  return value;
}

}  // namespace pvi
