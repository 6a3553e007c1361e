#pragma once
// Structured federated variational inference (SFVI paper, Algorithm 1; design section 6), run
// in one process with one SfviSilo (Silo.hpp) per partition.
//
// Each iteration the server draws eps ~ N(0, I) (D x samples) and sends q(z)'s parameters, theta
// and eps to every silo; each silo steps its own q(w_j | z) and returns the gradients of its term
// over q(z)'s (m, L) and theta; the server adds the gradient of its own term, log p(z, theta) +
// H(q(z)) (sticking the landing, at the same draws), and steps q(z) and theta with Adam. The
// ELBO being a sum over silos evaluated at shared draws, the iterates do not depend on how the
// data are split into silos (the paper's Remark) when the silos' xi are drawn to match
// (`localNoise`; docs/fitting.md says how).
//
// Scale-free steps: q(z) moves in white coordinates relative to q(z) at the start of the round
// (algorithms/pvi/WhitenedCoordinates.hpp), each silo's q(w_j | z) likewise. A round is
// `iterationsPerRound` iterations; over its second half the iterates are averaged
// (Polyak-Ruppert), and the next round starts from the average with fresh white coordinates and
// Adam states. The ELBO is estimated at the end of every round from fresh draws.
//
// Noise control: with many locals per silo the Monte Carlo noise of the gradient over q(z) grows
// with their number (each local's term adds its own), and too few draws per iteration let the
// iterates wander off (Six Cities with 4 draws: q(z)'s sds collapse). When a round's ELBO falls
// below the best so far by more than 4 standard errors of their difference, or a gradient is not
// finite, the fit goes back to the best round's q(z), theta and q(w_j | z) and doubles the draws
// per iteration (up to maxSamples), and says so in `events`.
//
// Hyperparameters theta (the model's `hyper` block, unconstrained) are learned as point estimates
// (empirical Bayes) by the same Adam steps, on E_q[grad_theta log p(y, z, w | theta)], unless
// learnTheta is false.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/families/ConditionalGaussian.hpp"
#include "runtime/families/Gaussian.hpp"
#include "runtime/families/GlobalShape.hpp"
#include "runtime/model/FactorModel.hpp"
#include "runtime/support/Communication.hpp"
#include "runtime/support/Trace.hpp"

namespace pvi::algorithms {

// xi for silo `silo` (0-based): rows x n standard normals for `stream`, which is the iteration
// (1-based) for a step, and kElboStream | round for the ELBO draws at the end of a round.
using LocalNoise =
    std::function<Eigen::MatrixXd(std::uint64_t stream, std::size_t silo, Eigen::Index rows, Eigen::Index n)>;
inline constexpr std::uint64_t kElboStream = std::uint64_t{1} << 63;

template <class Family>
struct SfviOptions {
  std::size_t rounds = 30;               // the most rounds
  std::size_t iterationsPerRound = 100;  // iterations (communication rounds of Algorithm 1) per round
  // Adam's, in q's sds (white coordinates), in round r: learningRate / sqrt(r). A constant rate
  // leaves the iterates jittering at a scale that biases the sds low (contraception: tau's sd at
  // 0.70 of Stan's with 0.05 throughout, 0.89 with 0.01); decaying it lets the first rounds travel
  // and the later ones settle.
  double learningRate = 0.05;
  std::size_t samples = 4;       // draws of z per iteration (the paper: 1)
  std::size_t maxSamples = 256;  // noise control's ceiling
  // Refinement: when afterRound asks to stop with fewer draws per iteration than this, the draws
  // double and the fit goes on (and says so in `events`); 0 or at most `samples`: stop. The
  // gradient noise of few draws biases q's sds low even where the ELBO has stopped rising (Six
  // Cities, skewed locals, 40 rounds: omega's sd at 0.80 of Stan's with 8 draws, 0.86 with 32).
  std::size_t refineSamples = 0;
  std::uint64_t seed = 1;
  std::size_t elboSamples = 64;
  std::size_t threads = 1;    // silos run in parallel on this many threads
  std::vector<double> theta;  // the starting (or, without learnTheta, fixed) hyperparameters
  bool learnTheta = true;
  ConditionalShape localShape{true, true, false};
  // Draws of each silo's w_j per draw of z: K > 1 fits q(z) to the importance-weighted bound
  // (estimation/Expectations.hpp), closer to the marginal posterior where q(w_j | z) cannot follow
  // p(w_j | z, y_j), at K times the silos' evaluations.
  std::size_t innerDraws = 1;
  // Each z's draws of w_j from the Laplace proposal at that z (estimation/LaplaceLocals.hpp)
  // instead of q(w_j | z), which is then only Newton's start: the weighted term is then close to
  // log p(y_j | z) even where q(w_j | z) cannot follow p(w_j | z, y_j).
  bool laplaceLocals = false;
  // q(z) skewed: the sinh-arcsinh shape on each coordinate (families/GlobalShape.hpp; sfvi only).
  bool shapedGlobals = false;
  std::optional<typename Family::Standard> start;  // q(z) at the start; default N(0, initialSd^2 I)
  double initialSd = 1.0;                          // and every q(w | z) starts at N(0, initialSd^2 I)
  LocalNoise localNoise;                           // default: each silo's own stream
  // After every round; return true to stop.
  std::function<bool(const support::TraceRecord&, const typename Family::Standard&)> afterRound;
  // After every iteration (tests): q(z) and theta after the step.
  std::function<void(std::size_t, const typename Family::Standard&, const std::vector<double>&)> afterIteration;
};

template <class Family>
struct SfviResult {
  typename Family::Standard q;
  GlobalShape globalShape;  // with SfviOptions::shapedGlobals (q is then its location and root)
  std::vector<double> theta;
  std::vector<ConditionalGaussian> locals;  // per partition (empty without locals), anchored at q's mean
  std::vector<support::TraceRecord> trace;
  support::CommunicationCounters counters;
  std::vector<std::string> events;
  std::size_t rounds = 0;
  bool stoppedEarly = false;  // afterRound asked to stop
  std::size_t samples = 0;    // draws per iteration at the end (noise control may have raised it)
  // The noise control went back to an earlier round's q and no later round beat it: q is that
  // round's, and the fit has not converged (empty otherwise).
  std::string fellBack;
  double seconds = 0.0;
};

// Throws std::invalid_argument on bad options and std::runtime_error (naming the silo) when a
// term is not finite at a draw.
template <class Family>
SfviResult<Family> runSfvi(const FactorModel& model, const SfviOptions<Family>& options);

}  // namespace pvi::algorithms
