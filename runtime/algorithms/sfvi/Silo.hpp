#pragma once
// One silo of SFVI (SFVI paper, Algorithm 1): it holds its data (through its LocalLikelihood,
// f_j = log p(w_j | z, theta) + log p(y_j | z, w_j, theta)) and its private q(w_j | z)
// (families/ConditionalGaussian.hpp), neither of which ever leaves it.
//
// Each iteration it receives q(z) = N(m, L L^T), theta and the server's standard normals eps
// (z = m + L eps, the same draws in every silo), draws its own xi, and
//   - steps q(w_j | z) by Adam on the sticking-the-landing gradient of E[f_j] + H(q(w_j | z))
//     (estimation/Expectations.hpp), in white coordinates relative to the conditional at the
//     last `rebase` (algorithms/pvi/ConditionalCoordinates.hpp);
//   - returns the gradients of that term with respect to q(z)'s m and L, and E[grad_theta f_j],
//     computed at the conditional before the step (the paper's eta'_Lj), and the term's value per
//     draw (for the ELBO).
// q(w_j | z) is parameterised by its mean and sds at z = m (the paper's mbar_j): the conditional
// is re-anchored at the server's m each iteration.
#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <vector>

#include "runtime/algorithms/pvi/ConditionalCoordinates.hpp"
#include "runtime/estimation/Expectations.hpp"
#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/optim/Adam.hpp"
#include "runtime/optim/RunningMean.hpp"

namespace pvi::algorithms {

template <class Family>
struct SiloReply {
  Eigen::VectorXd gradZ;                            // d/dm
  typename FamilyTraits<Family>::Curvature crossZ;  // d/dL (its lower triangle; the diagonal for mean-field)
  Eigen::VectorXd gradTheta;                        // E[grad_theta f_j] (empty without hyperparameters)
  Eigen::VectorXd values;                           // f_j + H(q(w_j | z)) at each draw (evaluations only)
  Eigen::MatrixXd drawCross;                        // per draw, d/dz behind crossZ (a skewed q(z) only)
};

template <class Family>
class SfviSilo {
 public:
  using Root = typename FamilyTraits<Family>::Root;

  // `initial` is q(w_j | z) at the start (any anchor); ignored without locals.
  // innerDraws K > 1: K draws of w_j per draw of z, and the importance-weighted term
  // (estimation/Expectations.hpp); xi then has K columns per column of eps. laplaceLocals: the K
  // draws come from the Laplace proposal at each z instead of q(w | z) (same header).
  SfviSilo(std::shared_ptr<const estimation::LocalLikelihood> likelihood, ConditionalGaussian initial,
           optim::AdamSettings adam = {}, std::size_t innerDraws = 1, bool laplaceLocals = false);

  std::size_t localDim() const { return likelihood_->localDim(); }
  const estimation::LocalLikelihood& likelihood() const { return *likelihood_; }

  // One iteration of Algorithm 1 at q(z) = (m, root) and theta (empty: none), with the server's
  // eps (D x n) and this silo's xi (localDim() x n K). learningRate 0: evaluate only, no step.
  // With `drawCross`, the reply carries the per-draw gradients (a skewed q(z): z = m + L eps with
  // eps the server's transformed draws).
  SiloReply<Family> step(const Eigen::VectorXd& m, const Root& root, const std::vector<double>& theta,
                         const Eigen::MatrixXd& eps, const Eigen::MatrixXd& xi, double learningRate,
                         bool drawCross = false);

  // A new white origin at the current conditional (anchored at m) with q(z)'s root there, and a
  // fresh Adam state; with `averaged`, the average of the iterates since the last rebase that
  // were marked by startAveraging() becomes the current conditional first.
  void rebase(const Eigen::VectorXd& m, const Root& root, bool averaged);
  void startAveraging() { averaging_ = true; }
  // Back to q(w_j | z) = q (a conditional kept from an earlier round), anchored at m.
  void reset(const ConditionalGaussian& q, const Eigen::VectorXd& m, const Root& root);

  // q(w_j | z), anchored at m.
  ConditionalGaussian conditional(const Eigen::VectorXd& m) const;

 private:
  std::shared_ptr<const estimation::LocalLikelihood> likelihood_;
  optim::AdamSettings settings_;
  std::size_t innerDraws_ = 1;
  bool laplaceLocals_ = false;
  ConditionalOrigin origin_;
  Eigen::VectorXd white_;
  optim::AdamState adam_;
  bool averaging_ = false;
  optim::RunningMean averaged_;
};

}  // namespace pvi::algorithms
