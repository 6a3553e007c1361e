#pragma once
// The pvic embedding API: compile a .pvi model in-process (LLVM JIT), bind data, evaluate its
// factors, fit it, and read the posterior. In the spirit of BridgeStan: log densities and
// gradients per factor, constrain / unconstrain, names; evaluation is thread-safe. Errors are
// exceptions whose messages say what is wrong and where.
//
//   pvi::Model model = pvi::Model::fromFile("model.pvi");
//   pvi::DataSources files;
//   files.sharedJson = "data.json";
//   files.partitionCsv = "data_per_district.csv";
//   pvi::BoundModel bound = model.bind(files);
//   pvi::Posterior posterior = bound.fit();
//   posterior.constrainedMean();   // by bound.parameterNames()
//
// Link with the CMake target pvi::pvi (find_package(pvi)); see examples/embed.
#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "runtime/data/LoadData.hpp"
#include "runtime/fit/Fit.hpp"
#include "runtime/fit/FitOptions.hpp"
#include "runtime/fit/PosteriorDraws.hpp"
#include "runtime/model/CompiledModel.hpp"
#include "runtime/model/ModelInfo.hpp"

namespace pvi {

// The model does not compile; what() holds every diagnostic, as pvic check prints them.
class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class BoundModel;
class Posterior;

// Values for in-memory binding, by variable name (matrices as Eigen matrices, column-major as
// the model stores them). The variables are put in the model's declaration order when bound.
class NamedData {
 public:
  using Value = std::variant<int64_t, double, std::vector<int64_t>, Eigen::VectorXd, Eigen::MatrixXd>;
  NamedData& set(const std::string& name, Value value);
  NamedData& set(const std::string& name, int value) { return set(name, Value(int64_t{value})); }
  // Any Eigen vector or matrix expression (a column vector binds as a vector).
  template <class Derived>
  NamedData& set(const std::string& name, const Eigen::MatrixBase<Derived>& value) {
    if constexpr (Derived::ColsAtCompileTime == 1) return set(name, Value(Eigen::VectorXd(value)));
    else return set(name, Value(Eigen::MatrixXd(value)));
  }
  const std::vector<std::pair<std::string, Value>>& values() const { return values_; }

 private:
  std::vector<std::pair<std::string, Value>> values_;
};

// A compiled model without data. Cheap to copy (the generated code is shared).
class Model {
 public:
  // Throw CompileError (invalid model) or std::runtime_error (unreadable file).
  static Model fromFile(const std::string& path);
  static Model fromString(const std::string& source, const std::string& name = "model");

  const ModelInfo& info() const;

  // Bind data from files, from texts, or from values in memory. Throw DataError naming the
  // variable, partition and element (or file and line) of anything that does not fit.
  BoundModel bind(const DataSources& files) const;
  BoundModel bind(const DataTexts& texts) const;
  BoundModel bind(const NamedData& shared, const std::vector<NamedData>& partitions,
                  std::vector<std::string> labels = {}) const;

  struct Impl;

 private:
  explicit Model(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  BoundModel bindLoaded(BoundData data) const;
  std::shared_ptr<const Impl> impl_;
};

// A model with its data. Evaluation is thread-safe; fit() may be called several times.
class BoundModel {
 public:
  // Per-factor log densities and gradients, dimensions, partition labels, output maps
  // (CompiledModel, a FactorModel).
  const CompiledModel& factors() const { return *model_; }

  std::size_t dimZ() const { return model_->globalDim(); }
  std::size_t dimTheta() const { return model_->hyperDim(); }
  std::size_t numPartitions() const { return model_->numPartitions(); }
  std::size_t dimW(std::size_t partition) const { return model_->localDim(partition); }

  // log p(z, w, y | theta): the prior and every partition's factor, with the gradient over z
  // when gradZ is given. w holds each partition's unconstrained locals (may be empty for models
  // without locals); theta empty means zeros.
  double logDensity(const Eigen::VectorXd& z, const std::vector<Eigen::VectorXd>& w = {},
                    const Eigen::VectorXd& theta = {}, Eigen::VectorXd* gradZ = nullptr) const;

  // Names of the constrained globals then hyperparameters ("beta.1", ...), and the maps.
  std::vector<std::string> parameterNames() const;
  Eigen::VectorXd constrain(const Eigen::VectorXd& z, const Eigen::VectorXd& theta = {}) const;
  // Returns z then theta; throws std::invalid_argument for a value outside its bounds.
  Eigen::VectorXd unconstrain(const Eigen::VectorXd& constrained) const;

  // Throws FitConfigurationError for bad options. `afterRound` sees a variational fit's rounds,
  // `chainProgress` a sampler's chains (options.algorithm = Algorithm::Nuts; from their threads).
  Posterior fit(const FitOptions& options = {}, const RoundCallback& afterRound = {},
                const samplers::ProgressCallback& chainProgress = {}) const;

 private:
  friend class Model;
  friend class Posterior;
  std::shared_ptr<const Model::Impl> code_;  // keeps the generated code alive
  std::shared_ptr<const CompiledModel> model_;
};

// A fitted posterior: a Gaussian approximation q(z) with each partition's q(w_j), or a sampler's
// draws (result().posterior says which; result().mixing how well a sampler's chains mixed).
class Posterior {
 public:
  const FitResult& result() const { return result_; }
  bool sampled() const { return result_.posterior.isSampled(); }
  // Of z, unconstrained: q(z)'s mean and covariance, or the draws' mean and sample covariance.
  const Eigen::VectorXd& mean() const { return mean_; }
  Eigen::MatrixXd covariance() const;
  // By BoundModel::parameterNames(): q(z)'s mean mapped to constrained space, or for draws the
  // mean of the constrained draws (the posterior mean of each constrained parameter).
  Eigen::VectorXd constrainedMean() const;
  // Joint draws in constrained space with generated quantities (PosteriorDraws.hpp).
  PosteriorDraws draws(std::size_t n, std::uint64_t seed = 1) const;

 private:
  friend class BoundModel;
  std::shared_ptr<const Model::Impl> code_;
  std::shared_ptr<const CompiledModel> model_;
  FitResult result_;
  Eigen::VectorXd mean_;
};

}  // namespace pvi
