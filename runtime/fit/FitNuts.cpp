// `--algorithm nuts`: NUTS over x = (z, w_1, ..., w_J, theta), the whole model as JointDensity
// has it, with the draws kept as a SampledPosterior and the chains' mixing summarised.
//
// Initialisation: for a model without local latents (and at most 1,000 coordinates) the chains
// start at independent draws from the Laplace approximation at the mode with the most mass, found
// by searches from 0 and from 15 uniform points (optim/LaplaceModes.hpp), as Stan's Pathfinder
// initialisation argues; modes of similar mass share the chains. Otherwise, or when no proper
// mode is found, uniformly in [-2, 2] as Stan does. A uniform start can land where the density
// is astronomically small and the chain never leaves (arma11: |theta| > 1 makes the errors grow
// like theta^t, lp ~ -1e12); hierarchical models are left to the uniform start because their
// joint mode is degenerate (a scale going to 0 with its group effects).
#include <Eigen/Cholesky>
#include <chrono>
#include <cmath>
#include <functional>
#include <iomanip>
#include <memory>
#include <sstream>
#include <thread>

#include "runtime/fit/Fit.hpp"
#include "runtime/fit/Mixing.hpp"
#include "runtime/model/JointDensity.hpp"
#include "runtime/model/NonFiniteReason.hpp"
#include "runtime/optim/FiniteDifferenceHessian.hpp"
#include "runtime/optim/LaplaceModes.hpp"
#include "runtime/support/ThreadPool.hpp"

namespace pvi {
namespace {

// Sets the sampler's initial distribution to the Laplace approximation where the model allows it;
// returns where the chains start, in words.
std::string laplaceInitialisation(const FactorModel& model, const JointDensity& joint, const samplers::Target& target,
                                  samplers::SamplerOptions& so, std::size_t threads) {
  std::size_t locals = 0;
  for (std::size_t j = 0; j < model.numPartitions(); ++j) locals += model.localDim(j);
  const std::string uniform = "chains start uniformly in [-2, 2] on the unconstrained scale";
  if (locals > 0) return uniform + " (the model has local latents)";
  if (joint.dim() > 1000) return uniform + " (more than 1,000 coordinates)";
  const auto f = [&target](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    g.resize(x.size());
    return target.logDensity(x.data(), g.data());
  };
  const optim::CurvatureAt curvature = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& steps) {
    return optim::finiteDifferenceHessian(f, x, steps);
  };
  optim::MultiStartOptions mo;
  mo.seed = so.seed;
  // The searches from random starts at once, on the chains' threads (the target is evaluated
  // from several threads by the chains anyway).
  std::unique_ptr<support::ThreadPool> pool = threads > 1 ? std::make_unique<support::ThreadPool>(threads) : nullptr;
  mo.forEach = support::forEachIndexOn(pool.get());
  const optim::LaplaceModes modes =
      optim::laplaceAtModes(f, curvature, Eigen::VectorXd::Zero(static_cast<Eigen::Index>(joint.dim())), mo);
  if (!modes.found()) return uniform + " (no proper mode found)";
  const auto d = static_cast<Eigen::Index>(joint.dim());
  const double best = modes.modes.front().logMass;
  so.initMixture.clear();
  for (const optim::LaplaceMode& m : modes.modes) {
    // The root of the covariance (-H)^-1 = (U^T U)^-1: U^-1, so that x = mode + U^-1 eps.
    const Eigen::LLT<Eigen::MatrixXd> precision(-m.laplace.hessian);
    const Eigen::MatrixXd U = precision.matrixU();
    so.initMixture.push_back({std::exp(m.logMass - best), m.laplace.x,
                              U.triangularView<Eigen::Upper>().solve(Eigen::MatrixXd::Identity(d, d))});
  }
  std::ostringstream why;
  why << "chains start at draws from the Laplace approximation at the mode";
  if (modes.modes.size() > 1) {
    std::size_t used = 0;
    for (std::size_t c = 1; c <= so.chains; ++c)
      used = std::max(used, samplers::startComponent(so.initMixture, c, so.chains) + 1);
    why << " with the most mass (" << modes.modes.size() << " modes from " << modes.searches << " searches, log mass "
        << std::setprecision(4);
    for (std::size_t k = 0; k < modes.modes.size(); ++k) why << (k ? ", " : "") << modes.modes[k].logMass;
    why << (used > 1 ? "; the chains spread over the modes by mass)" : ")");
  }
  return why.str();
}

}  // namespace

FitResult sampleModel(const FactorModel& model, const FitOptions& o, const AlgorithmChoice& choice,
                      const samplers::ProgressCallback& chainProgress) {
  const auto t0 = std::chrono::steady_clock::now();
  const JointDensity joint(model, JointDensity::HyperParameters::Sampled);
  samplers::Target target;
  target.dim = joint.dim();
  target.logDensity = [&joint](const double* x, double* gradient) {
    clearNonFiniteReason();  // what whyNotFinite says is of this point
    return joint.logDensity(x, gradient);
  };
  target.whyNotFinite = [] { return nonFiniteReason(); };

  const SamplingOptions& s = o.sampling;
  samplers::SamplerOptions so;
  so.chains = s.chains;
  so.warmup = s.warmup ? *s.warmup : defaultWarmup(s.adaptation);
  so.samples = s.draws;
  so.threads = o.threads;
  so.seed = o.seed;
  so.nuts.maxDepth = s.maxDepth;
  so.dualAveraging.delta = s.adaptDelta;
  so.metric = s.metric;
  so.adaptation = s.adaptation;
  const std::size_t threads = support::threadsFor(o.threads);
  const auto startClock = std::chrono::steady_clock::now();
  const std::string start = laplaceInitialisation(model, joint, target, so, threads);
  const double startSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - startClock).count();
  std::vector<samplers::ChainResult> chains = samplers::sample(target, so, chainProgress);

  SampledPosterior p;
  p.globalDim = model.globalDim();
  for (std::size_t j = 0; j < model.numPartitions(); ++j) p.localOffsets.push_back(joint.localOffset(j));
  p.hyperOffset = joint.hyperOffset();
  p.hyperDim = model.hyperDim();
  const auto n = static_cast<Eigen::Index>(s.draws);
  p.draws.resize(n * static_cast<Eigen::Index>(chains.size()), static_cast<Eigen::Index>(joint.dim()));
  for (std::size_t c = 0; c < chains.size(); ++c) {
    p.draws.middleRows(static_cast<Eigen::Index>(c) * n, n) = chains[c].draws;
    chains[c].draws.resize(0, 0);
    p.chain.insert(p.chain.end(), static_cast<std::size_t>(n), chains[c].chain);
  }
  p.chains = std::move(chains);

  FitResult result;
  result.choice = choice;
  result.prior = "sampled with the model (nuts)";
  result.start = start;
  result.mixing = summariseMixing(p, joint.names());
  result.stop = StopReason::Sampled;
  result.converged = !result.mixing->failed;
  result.status = result.mixing->failed ? "the chains did not mix" : "the chains mixed";
  result.posterior = std::move(p);
  result.startSeconds = startSeconds;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - startSeconds;
  return result;
}

}  // namespace pvi
