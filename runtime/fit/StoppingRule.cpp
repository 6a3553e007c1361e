#include "runtime/fit/StoppingRule.hpp"

#include <algorithm>
#include <cmath>

namespace pvi {

bool StoppingRule::update(const support::TraceRecord& r, const Eigen::VectorXd& mean, const Eigen::VectorXd& sd) {
  if (patience_ == 0) return false;
  means_.push_back(mean);
  while (means_.size() > patience_ + 1) means_.pop_front();
  drift_ = means_.size() == patience_ + 1 && sd.size() == mean.size()
               ? ((means_.back() - means_.front()).cwiseAbs().array() / sd.array().max(1e-300)).maxCoeff()
               : 0.0;
  if (!std::isfinite(r.freeEnergy)) return false;
  const double se = std::isfinite(r.freeEnergyStandardError) ? r.freeEnergyStandardError : 0.0;
  if (r.freeEnergy > best_ + 2.0 * se) {
    best_ = std::max(best_, r.freeEnergy);
    since_ = 0;
    return false;
  }
  best_ = std::max(best_, r.freeEnergy);
  return ++since_ >= patience_ && !(drift_ > maxDrift_);
}

}  // namespace pvi
