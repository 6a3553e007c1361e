#pragma once
// Adam (Kingma and Ba 2014) as plain state and one update function, for every algorithm that
// ascends a stochastic objective over a flat parameter vector (PVI's local optimiser today; SFVI,
// SFVI-Avg and hyperparameter learning next). The caller owns the parameters and the gradient;
// the state holds only the two moment estimates and the step count.
#include <Eigen/Core>
#include <cstddef>

namespace pvi::optim {

struct AdamSettings {
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
};

struct AdamState {
  Eigen::VectorXd firstMoment;
  Eigen::VectorXd secondMoment;
  std::size_t steps = 0;  // updates applied so far

  AdamState() = default;
  explicit AdamState(Eigen::Index size)
      : firstMoment(Eigen::VectorXd::Zero(size)), secondMoment(Eigen::VectorXd::Zero(size)) {}
};

// One step of gradient *ascent*: params += learningRate * mhat / (sqrt(vhat) + epsilon), with the
// bias-corrected moments of the gradients seen so far. Sizes must agree.
void adamAscend(AdamState& state, Eigen::Ref<Eigen::VectorXd> params, const Eigen::Ref<const Eigen::VectorXd>& gradient,
                double learningRate, const AdamSettings& settings = {});

// The learning rate of step `step` (1-based) of `steps`, decayed linearly from `initial` to
// finalFraction * initial at the last step (finalFraction 1: constant).
double linearlyDecayed(double initial, double finalFraction, std::size_t step, std::size_t steps);

}  // namespace pvi::optim
