#pragma once
// A model as the inference runtime sees it (design section 5): a prior factor over the
// unconstrained global latents z and hyperparameters theta, and one factor per partition over
// (z, w_j, theta), where w_j are partition j's unconstrained local latents.
//
// Compiled models (JIT or AOT) implement this through the factor ABI; tests implement it with
// hand-written C++ factors. The runtime never sees a compiler or LLVM header.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pvi {

// The prior over z when it is exactly Gaussian: N(mean, covariance), covariance row-major D x D;
// or, when `variances` is not empty, N(mean, diag(variances)) with `covariance` empty (no D x D
// array for large independent priors).
struct GaussianPrior {
  std::vector<double> mean;
  std::vector<double> covariance;
  std::vector<double> variances;
};

class FactorModel {
 public:
  virtual ~FactorModel() = default;

  virtual size_t globalDim() const = 0;          // dim z
  virtual size_t hyperDim() const { return 0; }  // dim theta
  virtual size_t numPartitions() const = 0;
  // How messages name partition j: its label from the data, or j + 1.
  virtual std::string partitionLabel(size_t partition) const { return std::to_string(partition + 1); }
  virtual size_t localDim(size_t /*partition*/) const { return 0; }  // dim w_j
  // How many observations partition j holds, for algorithms that weight a partition by its share
  // of the data (SFVI-Avg's N / N_j); 1 when the model cannot tell (every partition alike).
  virtual double partitionObservations(size_t /*partition*/) const { return 1.0; }

  // log p(z, theta), including the log-Jacobians of the transforms of the globals and
  // hyperparameters. When a gradient pointer is not null, the gradient is written there.
  virtual double priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const = 0;

  // log p(w_j | z, theta) + log p(y_j | z, w_j, theta), including the log-Jacobians of the
  // transforms of w_j. Gradients are written where the pointers are not null.
  virtual double partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta,
                                     double* gradZ, double* gradW, double* gradTheta) const = 0;

  // The mean and covariance of z's prior when the prior factor is exactly Gaussian and does not
  // depend on theta, so PVI can hold it exactly as factor 0; std::nullopt otherwise.
  virtual std::optional<GaussianPrior> gaussianPrior() const { return std::nullopt; }

  // Names of the unconstrained coordinates of z ("beta.1", ...), for output.
  virtual std::vector<std::string> globalNames() const {
    std::vector<std::string> names;
    for (size_t i = 0; i < globalDim(); ++i) names.push_back("z." + std::to_string(i + 1));
    return names;
  }

  // For each unconstrained coordinate of z: whether the program gives its variable a proper prior
  // (ModelInfo's VariableInfo::properPrior). A fit uses it to tell a density without a maximum (a
  // funnel) from an improper posterior. False where not known.
  virtual std::vector<bool> globalsWithProperPrior() const { return std::vector<bool>(globalDim(), false); }
};

}  // namespace pvi
