#include "runtime/algorithms/ep/SampledSites.hpp"

#include <Eigen/Cholesky>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
  noise_.resize(sites.size());
}

FullMean steinMoments(const FullNatural& cavity, double beta, const Eigen::MatrixXd& z, const Eigen::MatrixXd& g) {
  const FullStandard c = toStandard(cavity);
  const double n = static_cast<double>(z.cols());
  const Eigen::MatrixXd gs = g / beta;
  const Eigen::VectorXd mean = c.m + c.S * (gs.rowwise().sum() / n);
  const Eigen::MatrixXd cross = c.S * (gs * (z.colwise() - c.m).transpose()) / n;  // S_c E[g (z - m_c)^T]
  const Eigen::MatrixXd central = c.S + 0.5 * (cross + cross.transpose());         // E[(z - m_c)(z - m_c)^T]
  // E[z z^T] = E[(z - m_c)(z - m_c)^T] + m_c E[z]^T + E[z] m_c^T - m_c m_c^T
  return FullMean{mean, central + c.m * mean.transpose() + mean * c.m.transpose() - c.m * c.m.transpose()};
}

FullMean referenceMoments(const FullStandard& reference, const Eigen::MatrixXd& z, const Eigen::MatrixXd& grad) {
  const double n = static_cast<double>(z.cols());
  const Eigen::MatrixXd sGrad = reference.S * grad;
  const Eigen::VectorXd mean = (z + sGrad).rowwise().sum() / n;
  const Eigen::MatrixXd centred = z.colwise() - reference.m;
  const Eigen::MatrixXd cross = sGrad * centred.transpose() / n;
  const Eigen::MatrixXd central =
      reference.S + centred * centred.transpose() / n + 0.5 * (cross + cross.transpose());  // about m
  const Eigen::VectorXd& m = reference.m;
  return FullMean{mean, central + m * mean.transpose() + mean * m.transpose() - m * m.transpose()};
}

namespace {

// The estimate's coordinates whitened by q = N(m, S): L^-1 (mean - m) and the lower triangle of
// L^-1 C L^-T, C the second moment about m (L L' = S, `l` its lower factor). Their spread over
// updates measures an estimator's noise on one scale for every site and estimator.
Eigen::VectorXd whitened(const FullMean& e, const FullStandard& q, const Eigen::MatrixXd& l) {
  const Eigen::Index d = q.m.size();
  const Eigen::MatrixXd central =
      e.second - q.m * e.m.transpose() - e.m * q.m.transpose() + q.m * q.m.transpose();  // E[(z - m)(z - m)']
  const auto lower = l.triangularView<Eigen::Lower>();
  const Eigen::MatrixXd w = lower.solve(lower.solve(central).transpose());
  Eigen::VectorXd x(d + d * (d + 1) / 2);
  x.head(d) = lower.solve(e.m - q.m);
  Eigen::Index k = d;
  for (Eigen::Index c = 0; c < d; ++c)
    for (Eigen::Index r = c; r < d; ++r) x(k++) = w(r, c);
  return x;
}

}  // namespace

TiltedMoments<FullGaussian> SampledSites::moments() {
  return [this](std::size_t i, const FullNatural& cavity, double beta) -> std::optional<FullMean> {
    const Eigen::VectorXd v = variances_.size() == cavity.dim() ? variances_ : Eigen::VectorXd::Ones(cavity.dim());
    try {
      // Which estimator this update uses is settled before drawing: it depends on the sites (and,
      // for LeastNoisy, on the earlier updates' spread), not the draws of this update.
      const bool weak = estimator_ == MomentEstimator::Adaptive && currentNatural_ &&
                        siteShare(*currentNatural_, cavity) <= steinMaxShare_;
      const bool leastNoisy = !unbiased_ && estimator_ == MomentEstimator::LeastNoisy && current_;
      const bool stein = !unbiased_ && (estimator_ == MomentEstimator::Stein || weak || leastNoisy);
      const bool reference = !unbiased_ && current_ &&
                             (estimator_ == MomentEstimator::Reference ||
                              (estimator_ == MomentEstimator::Adaptive && !weak) || leastNoisy);
      Eigen::MatrixXd g, projected;
      const Eigen::MatrixXd z =
          samplers_.at(i).draw(cavity, beta, v, draws_, restartFrom_ ? &*restartFrom_ : nullptr,
                               stein ? &g : nullptr, reference ? &projected : nullptr);
      if (unbiased_) return toMean(unbiasedNatural(z));
      const auto ownMoments = [&] {
        const double w = 1.0 / static_cast<double>(z.cols());
        return FullMean{z.rowwise().mean(), w * z * z.transpose()};
      };
      if (leastNoisy) {
        EstimatorNoise& track = noise_.at(i);
        const std::size_t chosen = track.choice();
        const std::array<FullMean, 3> estimates{ownMoments(), steinMoments(cavity, beta, z, g),
                                               referenceMoments(*current_, z, projected)};
        if (currentFactor_)
          for (std::size_t k = 0; k < estimates.size(); ++k) {
            const Eigen::VectorXd x = whitened(estimates[k], *current_, *currentFactor_);
            if (x.allFinite()) track.add(k, x);
          }
        track.endUpdate();
        return estimates[chosen];
      }
      if (reference) return referenceMoments(*current_, z, projected);
      if (stein) return steinMoments(cavity, beta, z, g);
      return ownMoments();
    } catch (const samplers::SamplerError&) {
      return std::nullopt;
    } catch (const std::invalid_argument&) {  // draws whose covariance is singular (a chain that did not move)
      return std::nullopt;
    }
  };
}

double siteShare(const FullNatural& theta, const FullNatural& cavity) {
  // the site's precision lambda / beta against the cavity's
  const std::optional<Eigen::VectorXd> e = relativeEigenvalues(-2.0 * (theta.eta2 - cavity.eta2), -2.0 * cavity.eta2);
  return e ? e->cwiseAbs().maxCoeff() : INFINITY;
}

void SampledSites::setApproximation(const FullStandard& q, bool restart) {
  variances_ = q.S.diagonal();
  currentNatural_ = toNatural(q);
  current_ = q;
  const Eigen::LLT<Eigen::MatrixXd> chol(q.S);
  currentFactor_.reset();
  if (chol.info() == Eigen::Success) currentFactor_ = Eigen::MatrixXd(chol.matrixL());
  for (TiltedSampler& s : samplers_) s.setGlobalCovariance(q.S);
  if (restart)
    restartFrom_ = q;
  else
    restartFrom_.reset();
}

std::size_t SampledSites::gradientEvaluations() const {
  std::size_t n = 0;
  for (const TiltedSampler& s : samplers_) n += s.gradientEvaluations();
  return n;
}

std::size_t SampledSites::divergences() const {
  std::size_t n = 0;
  for (const TiltedSampler& s : samplers_) n += s.divergences();
  return n;
}

}  // namespace pvi::algorithms::ep
