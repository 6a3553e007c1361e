#include "runtime/federation/LaplaceStart.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "runtime/families/Family.hpp"
#include "runtime/optim/FiniteDifferenceHessian.hpp"

namespace pvi::federation {
namespace {

// A Gaussian factor exp(eta1' z + z' eta2 z) as a term of the log density: value, gradient, Hessian.
PointTerm gaussianTerm(const FullNatural& eta, const Eigen::VectorXd& z, bool withHessian) {
  const Eigen::MatrixXd twoEta2 = eta.eta2 + eta.eta2.transpose();
  PointTerm t{eta.eta1.dot(z) + z.dot(eta.eta2 * z), eta.eta1 + twoEta2 * z, {}};
  if (withHessian) t.hessian = twoEta2;
  return t;
}
PointTerm gaussianTerm(const MeanFieldNatural& eta, const Eigen::VectorXd& z, bool withHessian) {
  PointTerm t{eta.eta1.dot(z) + z.dot(eta.eta2.cwiseProduct(z)), eta.eta1 + 2.0 * eta.eta2.cwiseProduct(z), {}};
  if (withHessian) t.hessian = Eigen::MatrixXd((2.0 * eta.eta2).asDiagonal());
  return t;
}

std::string nameOf(const LaplaceStartOptions& o, std::size_t k) {
  if (k < o.names.size()) return "'" + o.names[k] + "'";
  return "coordinate " + std::to_string(k + 1);
}

// The directions of the curvature -H, least curved first: eigenvalues ascending.
struct Curvature {
  Eigen::VectorXd values;
  Eigen::MatrixXd directions;
};
Curvature curvatureOf(const Eigen::MatrixXd& H) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(-H);
  return {eigen.eigenvalues(), eigen.eigenvectors()};
}

// The coordinate that dominates direction k.
std::size_t dominantCoordinate(const Curvature& c, Eigen::Index k) {
  Eigen::Index i = 0;
  c.directions.col(k).cwiseAbs().maxCoeff(&i);
  return static_cast<std::size_t>(i);
}

template <class Family>
class JointAtServer {
 public:
  explicit JointAtServer(Federation<Family>& f) : f_(f), participants_(f.participants()) {}

  // log p(z) + sum_k f_k(z) and its gradient (the exact prior, when held, is added here).
  double operator()(const Eigen::VectorXd& z, Eigen::VectorXd& grad) {
    const std::vector<PointTerm> terms = collect(z, nullptr);
    grad = Eigen::VectorXd::Zero(z.size());
    double value = 0.0;
    for (const PointTerm& t : terms) {
      value += t.value;
      grad += t.gradient;
    }
    return value;
  }

  // Every term with its Hessian: the participants' in factor order, then the exact prior's.
  std::vector<PointTerm> collect(const Eigen::VectorXd& z, const Eigen::VectorXd* steps) {
    std::vector<PointTerm> terms;
    terms.reserve(participants_.size() + 1);
    auto& counters = f_.server().counters();
    for (Participant<Family>* p : participants_) {
      terms.push_back(p->pointTerm(z, steps));
      if (p->factorIndex() == 0) continue;  // the refined prior lives on the server
      const std::size_t d = static_cast<std::size_t>(z.size());
      counters.startMessages += 2;
      counters.startBytes += 8 * (d + d + 1 + (steps ? d * (d + 1) / 2 : 0));
    }
    if (!f_.priorRefined()) terms.push_back(gaussianTerm(f_.server().factor(0), z, steps != nullptr));
    return terms;
  }

