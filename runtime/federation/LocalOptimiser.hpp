#pragma once
// The client update step of Algorithm 1: maximise the local free energy
//
//   F_k(q') = E_q'[f_k] - KL(q' || cavity),   cavity = q / t_k,  eta_cav = eta_q - eta_k,
//
// over the family (and, with local latents, over the client's private q(w_k | z) too:
// F_k = E_{q'(z) q(w | z)}[f_k(z, w)] + H(q(w | z)) - KL(q' || cavity), the entropy of the
// conditional being the same for every z). The cavity may be improper (its
// precision need not be positive definite), so KL(q' || cavity) is used only up to the cavity's
// log-normaliser: -KL = <eta_cav, mu_q'> + H(q') + const, which has the same gradients.
//
// An optimiser is stateless and const (it may run for several clients at once, on several
// threads); everything it needs comes in a LocalProblem and everything it produces goes out in a
// LocalSolution. Implementations: LocalOptimiserAdam.hpp (Monte Carlo reparameterised gradients
// with Adam, the default), LocalOptimiserNaturalGradient.hpp (the damped fixed point of eq. (4)),
// LocalOptimiserGradientStep.hpp (plain gradient ascent on eta: global VI's dynamics).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/Gaussian.hpp"

namespace pvi::federation {

template <class Family>
struct LocalProblem {
  using Natural = typename Family::Natural;
  const estimation::LocalLikelihood* likelihood = nullptr;
  Natural posterior;                          // eta_q as received (a valid distribution)
  Natural factor;                             // eta_k, this client's current factor
  Natural cavity;                             // eta_q - eta_k (may be improper)
  std::optional<ConditionalGaussian> locals;  // q(w_k | z) at the start; empty without locals
  std::uint64_t seed = 0;                     // seeds every random draw of this update
  // Where q' starts, when not at `posterior` (a valid distribution): the client's warm start
  // (Client::setWarmStart). The solution's change is still relative to `posterior`.
  std::optional<Natural> start;
};

template <class Family>
struct LocalSolution {
  using Natural = typename Family::Natural;
  bool ok = false;
  std::string reason;                                           // why not ok
  Natural change;                                               // eta_q' - eta_q  (= eta_k' - eta_k); valid when ok
  std::optional<ConditionalGaussian> locals;                    // the optimised q(w_k | z)
  double objective = std::numeric_limits<double>::quiet_NaN();  // F_k estimate (+ const) at the end
  double initialExpectedLogLik = std::numeric_limits<double>::quiet_NaN();  // E_q[f_k] where q' started
  std::size_t steps = 0;                                                    // inner iterations taken
  std::size_t innerHalvings = 0;                                            // step halvings to keep q' valid
  bool stoppedEarly = false;
};

template <class Family>
class LocalOptimiser {
 public:
  virtual ~LocalOptimiser() = default;
  // Never throws for numerical trouble: a non-finite density, an invalid q' and the like come
  // back as ok == false with a reason (exceptions from the model are caught and reported).
  virtual LocalSolution<Family> optimise(const LocalProblem<Family>& problem) const = 0;
  virtual std::string name() const = 0;
};

// F_k at q' up to the cavity's log-normaliser: E[f] + <eta_cav, mu_q'> + H(q') (+ H(q(w | z))).
double localObjective(const FullNatural& cavity, const FullStandard& q, double expectedF,
                      const std::optional<ConditionalGaussian>& locals);
double localObjective(const MeanFieldNatural& cavity, const MeanFieldStandard& q, double expectedF,
                      const std::optional<ConditionalGaussian>& locals);

}  // namespace pvi::federation
