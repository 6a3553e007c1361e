#include "runtime/algorithms/ep/SampledSites.hpp"

#include <stdexcept>

#include "runtime/samplers/nuts/SamplerError.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::algorithms::ep {

SampledSites::SampledSites(const std::vector<std::shared_ptr<const estimation::LocalLikelihood>>& sites,
                           std::size_t draws, TiltedSamplerOptions options)
    : draws_(draws) {
  if (draws == 0) throw std::invalid_argument("SampledSites: at least one draw per update");
  for (std::size_t i = 0; i < sites.size(); ++i) {
    TiltedSamplerOptions o = options;
    o.seed = support::deriveSeed(options.seed, 0x6570ULL, i);
    samplers_.emplace_back(sites[i], o);
  }
}

TiltedMoments<FullGaussian> SampledSites::moments() {
  return [this](std::size_t i, const FullNatural& cavity, double beta) -> std::optional<FullMean> {
    const Eigen::VectorXd v = variances_.size() == cavity.dim() ? variances_ : Eigen::VectorXd::Ones(cavity.dim());
    try {
      const Eigen::MatrixXd z = samplers_.at(i).draw(cavity, beta, v, draws_);
      const double w = 1.0 / static_cast<double>(z.cols());
      return FullMean{z.rowwise().mean(), w * z * z.transpose()};
    } catch (const samplers::SamplerError&) {
      return std::nullopt;
    }
  };
}

}  // namespace pvi::algorithms::ep
