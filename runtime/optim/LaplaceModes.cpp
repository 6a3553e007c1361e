#include "runtime/optim/LaplaceModes.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>

#include "runtime/support/Seeds.hpp"

namespace pvi::optim {
namespace {

constexpr std::uint64_t kStartsStream = 0x4D4F444553;  // "MODES"
constexpr int kAttemptsPerStart = 100;                 // Stan's initialisation tries 100 points
constexpr double kSameMode = 0.01;                     // squared Laplace distance: 0.1 sd

// Whether x lies within 0.1 Laplace sd of the mode.
bool atMode(const LaplaceMode& mode, const Eigen::VectorXd& x) {
  const Eigen::VectorXd delta = x - mode.laplace.x;
  return delta.dot(-mode.laplace.hessian * delta) < kSameMode;
}

}  // namespace

double laplaceLogMass(const LaplaceResult& mode) {
  const Eigen::LLT<Eigen::MatrixXd> precision(-mode.hessian);
  if (precision.info() != Eigen::Success) return std::numeric_limits<double>::quiet_NaN();
  // log det(-H) = 2 sum log diag(L)
  return mode.value - precision.matrixLLT().diagonal().array().log().sum();
}

LaplaceModes laplaceAtModes(const ValueAndGradient& f, const CurvatureAt& curvature, const Eigen::VectorXd& first,
                            const MultiStartOptions& options) {
  // Remember where and with which steps the curvature was last evaluated (and returned), to
  // restore the winner's by-products.
  Eigen::VectorXd lastPoint, lastSteps;
  const CurvatureAt tracked = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& steps) {
    lastPoint.resize(0);
    Eigen::MatrixXd h = curvature(x, steps);
    lastPoint = x;
    lastSteps = steps;
    return h;
  };

  LaplaceModes r;
  // A mode counts when its curvature factorises and gives a finite mass.
  const auto accept = [&](LaplaceResult&& mode) {
    const double mass = laplaceLogMass(mode);
    if (std::isfinite(mass)) r.modes.push_back({std::move(mode), mass, 1});
  };
  r.first = laplaceAtMode(f, tracked, first, options.lbfgs);
  r.searches = 1;
  r.evaluations = r.first.search.evaluations;
  if (r.first.improper()) return r;
  if (r.first.outcome == LaplaceOutcome::Found) accept(LaplaceResult(r.first));

  // The other searches, from uniform points where the density is finite. The points are drawn
  // here, one after the other from one stream (each redrawn until the density is finite there),
  // so they are the same however the searches then run.
  const std::size_t others = options.starts > 1 ? options.starts - 1 : 0;
  std::vector<std::optional<LbfgsResult>> searched(others);
  std::vector<std::size_t> spent(others, 0);
  std::vector<std::optional<Eigen::VectorXd>> starts(others);
  std::mt19937_64 rng(support::deriveSeed(options.seed, kStartsStream));
  for (std::size_t s = 0; s < others; ++s) {
    for (int attempt = 0; attempt < kAttemptsPerStart; ++attempt) {
      Eigen::VectorXd x(first.size()), g(first.size());
      for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = options.radius * (2.0 * support::uniform01(rng) - 1.0);
      ++spent[s];
      if (!std::isfinite(f(x, g))) continue;
      starts[s] = std::move(x);
      break;
    }
  }
  const std::function<void(std::size_t)> search = [&](std::size_t s) {
    if (!starts[s]) return;
    LbfgsResult end = maximiseLbfgs(f, *starts[s], options.lbfgs);
    spent[s] += end.evaluations;
    if (end.status != LbfgsStatus::NotFiniteAtStart) searched[s] = std::move(end);
  };
  if (options.forEach) {
    options.forEach(others, search);
  } else {
    for (std::size_t s = 0; s < others; ++s) search(s);
  }
  std::vector<LbfgsResult> ends;
  for (std::size_t s = 0; s < others; ++s) {
    r.evaluations += spent[s];
    if (!searched[s]) continue;
    ++r.searches;
    // Only searches that converged: a search stopped by its iteration limit on a slowly rising
    // ridge is no mode, and its flat curvature would give it a large mass.
    if (searched[s]->status == LbfgsStatus::Converged) ends.push_back(std::move(*searched[s]));
  }
  std::sort(ends.begin(), ends.end(), [](const LbfgsResult& a, const LbfgsResult& b) { return a.value > b.value; });
  // Counts a search for the known mode x lies at, if there is one.
  const auto countedAtKnownMode = [&](const Eigen::VectorXd& x) {
    const auto known = std::find_if(r.modes.begin(), r.modes.end(), [&](const LaplaceMode& m) { return atMode(m, x); });
    if (known != r.modes.end()) ++known->reached;
    return known != r.modes.end();
  };
  for (const LbfgsResult& end : ends) {
    if (countedAtKnownMode(end.x) || r.modes.size() >= options.maxModes) continue;
    LaplaceResult mode = laplaceAtMode(f, tracked, end.x, options.lbfgs);
    r.evaluations += mode.search.evaluations;
    if (mode.outcome != LaplaceOutcome::Found || mode.search.status != LbfgsStatus::Converged) continue;
    if (!countedAtKnownMode(mode.x)) accept(std::move(mode));  // the polished point may still be a known mode
  }
  std::stable_sort(r.modes.begin(), r.modes.end(),
                   [](const LaplaceMode& a, const LaplaceMode& b) { return a.logMass > b.logMass; });

  if (!r.modes.empty()) {
    LaplaceResult& best = r.modes.front().laplace;
    const bool last = lastPoint.size() == best.x.size() && lastPoint == best.x && lastSteps == best.hessianSteps;
    // The same call succeeded before; should it fail now, the Hessian kept stands.
    if (!last) try {
        best.hessian = curvature(best.x, best.hessianSteps);
      } catch (const std::domain_error&) {
      }
  }
  return r;
}

}  // namespace pvi::optim
