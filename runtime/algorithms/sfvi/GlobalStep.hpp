#pragma once
// The global half of SFVI's updates, shared by SFVI's server and SFVI-Avg's silos: q(z) and the
// hyperparameters theta, ascended by Adam on the ELBO's gradient in white coordinates relative to
// q(z) at the start of the round (algorithms/pvi/WhitenedCoordinates.hpp), with Polyak averaging
// of the iterates the caller marks, and the term of the ELBO that belongs to the globals:
// log p(z, theta) at the draws, and H(q(z)) (whiteGradientOf adds its sticking-the-landing part).
//
// With a shape (`shaped`), q(z) is the skewed family of families/GlobalShape.hpp: the draws sent
// are u = T(eps) (z = m + L u), skew and log tail per coordinate are ascended by the same Adam
// (in their own units, not whitened), and the entropy's sticking-the-landing terms use h'(u).
#include <Eigen/Core>
#include <cstddef>
#include <utility>
#include <vector>

#include "runtime/algorithms/pvi/WhitenedCoordinates.hpp"
#include "runtime/estimation/Expectations.hpp"
#include "runtime/estimation/LocalLikelihood.hpp"
#include "runtime/families/GlobalShape.hpp"
#include "runtime/optim/Adam.hpp"
#include "runtime/optim/RunningMean.hpp"

namespace pvi::algorithms {

template <class Family>
class GlobalStep {
 public:
  using Stable = typename Family::Stable;
  using Standard = typename Family::Standard;
  using Root = typename FamilyTraits<Family>::Root;

  GlobalStep(const Standard& q, std::vector<double> theta, bool learnTheta, bool shaped = false);

  Standard standard() const { return toStandard(st_); }
  const Stable& stable() const { return st_; }
  const Eigen::VectorXd& mean() const { return st_.m; }
  Root root() const { return reparamRoot(st_); }
  const std::vector<double>& theta() const { return theta_; }
  bool shaped() const { return !shape_.empty(); }
  // Whether ascend moves the shape (from the start it does not: Sfvi.cpp frees it at the first
  // plateau of the Gaussian fit).
  bool shapeFree() const { return shapeFree_; }
  void freeShape() { shapeFree_ = true; }
  const GlobalShape& shape() const { return shape_; }
  // H(q(z)), the shape's part included.
  double entropy() const;

  // What the silos and priorTerm take as their standard normals for the server's eps: eps itself,
  // or with a shape u = T(eps) (kept, with its derivatives, for the next ascend).
  Eigen::MatrixXd sendDraws(const Eigen::MatrixXd& eps);

  // log p(z, theta) at z = m + root eps (and its gradients over m, L and theta), from `prior`;
  // eps as sendDraws gave it (with a shape, also the per-draw gradients).
  estimation::ExpectedDerivatives<Family> priorTerm(const estimation::LocalLikelihood& prior,
                                                    const Eigen::MatrixXd& eps) const;
  // One Adam step of size `rate` on the ELBO whose gradient terms e holds (the prior's and the
  // silos' summed, drawCross too with a shape; eps moments from priorTerm); with `average`, the
  // iterate joins the average. Throws std::runtime_error when the gradient is not finite.
  void ascend(estimation::ExpectedDerivatives<Family> e, double rate, bool average);
  // The end of a round: the average (if any) becomes the iterate; fresh white coordinates and Adam.
  void settle();
  // Start over at q and theta, keeping the shape (a new round), or at q, theta and `shape` (the
  // noise control's fallback).
  void reset(const Stable& q, std::vector<double> theta);
  void reset(const Stable& q, std::vector<double> theta, const GlobalShape& shape);

 private:
  void unpack();
  bool learnTheta_;
  Stable st_;
  std::vector<double> theta_;
  decltype(whiteningOrigin(std::declval<Stable>())) origin_;
  Stable white_;
  Eigen::Index nz_ = 0;
  GlobalShape shape_;   // empty: Gaussian
  bool shapeFree_ = false;
  ShapedDraws sent_;    // the last sendDraws' (with a shape)
  Eigen::VectorXd params_;
  optim::RunningMean averaged_;
  optim::AdamState adam_;
};

}  // namespace pvi::algorithms
