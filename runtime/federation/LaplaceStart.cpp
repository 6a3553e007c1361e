#include "runtime/federation/LaplaceStart.hpp"

#include <mutex>
#include <sstream>

#include "runtime/families/Family.hpp"
#include "runtime/optim/LaplaceModes.hpp"

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
    for (Participant<Family>* p : participants_) terms.push_back(p->pointTerm(z, steps));
    const std::lock_guard lock(countersMutex_);  // the searches may run on several threads
    auto& counters = f_.server().counters();
    for (Participant<Family>* p : participants_) {
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
  std::mutex countersMutex_;
};

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
  // Each curvature evaluation keeps every term's Hessian: the last is at the mode.
  std::vector<PointTerm> terms;
  const optim::CurvatureAt curvature = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& steps) {
    terms = joint.collect(x, &steps);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(x.size(), x.size());
    for (const PointTerm& t : terms) H += t.hessian;
    return H;
  };
  optim::MultiStartOptions search;
  search.lbfgs = options.lbfgs;
  search.starts = options.starts;
  search.seed = options.seed;
  search.forEach = support::forEachIndexOn(federation.pool());
  const optim::LaplaceModes modes = optim::laplaceAtModes(std::ref(joint), curvature, start, search);
  // The first search's outcome says why there is no start when no proper mode was found.
  const optim::LaplaceResult& mode = modes.found() ? modes.modes.front().laplace : modes.first;
  report.improper = mode.improper();
  const std::string asked = " (does it have a prior, and do the data inform it?)";
  switch (mode.outcome) {
    case optim::LaplaceOutcome::NotFiniteAtStart:
      report.summary = "started from the prior: the joint density is not finite at its mean";
      return report;
    case optim::LaplaceOutcome::RunsOff:
      report.finding = "the joint density keeps rising as " + nameOf(options, mode.coordinate) +
                       " runs off to infinity (" + std::to_string(mode.search.iterations) + " L-BFGS iterations)";
      break;
    case optim::LaplaceOutcome::Flat:
      report.finding = "the joint density is flat along " + nameOf(options, mode.coordinate) + " at its mode";
      break;
    case optim::LaplaceOutcome::StillRising:
      report.finding =
          "the joint density still rises three Laplace standard deviations from where the search stopped, along " +
          nameOf(options, mode.coordinate);
      break;
    case optim::LaplaceOutcome::NotCurved:
      report.summary = "started from the prior: the joint density is not curved downwards along " +
                       nameOf(options, mode.coordinate) + " where the search stopped (" + mode.search.note + ")";
      return report;
    case optim::LaplaceOutcome::CurvatureFailed:
      report.summary = "started from the prior: the curvature at the mode could not be computed (" + mode.detail + ")";
      return report;
    case optim::LaplaceOutcome::Found: break;
  }
  if (report.improper) {
    report.coordinate = mode.coordinate;
    report.summary = "the posterior looks improper: " + report.finding +
                     (mode.outcome == optim::LaplaceOutcome::RunsOff ? "" : asked);
    return report;
  }

  // The factors: each participant's second-order expansion at the mode.
  auto at = FamilyTraits<Family>::isotropic(static_cast<Eigen::Index>(d), 1.0);
  at.m = mode.x;
  std::vector<Natural> deltas;
  Natural total =
      federation.priorRefined() ? Natural::flat(static_cast<Eigen::Index>(d)) : federation.server().factor(0);
  std::size_t k = 0;
  for (Participant<Family>* p : federation.participants()) {
    const PointTerm& t = terms[k++];
    const Natural target = likelihoodNatural(at, t.gradient, FamilyTraits<Family>::curvatureOf(t.hessian));
    total += target;
    deltas.push_back(target - p->factor());
  }
  if (const Validity v = checkDistribution(total); !v.ok()) {
    report.summary = "started from the prior: the Laplace factors do not make a distribution (" + v.reason + ")";
    return report;
  }

  if (const std::optional<std::string> refused = federation.moveFactors(deltas)) {
    report.summary = "started from the prior: the server refused the Laplace factors (" + *refused + ")";
    return report;
  }
  report.applied = true;
  report.mode = mode.x;
  std::ostringstream s;
  s << "started at the Laplace approximation at the mode (log density " << mode.value;
  if (modes.modes.size() > 1) s << "; the one with the most mass of " << modes.modes.size() << " modes";
  s << "; " << modes.searches << " L-BFGS searches, " << modes.evaluations << " evaluations)";
  report.summary = s.str();
  return report;
}

#define PVI_INSTANTIATE(F) template LaplaceStartReport startAtLaplace<F>(Federation<F>&, const LaplaceStartOptions&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
