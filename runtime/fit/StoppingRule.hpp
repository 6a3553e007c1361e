#pragma once
// When a variational fit stops before its round limit (docs/fitting.md, "Stopping"): the ELBO has
// stopped rising and q has stopped moving.
//
// The ELBO alone is not enough: on a ridge (an intercept against the group effects of a
// hierarchical model) q can drift by a tenth of its sd per round while the ELBO gains a fraction
// of its Monte Carlo standard error, so "no gain for `patience` rounds" ends the fit half way.
// So the plateau counts only when, in addition, no global's mean has moved by more than
// `driftPerRound` x `patience` of its sd under q between the first and the last of those rounds
// (0.25 sd over 5 rounds, 0.15 over 3): Monte Carlo jitter of the iterates (a few hundredths of an
// sd, not growing with the rounds) stays below it, a steady drift of 0.05 sd per round or more
// does not, whatever the patience.
#include <Eigen/Core>
#include <cstddef>
#include <deque>
#include <limits>

#include "runtime/support/Trace.hpp"

namespace pvi {

class StoppingRule {
 public:
  explicit StoppingRule(std::size_t patience, double driftPerRound = 0.05)
      : patience_(patience), maxDrift_(driftPerRound * static_cast<double>(patience)) {}

  // After each round: its record and q's means and sds (of the globals, unconstrained). True
  // when the fit should stop.
  bool update(const support::TraceRecord& r, const Eigen::VectorXd& mean, const Eigen::VectorXd& sd);

  // The largest drift over the last window, in sds of q (0 before the window is full).
  double drift() const { return drift_; }

 private:
  std::size_t patience_;
  double maxDrift_;
  double best_ = -std::numeric_limits<double>::infinity();
  std::size_t since_ = 0;
  std::deque<Eigen::VectorXd> means_;
  double drift_ = 0.0;
};

}  // namespace pvi
