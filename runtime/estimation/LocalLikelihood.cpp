#include "runtime/estimation/LocalLikelihood.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace pvi::estimation {

double LocalLikelihood::evaluateMiniBatch(const std::vector<std::size_t>&, const double*, const double*, double*,
                                          double*) const {
  throw std::logic_error("this likelihood does not support mini-batches (numObservations() == 0)");
}

double LocalLikelihood::evaluateAt(const double*, const double* z, const double* w, double* gradZ, double* gradW,
                                   double*) const {
  if (hyperDim() > 0) throw std::logic_error("this likelihood has hyperparameters but does not implement evaluateAt");
  return evaluate(z, w, gradZ, gradW);
}

PartitionLikelihood::PartitionLikelihood(const FactorModel& model, std::size_t partition, std::vector<double> theta,
                                         const ExactExpectationsProvider* exact)
    : model_(model), partition_(partition), theta_(std::move(theta)), exact_(exact) {
  if (partition >= model.numPartitions())
    throw std::invalid_argument("PartitionLikelihood: partition " + std::to_string(partition) + " out of range (" +
                                std::to_string(model.numPartitions()) + " partitions)");
  if (theta_.size() != model.hyperDim())
    throw std::invalid_argument("PartitionLikelihood: theta has " + std::to_string(theta_.size()) +
                                " entries, the model " + std::to_string(model.hyperDim()));
}

double PartitionLikelihood::evaluate(const double* z, const double* w, double* gradZ, double* gradW) const {
  return evaluateAt(theta_.empty() ? nullptr : theta_.data(), z, w, gradZ, gradW, nullptr);
}

double PartitionLikelihood::evaluateAt(const double* theta, const double* z, const double* w, double* gradZ,
                                       double* gradW, double* gradTheta) const {
  return model_.partitionLogDensity(partition_, z, w, theta, gradZ, gradW, gradTheta);
}

std::optional<ExactExpectations> PartitionLikelihood::exactExpectations(const Eigen::VectorXd& mz,
                                                                        const Eigen::MatrixXd& Sz,
                                                                        const Eigen::VectorXd& mw,
                                                                        const Eigen::VectorXd& vw) const {
  if (!exact_) return std::nullopt;
  return exact_->partitionExpectations(partition_, mz, Sz, mw, vw);
}

PriorLikelihood::PriorLikelihood(const FactorModel& model, std::vector<double> theta,
                                 const ExactExpectationsProvider* exact)
    : model_(model), theta_(std::move(theta)), exact_(exact) {
  if (theta_.size() != model.hyperDim())
    throw std::invalid_argument("PriorLikelihood: theta has " + std::to_string(theta_.size()) + " entries, the model " +
                                std::to_string(model.hyperDim()));
}

double PriorLikelihood::evaluate(const double* z, const double* w, double* gradZ, double* gradW) const {
  return evaluateAt(theta_.empty() ? nullptr : theta_.data(), z, w, gradZ, gradW, nullptr);
}

double PriorLikelihood::evaluateAt(const double* theta, const double* z, const double*, double* gradZ, double*,
                                   double* gradTheta) const {
  return model_.priorLogDensity(z, theta, gradZ, gradTheta);
}

std::optional<ExactExpectations> PriorLikelihood::exactExpectations(const Eigen::VectorXd& mz,
                                                                    const Eigen::MatrixXd& Sz, const Eigen::VectorXd&,
                                                                    const Eigen::VectorXd&) const {
  if (!exact_) return std::nullopt;
  return exact_->priorExpectations(mz, Sz);
}

}  // namespace pvi::estimation
