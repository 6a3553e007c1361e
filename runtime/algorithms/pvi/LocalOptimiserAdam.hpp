#pragma once
// The default client optimiser: Monte Carlo reparameterised gradients of the local free energy,
// ascended with Adam (Kingma and Ba 2014) on the stable parameters of q'
// (runtime/families/*Stable.hpp: mean and log-Cholesky, or mean and log standard deviations), so
// every iterate is a valid distribution. Starts at q' = q (the received posterior), and steps in
// coordinates whitened by it (WhitenedCoordinates.hpp): the learning rate is a distance in
// standard deviations of q, so a fit does not depend on the units of the data.
//
// Objective, up to the cavity's log-normaliser (LocalOptimiser.hpp):
//   F_k(q') = E_q'[f_k] + <eta_cav, mu_q'> + H(q')  [+ H(q(w)) with locals],
// gradients by sticking the landing (LocalGradient.hpp), with z = m + L eps and g = grad f:
//   G(z) = g + eta1_cav + 2 eta2_cav z + L^-T eps,  dF/dm = E[G],  dF/dL = lower(E[G eps^T]),
// then the chain rule to the white coordinates; for q(w) = N(mw, diag sdw^2) likewise with
// G_w = g_w + xi / sdw. Unbiased, and noiseless where q is the exact optimum.
//
// Early stopping on the local objective, within its Monte Carlo error: the objective estimates are
// averaged over windows of `window` steps; a window improves on the best window when its mean
// exceeds the best's by more than `standardErrors` standard errors of that difference (each
// window's standard error from the spread of its own steps' estimates; a steady rise makes the
// difference grow as the window does, its spread only as the square root) and by more than
// tolerance * max(1, |best|). After `patience` consecutive windows without improvement the
// optimiser stops, and the result is the average of the iterates of those windows (the plateau),
// instead of AdamOptions::averageFrom's.
//
// Mini-batches: with miniBatchSize > 0 each step evaluates f on a fresh random subset of the
// client's observations through LocalLikelihood::evaluateMiniBatch (without replacement). A
// FactorModel evaluates whole partitions, so PartitionLikelihood cannot mini-batch: asking for it
// with a likelihood that has numObservations() == 0 fails the update with a reason. (TODO: a
// FactorModel-level hook for per-observation evaluation of compiled models.)
//
// useExactExpectations (testing): gradients from the likelihood's exactExpectations hook
// (crossZ = H L), making the optimiser deterministic.
#include <cstddef>

#include "runtime/federation/LocalOptimiser.hpp"

namespace pvi::algorithms {

struct EarlyStopping {
  std::size_t window = 0;  // 0 disables early stopping
  std::size_t patience = 3;
  double standardErrors = 2.0;
  double tolerance = 0.0;
};

struct AdamOptions {
  double learningRate = 1e-2;
  // Linear decay of the learning rate from learningRate at the first step to
  // finalLearningRateFraction * learningRate at step `steps` (1: constant). Decay lets the final
  // iterate settle instead of jittering at a scale set by the learning rate.
  double finalLearningRateFraction = 1.0;
  std::size_t steps = 500;
  // Polyak-Ruppert averaging: the result is the mean of the iterates after step
  // averageFrom * steps (in the white coordinates), not the last one, whose Monte Carlo jitter
  // would carry into q (1: no averaging, the last iterate).
  double averageFrom = 1.0;
  std::size_t samples = 8;  // Monte Carlo draws per step
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  std::size_t miniBatchSize = 0;  // 0: the whole partition
  EarlyStopping earlyStopping;
  bool useExactExpectations = false;
};

template <class Family>
class AdamOptimiser final : public federation::LocalOptimiser<Family> {
 public:
  explicit AdamOptimiser(AdamOptions options = {});
  federation::LocalSolution<Family> optimise(const federation::LocalProblem<Family>& problem) const override;
  std::string name() const override { return "Adam on reparameterised Monte Carlo gradients"; }
  const AdamOptions& options() const { return options_; }
  // Not while an update runs (the fit sets it once it knows where q starts).
  void setEarlyStopping(EarlyStopping e) { options_.earlyStopping = e; }

 private:
  AdamOptions options_;
};

}  // namespace pvi::algorithms
