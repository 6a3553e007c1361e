#include "runtime/fit/Mixing.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "runtime/diagnostics/Diagnostics.hpp"

namespace pvi {

namespace {

std::string formatted(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace

MixingSummary summariseMixing(const SampledPosterior& p, const std::vector<std::string>& names) {
  MixingSummary m;
  m.draws = static_cast<std::size_t>(p.draws.rows());
  m.minEssBulk = m.minEssTail = std::numeric_limits<double>::infinity();
  for (const samplers::ChainResult& c : p.chains) {
    m.divergences += c.divergences;
    m.treeDepthHits += c.treeDepthHits;
    m.warmupGradients += c.warmupGradients;
    m.samplingGradients += c.samplingGradients;
  }
  const auto chains = static_cast<Eigen::Index>(p.chains.size());
  const Eigen::Index n = chains > 0 ? p.draws.rows() / chains : 0;
  std::string stuck;
  for (Eigen::Index k = 0; k < p.draws.cols() && n > 0; ++k) {
    // Rows are chain 1's draws, then chain 2's, ...: column k is n x chains as it lies.
    const Eigen::Map<const Eigen::MatrixXd> draws(p.draws.col(k).data(), n, chains);
    const std::string& name = names.at(static_cast<std::size_t>(k));
    if (n > 1 && draws.minCoeff() == draws.maxCoeff()) {
      if (stuck.empty()) stuck = name;
      continue;
    }
    const diagnostics::Diagnostics d = diagnostics::diagnose(draws);
    // NaN R-hat (chains too short to split, say) counts as neither mixed nor unmixed; +inf (each
    // chain stuck at its own value) is the worst mixing there is.
    if (!std::isnan(d.rhat) && d.rhat > m.maxRhat) m.maxRhat = d.rhat, m.worstRhat = name;
    const double ess = std::min(d.essBulk, d.essTail);
    if (std::isfinite(ess) && ess < std::min(m.minEssBulk, m.minEssTail)) m.worstEss = name;
    if (std::isfinite(d.essBulk)) m.minEssBulk = std::min(m.minEssBulk, d.essBulk);
    if (std::isfinite(d.essTail)) m.minEssTail = std::min(m.minEssTail, d.essTail);
  }
  if (!stuck.empty()) {
    m.failed = true;
    m.warnings.push_back("'" + stuck + "' never moved in any chain: the chains are stuck");
  }
  if (m.maxRhat > kRhatFailure) {
    m.failed = true;
    m.warnings.push_back("R-hat of '" + m.worstRhat + "' is " + formatted("%.3g", m.maxRhat) +
                         ", above 1.1: the chains did not mix");
  } else if (m.maxRhat > kRhatWarning) {
    m.warnings.push_back("R-hat of '" + m.worstRhat + "' is " + formatted("%.4g", m.maxRhat) +
                         ", above 1.01: run longer chains");
  }
  if (std::min(m.minEssBulk, m.minEssTail) < kEssWarning)
    m.warnings.push_back("the smallest ESS (bulk " + formatted("%.0f", m.minEssBulk) + ", tail " +
                         formatted("%.0f", m.minEssTail) + ", at '" + m.worstEss +
                         "') is below 400: the estimates' Monte Carlo error may be large; run more draws");
  if (m.divergences > 0)
    m.warnings.push_back(std::to_string(m.divergences) + " of " + std::to_string(m.draws) +
                         " transitions after warm-up diverged: the posterior has regions the sampler cannot "
                         "explore, and estimates may be biased; raise --adapt-delta or reparameterise "
                         "(non-centred)");
  if (m.treeDepthHits > 0)
    m.warnings.push_back(std::to_string(m.treeDepthHits) + " of " + std::to_string(m.draws) +
                         " transitions hit the maximum tree depth: sampling is inefficient; raise --max-depth");
  return m;
}

}  // namespace pvi