 private:
  Federation<Family>& f_;
  std::vector<Participant<Family>*> participants_;
};

// Newton steps x <- x - H^-1 grad(x) with a fixed curvature H (negative definite), halved until
// the density does not fall, until the Newton decrement g' (-H)^-1 g is below 1e-12 or 20 steps.
// Returns whether x moved.
template <class Joint>
bool newtonPolish(Joint& joint, const Eigen::MatrixXd& H, Eigen::VectorXd& x, double& value) {
  const Eigen::LLT<Eigen::MatrixXd> precision(-H);
  if (precision.info() != Eigen::Success) return false;
  Eigen::VectorXd g;
  joint(x, g);
  bool moved = false;
  for (int iteration = 0; iteration < 20 && g.allFinite(); ++iteration) {
    const Eigen::VectorXd step = precision.solve(g);
    if (!(g.dot(step) > 1e-12)) break;
    bool accepted = false;
    for (double t = 1.0; t > 1e-4 && !accepted; t *= 0.5) {
      const Eigen::VectorXd candidate = x + t * step;
      Eigen::VectorXd gc;
      double vc = -std::numeric_limits<double>::infinity();
      try {
        vc = joint(candidate, gc);
      } catch (const std::domain_error&) {
      }
      if (std::isfinite(vc) && vc >= value && gc.allFinite()) {
        x = candidate;
        value = vc;
        g = gc;
        accepted = moved = true;
      }
    }
    if (!accepted) break;
  }
  return moved;
}

}  // namespace

