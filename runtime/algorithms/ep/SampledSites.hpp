#pragma once
// The tilted moments of every site from its own persistent NUTS chain (TiltedSampler): what EP,
// EP-eta and EP-mu consume when the tilted distributions have no closed form. Each call draws
// `draws` transitions of the site's chain and returns their moments (z's mean and second moment);
// the locals w_i stay in the site's chain.
#include <memory>
#include <vector>

#include "runtime/algorithms/ep/Ep.hpp"
#include "runtime/algorithms/ep/TiltedSampler.hpp"

namespace pvi::algorithms::ep {

class SampledSites {
 public:
  // One chain per site term, seeded from `options.seed` and the site's index.
  SampledSites(const std::vector<std::shared_ptr<const estimation::LocalLikelihood>>& sites, std::size_t draws,
               TiltedSamplerOptions options);

  // The metric's z block for the next draws: the current approximation's marginal variances.
  void setGlobalVariances(const Eigen::VectorXd& variances) { variances_ = variances; }

  // For runEp: nothing when the chain could not move (samplers::SamplerError: an improper tilted
  // distribution).
  TiltedMoments<FullGaussian> moments();

  const TiltedSampler& sampler(std::size_t site) const { return samplers_.at(site); }

 private:
  std::vector<TiltedSampler> samplers_;
  std::size_t draws_;
  Eigen::VectorXd variances_;
};

}  // namespace pvi::algorithms::ep
