#include "pvi/pvi.hpp"

#include <algorithm>

#include "runtime/model/JointDensity.hpp"

namespace pvi {

namespace {

const double* orNull(const Eigen::VectorXd& v) { return v.size() ? v.data() : nullptr; }

void checkSize(const Eigen::VectorXd& v, std::size_t n, const char* what) {
  if (static_cast<std::size_t>(v.size()) != n)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(v.size()) + " entries; the model needs " +
                                std::to_string(n));
}

}  // namespace

double BoundModel::logDensity(const Eigen::VectorXd& z, const std::vector<Eigen::VectorXd>& w,
                              const Eigen::VectorXd& theta, Eigen::VectorXd* gradZ) const {
  const CompiledModel& m = *model_;
  checkSize(z, m.globalDim(), "z");
  Eigen::VectorXd th = theta.size() ? theta : Eigen::VectorXd::Zero(static_cast<Eigen::Index>(m.hyperDim()));
  checkSize(th, m.hyperDim(), "theta");
  if (!w.empty() && w.size() != m.numPartitions())
    throw std::invalid_argument("w has " + std::to_string(w.size()) + " partitions; the data have " +
                                std::to_string(m.numPartitions()));
  const JointDensity joint(m, JointDensity::HyperParameters::Fixed,
                           std::vector<double>(th.data(), th.data() + th.size()));
  Eigen::VectorXd x = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(joint.dim()));  // locals default to 0
  x.head(z.size()) = z;
  for (std::size_t j = 0; j < w.size(); ++j) {
    checkSize(w[j], m.localDim(j), "w of a partition");
    x.segment(static_cast<Eigen::Index>(joint.localOffset(j)), w[j].size()) = w[j];
  }
  if (!gradZ) return joint.logDensity(x.data(), nullptr);
  Eigen::VectorXd gradient(x.size());
  const double value = joint.logDensity(x.data(), gradient.data());
  *gradZ = gradient.head(z.size());
  return value;
}

std::vector<std::string> BoundModel::parameterNames() const { return model_->parameterLayout().elementNames(); }

Eigen::VectorXd BoundModel::constrain(const Eigen::VectorXd& z, const Eigen::VectorXd& theta) const {
  checkSize(z, model_->globalDim(), "z");
  Eigen::VectorXd th = theta.size() ? theta : Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model_->hyperDim()));
  checkSize(th, model_->hyperDim(), "theta");
  std::vector<double> v = model_->constrainGlobals(z.data(), orNull(th));
  return Eigen::Map<Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

Eigen::VectorXd BoundModel::unconstrain(const Eigen::VectorXd& constrained) const {
  checkSize(constrained, model_->parameterLayout().size(), "the constrained values");
  std::vector<double> v = model_->unconstrainGlobals(constrained.data());
  return Eigen::Map<Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

Posterior BoundModel::fit(const FitOptions& options, const RoundCallback& afterRound,
                          const samplers::ProgressCallback& chainProgress) const {
  Posterior p;
  p.code_ = code_;
  p.model_ = model_;
  p.result_ = fitModel(*model_, options, afterRound, chainProgress);
  if (p.sampled()) {
    const SampledPosterior& s = p.result_.posterior.sampled();
    p.mean_ = s.draws.leftCols(static_cast<Eigen::Index>(s.globalDim)).colwise().mean().transpose();
  } else {
    p.mean_ = p.result_.posterior.gaussian().momentMean();
  }
  return p;
}

Eigen::MatrixXd Posterior::covariance() const {
  if (!sampled()) return result_.posterior.gaussian().momentCovariance();
  const SampledPosterior& s = result_.posterior.sampled();
  const Eigen::MatrixXd centred = s.draws.leftCols(mean_.size()).rowwise() - mean_.transpose();
  return centred.transpose() * centred / static_cast<double>(std::max<Eigen::Index>(1, centred.rows() - 1));
}

Eigen::VectorXd Posterior::constrainedMean() const {
  if (sampled()) {
    const PosteriorDraws d = draws(0);
    const auto parameters = static_cast<Eigen::Index>(model_->parameterLayout().size());
    return d.global.values.middleCols(3, parameters).colwise().mean().transpose();  // after lp__, log_p__, log_g__
  }
  const double* theta = result_.theta.empty() ? nullptr : result_.theta.data();
  std::vector<double> v = model_->constrainGlobals(mean_.data(), theta);
  return Eigen::Map<Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

PosteriorDraws Posterior::draws(std::size_t n, std::uint64_t seed) const {
  return drawPosterior(*model_, result_, n, seed);
}

}  // namespace pvi
