#include "runtime/optim/Adam.hpp"

#include <cmath>
#include <stdexcept>

namespace pvi::optim {

void adamAscend(AdamState& state, Eigen::Ref<Eigen::VectorXd> params, const Eigen::Ref<const Eigen::VectorXd>& gradient,
                double learningRate, const AdamSettings& s) {
  if (params.size() != gradient.size() || state.firstMoment.size() != params.size() ||
      state.secondMoment.size() != params.size())
    throw std::invalid_argument("adamAscend: parameters, gradient and state differ in size");
  const auto t = static_cast<double>(++state.steps);
  state.firstMoment = s.beta1 * state.firstMoment + (1.0 - s.beta1) * gradient;
  state.secondMoment = s.beta2 * state.secondMoment + (1.0 - s.beta2) * gradient.cwiseProduct(gradient);
  const double c1 = 1.0 - std::pow(s.beta1, t);
  const double c2 = 1.0 - std::pow(s.beta2, t);
  params.array() +=
      learningRate * (state.firstMoment.array() / c1) / ((state.secondMoment.array() / c2).sqrt() + s.epsilon);
}

double linearlyDecayed(double initial, double finalFraction, std::size_t step, std::size_t steps) {
  const double progress = steps > 1 ? static_cast<double>(step - 1) / static_cast<double>(steps - 1) : 0.0;
  return initial * (1.0 - (1.0 - finalFraction) * progress);
}

}  // namespace pvi::optim
