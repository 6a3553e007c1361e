#include "Experiment.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>

#include "runtime/algorithms/pvi/Pvi.hpp"

namespace spam {

std::string methodName(Method m) {
  switch (m) {
    case Method::GlobalVI: return "global VI";
    case Method::SequentialPVI: return "sequential PVI";
    case Method::SynchronousPVI: return "synchronous PVI";
    case Method::BcmSame: return "BCM same";
    case Method::BcmSplit: return "BCM split";
    case Method::Vcl: return "VCL";
    case Method::StreamingVB: return "streaming VB";
  }
  return "?";
}

namespace {

template <class Family>
RoundRecord record(Method method, std::size_t round, const typename Family::Natural& q, const TestSet& test,
                   const pvi::support::CommunicationCounters& counters) {
  RoundRecord r;
  r.method = method;
  r.round = round;
  r.score = testScore(test.X, test.y, pvi::toStandard(q));
  r.messages = counters.messages();
  r.bytes = counters.bytes();
  r.rejected = counters.rejected;
  r.halvings = counters.halvings;
  return r;
}

template <class Family>
void addElbo(RoundRecord& r, const pvi::FactorModel& model, const typename Family::Natural& q,
             const ExperimentOptions& options) {
  if (options.elboSamples == 0) return;
  const pvi::estimation::Estimate e = pvi::estimation::globalFreeEnergy<Family>(
      model, {}, q, options.elboSamples, pvi::support::deriveSeed(options.seed, 0xE1B0));
  r.elbo = e.value;
  r.elboStandardError = e.standardError;
}

}  // namespace

template <class Family>
std::vector<RoundRecord> runMethod(Method method, const pvi::FactorModel& model, const std::vector<std::size_t>& sizes,
                                   const TestSet& test, const ExperimentOptions& options,
                                   const std::function<void(const RoundRecord&)>& onRound) {
  if (!model.gaussianPrior()) throw std::invalid_argument("runMethod: the model must declare its Gaussian prior");
  std::vector<RoundRecord> records;
  // The final record gets the ELBO before it is reported; `last` says which one that is.
  const auto add = [&](RoundRecord r, const typename Family::Natural& q, bool last) {
    if (last) addElbo<Family>(r, model, q, options);
    if (onRound) onRound(r);
    records.push_back(r);
  };

  if (method == Method::GlobalVI) {
    pvi::algorithms::GlobalVIOptions o = options.globalVI;
    o.seed = options.seed;
    const pvi::algorithms::GlobalVIResult<Family> result = pvi::algorithms::runGlobalVI<Family>(model, {}, o);
    if (result.stoppedInvalid) throw std::runtime_error("global VI stopped: no valid step");
    for (std::size_t i = 0; i < result.iterates.size(); ++i)
      add(record<Family>(method, i, result.iterates[i], test, {}), result.iterates[i], i + 1 == result.iterates.size());
    return records;
  }

  auto optimiser = std::make_shared<pvi::algorithms::AdamOptimiser<Family>>(options.adam);
  pvi::federation::Federation<Family> federation = pvi::federation::makeFederation<Family>(model, optimiser);
  if (federation.priorRefined()) throw std::logic_error("runMethod: the prior should be exact");
  const pvi::federation::Server<Family>& server = federation.server();
  const bool oneRound = method == Method::BcmSame || method == Method::BcmSplit || method == Method::Vcl;
  const std::size_t lastRound = oneRound ? 1 : options.rounds;
  const auto addCurrent = [&](std::size_t round) {
    add(record<Family>(method, round, server.posterior(), test, server.counters()), server.posterior(),
        round == lastRound);
  };
  addCurrent(0);
  switch (method) {
    case Method::SequentialPVI:
    case Method::SynchronousPVI:
      for (std::size_t r = 1; r <= options.rounds; ++r) {
        if (method == Method::SequentialPVI) {
          pvi::federation::SequentialOptions o;
          o.passes = 1;
          o.damping = options.sequentialDamping;
          o.seed = options.seed;
          pvi::federation::runSequential(federation, o);
        } else {
          pvi::federation::SynchronousOptions o;
          o.rounds = 1;
          o.damping = options.synchronousDamping;
          o.threads = options.threads;
          o.seed = options.seed;
          pvi::federation::runSynchronous(federation, o);
        }
        addCurrent(r);
      }
      break;
    case Method::StreamingVB:
      for (std::size_t r = 1; r <= options.rounds; ++r) {
        // runStreamingVB wants a fresh federation; later passes continue with runSequential,
        // whose clients keep the NoDeletion cavity it set.
        if (r == 1) {
          pvi::algorithms::runStreamingVB(federation, 1, options.seed);
        } else {
          pvi::federation::SequentialOptions o;
          o.passes = 1;
          o.seed = options.seed;
          pvi::federation::runSequential(federation, o);
        }
        addCurrent(r);
      }
      break;
    case Method::BcmSame:
      pvi::algorithms::runBcmSame(federation, options.threads, options.seed);
      addCurrent(1);
      break;
    case Method::BcmSplit:
      pvi::algorithms::runBcmSplit(federation, pvi::algorithms::partitionWeights(sizes), options.threads, options.seed);
      addCurrent(1);
      break;
    case Method::Vcl:
      pvi::algorithms::runVcl(federation, options.seed);
      addCurrent(1);
      break;
    case Method::GlobalVI: break;
  }
  return records;
}

long roundReaching(const std::vector<RoundRecord>& records, double target, double tolerance) {
  long first = -1;
  for (const RoundRecord& r : records) {
    const bool within = r.score.accuracy >= target - tolerance;
    if (within && first < 0) first = static_cast<long>(r.round);
    if (!within) first = -1;
  }
  return first;
}

template std::vector<RoundRecord> runMethod<pvi::MeanFieldGaussian>(Method, const pvi::FactorModel&,
                                                                    const std::vector<std::size_t>&, const TestSet&,
                                                                    const ExperimentOptions&,
                                                                    const std::function<void(const RoundRecord&)>&);
template std::vector<RoundRecord> runMethod<pvi::FullGaussian>(Method, const pvi::FactorModel&,
                                                               const std::vector<std::size_t>&, const TestSet&,
                                                               const ExperimentOptions&,
                                                               const std::function<void(const RoundRecord&)>&);

}  // namespace spam
