#pragma once
// Plain gradient ascent on the natural parameters of q', the local step of Property 3.1
// (Ashman et al. 2022, "Partitioned Variational Inference", Section 3.2 and Appendix B.4): starting from q' = q,
//
//   eta_q' <- eta_q' + lr * dF_k / d eta_q',   dF_k / d eta = C(eta) (d/dmu E_q'[f_k] + eta_cav - eta),
//
// with C the Fisher information (GaussianCalculus.hpp, fisherProduct) and d/dmu E[f] = (g - H m,
// H / 2) from the Stein / Price estimator (or the exact hook). Because a client's message is the
// change of eta and the server adds the changes, synchronous PVI with steps = 1 and damping 1
// follows exactly the iterates of global VI's gradient ascent on eta with the same random draws
// (GlobalVI.hpp), whatever the partition: the sum over clients of dF_k/deta at q is dF/deta.
//
// With several steps it is an ordinary (non-natural) gradient optimiser of F_k. A step that would
// make q' invalid is halved at most maxHalvings times (the first step failing fails the update).
// Local latents take the same step on their own natural parameters (no cavity).
#include <cstddef>

#include "runtime/federation/LocalOptimiser.hpp"

namespace pvi::algorithms {

struct GradientStepOptions {
  double learningRate = 1e-3;
  std::size_t steps = 1;
  std::size_t samples = 16;
  std::size_t maxHalvings = 20;
  bool useExactExpectations = false;
};

template <class Family>
class GradientStepOptimiser final : public federation::LocalOptimiser<Family> {
 public:
  explicit GradientStepOptimiser(GradientStepOptions options = {});
  federation::LocalSolution<Family> optimise(const federation::LocalProblem<Family>& problem) const override;
  std::string name() const override { return "gradient ascent on natural parameters"; }

 private:
  GradientStepOptions options_;
};

}  // namespace pvi::algorithms
