#pragma once
// Shared helpers for the PVI tests: running any schedule by name, watching the invariant after
// every server update, and comparing a posterior with a closed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "PviTestModels.hpp"
#include "runtime/algorithms/pvi/Pvi.hpp"

namespace pvi::test {
using namespace pvi::federation;

enum class Schedule { SequentialFixed, SequentialRandom, Synchronous, AsyncVirtualTime, AsyncThreads };

inline std::string scheduleName(Schedule s) {
  switch (s) {
    case Schedule::SequentialFixed: return "SequentialFixed";
    case Schedule::SequentialRandom: return "SequentialRandom";
    case Schedule::Synchronous: return "Synchronous";
    case Schedule::AsyncVirtualTime: return "AsyncVirtualTime";
    case Schedule::AsyncThreads: return "AsyncThreads";
  }
  return "?";
}

inline constexpr Schedule kAllSchedules[] = {Schedule::SequentialFixed, Schedule::SequentialRandom,
                                             Schedule::Synchronous, Schedule::AsyncVirtualTime,
                                             Schedule::AsyncThreads};

// Runs `rounds` rounds of the schedule (asynchronous: rounds * participants updates), with
// damping rho (sequential uses rho too). Async runs use jittered latencies (and `drop` loss).
template <class Family>
RunSummary runSchedule(Federation<Family>& federation, Schedule schedule, std::size_t rounds, double rho,
                       std::uint64_t seed = 3, double drop = 0.0) {
  const std::size_t participants = federation.participants().size();
  SimulatedLinks links;  // outlives the run below
  links.jitter = 0.9;
  links.seed = seed;
  links.defaultDropProbability = drop;
  switch (schedule) {
    case Schedule::SequentialFixed:
    case Schedule::SequentialRandom: {
      SequentialOptions o;
      o.passes = rounds;
      o.damping = rho;
      o.seed = seed;
      o.order = schedule == Schedule::SequentialRandom ? ClientOrder::Random : ClientOrder::Fixed;
      return runSequential(federation, o);
    }
    case Schedule::Synchronous: {
      SynchronousOptions o;
      o.rounds = rounds;
      o.damping = rho;
      o.seed = seed;
      return runSynchronous(federation, o);
    }
    case Schedule::AsyncVirtualTime:
    case Schedule::AsyncThreads: {
      AsynchronousOptions o;
      o.maxUpdates = rounds * participants;
      o.damping = rho;
      o.seed = seed;
      o.links = &links;
      o.executor = schedule == Schedule::AsyncThreads ? AsyncExecutor::Threads : AsyncExecutor::VirtualTime;
      o.secondsPerLatencyUnit = schedule == Schedule::AsyncThreads ? 2e-5 : 0.0;
      return runAsynchronous(federation, o);
    }
  }
  return {};
}

// Records the worst invariant error seen after any server update, and that q stayed valid.
template <class Family>
struct InvariantWatch {
  double worst = 0.0;
  std::size_t updates = 0;
  bool alwaysValid = true;
  void attach(Server<Family>& server) {
    server.setObserver([this](const Server<Family>& s) {
      worst = std::max(worst, s.invariantError());
      alwaysValid = alwaysValid && isValidDistribution(s.posterior());
      ++updates;
    });
  }
};

// Relative Frobenius errors of q's mean and covariance against the closed forms.
struct PosteriorError {
  double mean = 0.0;
  double cov = 0.0;
};

inline PosteriorError posteriorError(const FullNatural& eta, const Eigen::VectorXd& mean, const Eigen::MatrixXd& cov) {
  const FullStandard q = toStandard(eta);
  return {(q.m - mean).norm() / mean.norm(), (q.S - cov).norm() / cov.norm()};
}

inline PosteriorError posteriorError(const MeanFieldNatural& eta, const Eigen::VectorXd& mean,
                                     const Eigen::VectorXd& var) {
  const MeanFieldStandard q = toStandard(eta);
  return {(q.m - mean).norm() / mean.norm(), (q.var - var).norm() / var.norm()};
}

}  // namespace pvi::test