template <class Family>
LaplaceStartReport startAtLaplace(Federation<Family>& federation, const LaplaceStartOptions& options) {
  using Natural = typename Family::Natural;
  LaplaceStartReport report;
  const Eigen::VectorXd start = toStandard(federation.server().posterior()).m;
  const auto d = static_cast<std::size_t>(start.size());
  for (Participant<Family>* p : federation.participants())
    if (!p->offersPointTerm()) {
      report.summary = "started from the prior: the partitions have local latents";
      return report;
    }
  if (d > options.maxDimension) {
    report.summary = "started from the prior: " + std::to_string(d) + " global coordinates are more than the " +
                     std::to_string(options.maxDimension) + " a Laplace start takes";
    return report;
  }

  JointAtServer<Family> joint(federation);
  const optim::LbfgsResult mode = optim::maximiseLbfgs(std::ref(joint), start, options.lbfgs);
  report.iterations = mode.iterations;
  report.evaluations = mode.evaluations;
  switch (mode.status) {
    case optim::LbfgsStatus::NotFiniteAtStart:
      report.summary = "started from the prior: the joint density is not finite at its mean";
      return report;
    case optim::LbfgsStatus::Diverged:
      report.improper = true;
      report.summary = "the posterior looks improper: the joint density keeps rising as " +
                       nameOf(options, mode.divergentCoordinate) + " runs off to infinity (" +
                       std::to_string(mode.iterations) + " L-BFGS iterations)";
      return report;
    case optim::LbfgsStatus::IterationLimit:
    case optim::LbfgsStatus::Converged: break;
  }

  // The curvature at x: every term with its Hessian, and their sum H.
  std::vector<PointTerm> terms;
  Eigen::MatrixXd H;
  Eigen::VectorXd steps = optim::defaultHessianSteps(mode.x);
  const auto curvatureAt = [&](const Eigen::VectorXd& x) {
    terms = joint.collect(x, &steps);
    H = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(d));
    for (const PointTerm& t : terms) H += t.hessian;
    // The next steps on the posterior's own scale: 1/100 of each conditional sd.
    for (std::size_t i = 0; i < d; ++i)
      if (H(i, i) < 0.0) steps[i] = 0.01 / std::sqrt(-H(i, i));
  };
  Eigen::VectorXd x = mode.x;
  double value = mode.value;
  try {
    curvatureAt(x);  // in the units of z
    curvatureAt(x);  // on the posterior's scale
    // Newton's method with that curvature polishes the mode: on a badly conditioned density
    // (a covariate in thousands, a year as a covariate) L-BFGS may stop many posterior sds short.
    if (H.allFinite() && newtonPolish(joint, H, x, value)) curvatureAt(x);
  } catch (const std::domain_error& e) {
    report.summary =
        std::string("started from the prior: the curvature at the mode could not be computed (") + e.what() + ")";
    return report;
  }
  report.mode = x;
  report.logDensity = value;
  if (!H.allFinite()) {
    report.summary = "started from the prior: the curvature at the mode is not finite";
    return report;
  }

  // The factors: each participant's second-order expansion at the mode.
  auto at = FamilyTraits<Family>::isotropic(static_cast<Eigen::Index>(d), 1.0);
  at.m = x;
  std::vector<ClientUpdate<Family>> updates;
  Natural total =
      federation.priorRefined() ? Natural::flat(static_cast<Eigen::Index>(d)) : federation.server().factor(0);
  std::size_t k = 0;
  for (Participant<Family>* p : federation.participants()) {
    const PointTerm& t = terms[k++];
    const Natural target = likelihoodNatural(at, t.gradient, FamilyTraits<Family>::curvatureOf(t.hessian));
    total += target;
    ClientUpdate<Family> u;
    u.factorIndex = p->factorIndex();
    u.ok = true;
    u.delta = target - p->factor();
    updates.push_back(std::move(u));
  }
  // A mode of a proper posterior is curved downwards in every direction, and the density falls
  // (by ~4.5 for a Gaussian) three Laplace standard deviations away from it. A flat direction, or
  // a density still rising there (a likelihood approaching its supremum at infinity, as with
  // separable data and a flat prior), is an improper posterior: the search only stopped because
  // the gradient became too small to follow.
  const Curvature curvature = curvatureOf(H);
  const bool searched = mode.status == optim::LbfgsStatus::Converged;
  const double largest = std::max(curvature.values.cwiseAbs().maxCoeff(), 1e-300);
  if (!(curvature.values[0] > 1e-12 * largest)) {
    const std::string along = nameOf(options, dominantCoordinate(curvature, 0));
    report.improper = searched;
    report.summary = searched ? "the posterior looks improper: the joint density is flat along " + along +
                                    " at its mode (does it have a prior, and do the data inform it?)"
                              : "started from the prior: the joint density is not curved downwards along " + along +
                                    " where the search stopped (" + mode.note + ")";
    return report;
  }
  for (Eigen::Index k = 0; searched && k < curvature.values.size(); ++k)
    for (const double side : {-3.0, 3.0}) {
      const Eigen::VectorXd probe = x + side / std::sqrt(curvature.values[k]) * curvature.directions.col(k);
      Eigen::VectorXd ignored;
      double there = -std::numeric_limits<double>::infinity();
      try {
        there = joint(probe, ignored);
      } catch (const std::domain_error&) {
      }
      if (std::isfinite(there) && there > value) {
        report.improper = true;
        report.summary =
            "the posterior looks improper: the joint density still rises three Laplace standard "
            "deviations from where the search stopped, along " +
            nameOf(options, dominantCoordinate(curvature, k)) + " (does it have a prior, and do the data inform it?)";
        return report;
      }
    }
  if (const Validity v = checkDistribution(total); !v.ok()) {
    report.summary = "started from the prior: the Laplace factors do not make a distribution (" + v.reason + ")";
    return report;
  }

  std::vector<const ClientUpdate<Family>*> received;
  for (const ClientUpdate<Family>& u : updates) received.push_back(&u);
  const std::vector<ApplyOutcome> outcomes = federation.server().apply(received);
  for (std::size_t i = 0; i < updates.size(); ++i)
    federation.participant(updates[i].factorIndex).commit(updates[i], outcomes[i].scale);
  if (!outcomes.empty() && !outcomes.front().applied) {
    report.summary = "started from the prior: the server refused the Laplace factors (" + outcomes.front().reason + ")";
    return report;
  }
  report.applied = true;
  std::ostringstream s;
  s << "started at the Laplace approximation at the mode (log density " << value << ", " << mode.iterations
    << " L-BFGS iterations)";
  report.summary = s.str();
  return report;
}

#define PVI_INSTANTIATE(F) template LaplaceStartReport startAtLaplace<F>(Federation<F>&, const LaplaceStartOptions&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
