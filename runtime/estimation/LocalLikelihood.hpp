#pragma once
// What a PVI client optimises against: its log-likelihood term f_k, a function of the global
// latents z and (for models with local latents) of its private locals w_k,
//
//   data client k:   f_k(z, w_k) = log p(w_k | z, theta) + log p(y_k | z, w_k, theta)
//                    (FactorModel::partitionLogDensity of partition k - 1);
//   prior "client":  f_0(z)      = log p(z, theta)   (FactorModel::priorLogDensity), used only when
//                    the prior is not exactly Gaussian and the server refines factor 0 like a
//                    client with no data (design section 6).
//
// Optional hooks a likelihood may provide:
//   exactExpectations: E_q[f], E_q[grad f] and E_q[hess f] in closed form under a Gaussian
//     q(z) q(w) (for example when f is quadratic). The natural-gradient optimiser uses them instead
//     of Monte Carlo when present, which makes PVI deterministic and lets conjugate models reach
//     the exact posterior to rounding. No finite differences anywhere.
//   mini-batches (numObservations > 0 and evaluateMiniBatch): an unbiased estimate of f from a
//     subset of the client's observations, used by the Adam optimiser when asked to mini-batch.
//     FactorModel evaluates a whole partition, so PartitionLikelihood does not provide it; a
//     subclass (or a hand-written likelihood) may.
//
// Implementations must be safe to call concurrently from several threads (clients run on a
// thread pool); the adapters below are, when the FactorModel is (CompiledModel is).
#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <vector>

#include "runtime/model/FactorModel.hpp"

namespace pvi::estimation {

// Closed-form expectations under q(z) = N(mz, Sz) and, with locals, q(w) = N(mw, diag(vw)).
struct ExactExpectations {
  double value = 0.0;         // E[f]
  Eigen::VectorXd gradZ;      // E[grad_z f]
  Eigen::MatrixXd hessZ;      // E[hess_zz f] (D x D, symmetric)
  Eigen::VectorXd gradW;      // E[grad_w f]           (empty without locals)
  Eigen::VectorXd hessWDiag;  // diag E[hess_ww f]     (empty without locals)
};

class LocalLikelihood {
 public:
  virtual ~LocalLikelihood() = default;

  virtual std::size_t globalDim() const = 0;          // dim z
  virtual std::size_t localDim() const { return 0; }  // dim w_k

  // f(z, w) and, where the pointers are not null, its gradients. w is null when localDim() == 0.
  virtual double evaluate(const double* z, const double* w, double* gradZ, double* gradW) const = 0;

  // Hyperparameters theta of f (the model's, unconstrained): f(z, w; theta) at the given theta
  // (hyperDim() entries) with its gradient over theta where gradTheta is not null, for algorithms
  // that learn theta. `evaluate` uses the likelihood's fixed theta. A likelihood without
  // hyperparameters ignores theta.
  virtual std::size_t hyperDim() const { return 0; }
  virtual double evaluateAt(const double* theta, const double* z, const double* w, double* gradZ, double* gradW,
                            double* gradTheta) const;

  // Whether exactExpectations may answer (false: it always returns nullopt, and callers need not
  // build the D x D covariance it takes).
  virtual bool offersExactExpectations() const { return false; }
  virtual std::optional<ExactExpectations> exactExpectations(const Eigen::VectorXd& /*mz*/,
                                                             const Eigen::MatrixXd& /*Sz*/,
                                                             const Eigen::VectorXd& /*mw*/,
                                                             const Eigen::VectorXd& /*vw*/) const {
    return std::nullopt;
  }

  // Mini-batching: 0 means unsupported. When supported, evaluateMiniBatch returns an unbiased
  // estimate of f (and its gradients) from the observations `rows` (indices < numObservations()),
  // scaling the likelihood part by numObservations() / rows.size().
  virtual std::size_t numObservations() const { return 0; }
  virtual double evaluateMiniBatch(const std::vector<std::size_t>& rows, const double* z, const double* w,
                                   double* gradZ, double* gradW) const;
};

// A source of closed-form expectations for a model's factors, for tests and conjugate models:
// a FactorModel subclass may also implement this and be handed to makeFederation.
class ExactExpectationsProvider {
 public:
  virtual ~ExactExpectationsProvider() = default;
  virtual std::optional<ExactExpectations> partitionExpectations(std::size_t partition, const Eigen::VectorXd& mz,
                                                                 const Eigen::MatrixXd& Sz, const Eigen::VectorXd& mw,
                                                                 const Eigen::VectorXd& vw) const = 0;
  // The prior's term log p(z) (used when the prior is refined as factor 0); none by default.
  virtual std::optional<ExactExpectations> priorExpectations(const Eigen::VectorXd& /*mz*/,
                                                             const Eigen::MatrixXd& /*Sz*/) const {
    return std::nullopt;
  }
};

// f_k = partitionLogDensity(partition, ...) at fixed hyperparameters theta.
class PartitionLikelihood final : public LocalLikelihood {
 public:
  // `model` (and `exact`, when given) must outlive this object.
  PartitionLikelihood(const FactorModel& model, std::size_t partition, std::vector<double> theta,
                      const ExactExpectationsProvider* exact = nullptr);

  std::size_t globalDim() const override { return model_.globalDim(); }
  std::size_t localDim() const override { return model_.localDim(partition_); }
  double evaluate(const double* z, const double* w, double* gradZ, double* gradW) const override;
  std::size_t hyperDim() const override { return model_.hyperDim(); }
  double evaluateAt(const double* theta, const double* z, const double* w, double* gradZ, double* gradW,
                    double* gradTheta) const override;
  bool offersExactExpectations() const override { return exact_ != nullptr; }
  std::optional<ExactExpectations> exactExpectations(const Eigen::VectorXd& mz, const Eigen::MatrixXd& Sz,
                                                     const Eigen::VectorXd& mw,
                                                     const Eigen::VectorXd& vw) const override;
  std::size_t partition() const { return partition_; }

 private:
  const FactorModel& model_;
  std::size_t partition_;
  std::vector<double> theta_;
  const ExactExpectationsProvider* exact_;
};

// f_0 = priorLogDensity at fixed theta: the prior refined as a client with no data.
class PriorLikelihood final : public LocalLikelihood {
 public:
  PriorLikelihood(const FactorModel& model, std::vector<double> theta,
                  const ExactExpectationsProvider* exact = nullptr);
  std::size_t globalDim() const override { return model_.globalDim(); }
  double evaluate(const double* z, const double* w, double* gradZ, double* gradW) const override;
  std::size_t hyperDim() const override { return model_.hyperDim(); }
  double evaluateAt(const double* theta, const double* z, const double* w, double* gradZ, double* gradW,
                    double* gradTheta) const override;
  bool offersExactExpectations() const override { return exact_ != nullptr; }
  std::optional<ExactExpectations> exactExpectations(const Eigen::VectorXd& mz, const Eigen::MatrixXd& Sz,
                                                     const Eigen::VectorXd& mw,
                                                     const Eigen::VectorXd& vw) const override;

 private:
  const FactorModel& model_;
  std::vector<double> theta_;
  const ExactExpectationsProvider* exact_;
};

}  // namespace pvi::estimation
