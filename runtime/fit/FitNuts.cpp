// `--algorithm nuts`: NUTS over x = (z, w_1, ..., w_J, theta), the whole model as JointDensity
// has it, with the draws kept as a SampledPosterior and the chains' mixing summarised.
#include <chrono>

#include "runtime/fit/Fit.hpp"
#include "runtime/fit/Mixing.hpp"
#include "runtime/model/JointDensity.hpp"

namespace pvi {

FitResult sampleModel(const FactorModel& model, const FitOptions& o, const AlgorithmChoice& choice,
                      const samplers::ProgressCallback& chainProgress) {
  const auto t0 = std::chrono::steady_clock::now();
  const JointDensity joint(model, JointDensity::HyperParameters::Sampled);
  samplers::Target target;
  target.dim = joint.dim();
  target.logDensity = [&joint](const double* x, double* gradient) { return joint.logDensity(x, gradient); };

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
  result.mixing = summariseMixing(p, joint.names());
  result.stop = StopReason::Sampled;
  result.converged = !result.mixing->failed;
  result.status = result.mixing->failed ? "the chains did not mix" : "the chains mixed";
  result.posterior = std::move(p);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace pvi
