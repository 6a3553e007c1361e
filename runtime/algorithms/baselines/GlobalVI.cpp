#include "runtime/algorithms/baselines/GlobalVI.hpp"

#include <random>
#include <stdexcept>

#include "runtime/families/Family.hpp"
#include "runtime/federation/Federation.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::algorithms {
namespace {

FullNatural freeEnergyGradient(const FullStandard& q, const FullNatural& eta, const FullNatural& prior,
                               const Eigen::VectorXd& g, const Eigen::MatrixXd& h) {
  const Eigen::MatrixXd precision = -2.0 * eta.eta2;
  const Eigen::VectorXd gm = g + prior.eta1 + 2.0 * prior.eta2 * q.m;
  const Eigen::MatrixXd gs = 0.5 * h + prior.eta2 + 0.5 * precision;
  const Eigen::VectorXd sgm = q.S * gm;
  const Eigen::MatrixXd d2 = sgm * q.m.transpose() + q.m * sgm.transpose() + 2.0 * q.S * gs * q.S;
  return {sgm, symmetricPart(d2)};
}

MeanFieldNatural freeEnergyGradient(const MeanFieldStandard& q, const MeanFieldNatural&, const MeanFieldNatural& prior,
                                    const Eigen::VectorXd& g, const Eigen::VectorXd& h) {
  const Eigen::ArrayXd v = q.var.array();
  const Eigen::ArrayXd gm = g.array() + prior.eta1.array() + 2.0 * prior.eta2.array() * q.m.array();
  const Eigen::ArrayXd gv = 0.5 * h.array() + prior.eta2.array() + 0.5 / v;
  return {(v * gm).matrix(), (2.0 * v * v * gv + 2.0 * v * gm * q.m.array()).matrix()};
}

}  // namespace

template <class Family>
GlobalVIResult<Family> runGlobalVI(const FactorModel& model, const std::vector<double>& theta,
                                   const GlobalVIOptions& options) {
  using Natural = typename Family::Natural;
  for (std::size_t j = 0; j < model.numPartitions(); ++j)
    if (model.localDim(j) > 0) throw std::invalid_argument("runGlobalVI: the model has local latents");
  const std::optional<Natural> prior = federation::exactPriorFactor<Family>(model);
  if (!prior) throw std::invalid_argument("runGlobalVI: needs an exactly Gaussian prior the family represents");
  if (options.samples == 0) throw std::invalid_argument("runGlobalVI: zero samples");
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  // The natural-gradient step replaces q's precision with the prior's minus a Stein estimate of
  // the D x D expected Hessian. Its noise does not shrink with a direction's own curvature, so
  // from n <= D draws it swamps the weakly determined directions and the iterates diverge
  // (spambase, D = 58: diverged with 32 draws, converged with 64, 128 and 512).
  if (options.method == GlobalVIMethod::NaturalGradient && FamilyTraits<Family>::denseCurvature &&
      options.samples <= model.globalDim())
    throw std::invalid_argument("runGlobalVI: the natural-gradient method with a full covariance estimates a " +
                                std::to_string(d) + " x " + std::to_string(d) + " Hessian from " +
                                std::to_string(options.samples) +
                                " draws per iteration; with no more draws than dimensions that estimate is too noisy "
                                "and the iterates diverge: use more than " +
                                std::to_string(d) + " draws, or the mean-field family");
  const auto n = static_cast<Eigen::Index>(options.samples);
  const double* th = theta.empty() ? nullptr : theta.data();

  GlobalVIResult<Family> out;
  Natural eta = *prior;
  out.iterates.push_back(eta);
  Eigen::VectorXd gz(d), gi(d);
  for (std::size_t it = 0; it < options.iterations; ++it) {
    const typename Family::Standard q = toStandard(eta);
    const auto root = reparamRoot(q);
    std::mt19937_64 rng(support::roundSeed(options.seed, it));
    const Eigen::MatrixXd eps = standardNormals(d, n, rng);
    const Eigen::MatrixXd z = reparamDraws(q.m, root, eps);
    Eigen::VectorXd g = Eigen::VectorXd::Zero(d);
    Curvature<Family> cross = FamilyTraits<Family>::zeroCurvature(d);
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::VectorXd zi = z.col(i);
      gi.setZero();
      for (std::size_t j = 0; j < model.numPartitions(); ++j) {
        gz.setZero();
        model.partitionLogDensity(j, zi.data(), nullptr, th, gz.data(), nullptr, nullptr);
        gi += gz;
      }
      g += gi;
      FamilyTraits<Family>::addCross(cross, gi, eps.col(i));
    }
    g /= static_cast<double>(n);
    cross /= static_cast<double>(n);
    const Curvature<Family> h =
        steinHessian(root, centredCross<Family>(cross, g, eps.rowwise().mean(), options.samples));

    const Natural step = options.method == GlobalVIMethod::Gradient
                             ? options.stepSize * freeEnergyGradient(q, eta, *prior, g, h)
                             : options.stepSize * (*prior + likelihoodNatural(q, g, h) - eta);
    double scale = 1.0;
    bool valid = false;
    for (std::size_t k = 0; k <= options.maxHalvings; ++k, scale *= 0.5) {
      const Natural candidate = eta + scale * step;
      if (allFinite(candidate) && checkDistribution(candidate)) {
        eta = candidate;
        valid = true;
        out.halvings += k;
        break;
      }
    }
    if (!valid) {
      out.stoppedInvalid = true;
      break;
    }
    out.iterates.push_back(eta);
  }
  return out;
}

#define PVI_INSTANTIATE(F) \
  template GlobalVIResult<F> runGlobalVI<F>(const FactorModel&, const std::vector<double>&, const GlobalVIOptions&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
