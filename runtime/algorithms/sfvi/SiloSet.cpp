#include "runtime/algorithms/sfvi/SiloSet.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <future>
#include <limits>
#include <stdexcept>
#include <string>

#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::algorithms {

template <class Family>
SiloSet<Family>::SiloSet(const FactorModel& model, const SfviOptions<Family>& options, const std::vector<double>& theta)
    : model_(model), options_(options) {
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  const std::size_t J = model.numPartitions();
  for (std::size_t j = 0; j < J; ++j) {
    const auto dw = static_cast<Eigen::Index>(model.localDim(j));
    ConditionalGaussian start =
        ConditionalGaussian::independent(Eigen::VectorXd::Zero(dw), Eigen::VectorXd::Constant(dw, options.initialSd));
    if (dw > 0) start = withShape(start, options.localShape, d);
    silos_.push_back(std::make_unique<SfviSilo<Family>>(
        std::make_shared<estimation::PartitionLikelihood>(model, j, theta), std::move(start), optim::AdamSettings{},
        options.innerDraws, options.laplaceLocals));
    rngs_.emplace_back(support::deriveSeed(options.seed, 0x5f72ULL, j));
  }
  if (options.threads > 1 && J > 1) pool_ = std::make_unique<support::ThreadPool>(std::min(options.threads, J));
}

template <class Family>
Eigen::MatrixXd SiloSet<Family>::noise(std::uint64_t stream, std::size_t j, Eigen::Index n) {
  const auto dw = static_cast<Eigen::Index>(model_.localDim(j));
  const Eigen::Index columns = n * static_cast<Eigen::Index>(dw > 0 ? std::max<std::size_t>(options_.innerDraws, 1) : 1);
  if (options_.localNoise) return options_.localNoise(stream, j, dw, columns);
  return standardNormals(dw, columns, rngs_[j]);
}

template <class Family>
void SiloSet<Family>::forEach(const std::function<void(std::size_t)>& fn) {
  const auto one = [&](std::size_t j) {
    try {
      fn(j);
    } catch (const std::exception& e) {
      throw std::runtime_error("partition '" + model_.partitionLabel(j) + "': " + e.what());
    }
  };
  support::forEachIndex(pool_.get(), silos_.size(), one);
}

template <class Family>
std::vector<SiloReply<Family>> SiloSet<Family>::stepAll(const Eigen::VectorXd& m, const Root& root,
                                                        const std::vector<double>& theta, const Eigen::MatrixXd& eps,
                                                        std::uint64_t stream, double learningRate,
                                                        bool drawCross) {
  std::vector<Eigen::MatrixXd> xi(silos_.size());
  for (std::size_t j = 0; j < silos_.size(); ++j) xi[j] = noise(stream, j, eps.cols());
  std::vector<SiloReply<Family>> replies(silos_.size());
  forEach([&](std::size_t j) { replies[j] = silos_[j]->step(m, root, theta, eps, xi[j], learningRate, drawCross); });
  return replies;
}

template <class Family>
std::vector<ConditionalGaussian> SiloSet<Family>::conditionals(const Eigen::VectorXd& m) const {
  std::vector<ConditionalGaussian> out;
  for (const auto& s : silos_) out.push_back(s->localDim() > 0 ? s->conditional(m) : ConditionalGaussian{});
  return out;
}

std::size_t sentNumbers(const FullStandard& q) {
  const auto d = static_cast<std::size_t>(q.dim());
  return d + d * (d + 1) / 2;
}
std::size_t sentNumbers(const MeanFieldStandard& q) { return 2 * static_cast<std::size_t>(q.dim()); }

namespace {

template <class Family>
std::vector<double> checkedTheta(const FactorModel& model, const SfviOptions<Family>& o, const char* algorithm) {
  if (o.rounds == 0 || o.iterationsPerRound == 0 || o.samples == 0)
    throw std::invalid_argument(std::string(algorithm) + ": rounds, iterations per round and samples must be positive");
  if (!(o.learningRate > 0.0))
    throw std::invalid_argument(std::string(algorithm) + ": the learning rate must be positive");
  const std::size_t h = model.hyperDim();
  std::vector<double> theta = o.theta.empty() ? std::vector<double>(h, 0.0) : o.theta;
  if (theta.size() != h)
    throw std::invalid_argument(std::string(algorithm) + ": the model has " + std::to_string(h) + " hyperparameters, " +
                                std::to_string(theta.size()) + " values given");
  return theta;
}

}  // namespace

template <class Family>
SfviRun<Family>::SfviRun(const FactorModel& m, const SfviOptions<Family>& o, const char* algorithm)
    : model(m),
      options(o),
      theta0(checkedTheta(m, o, algorithm)),
      start(o.start
                ? *o.start
                : FamilyTraits<Family>::isotropic(static_cast<Eigen::Index>(m.globalDim()), o.initialSd * o.initialSd)),
      silos(m, o, theta0),
      prior(m, theta0),
      global(start, theta0, o.learnTheta, o.shapedGlobals) {}

template <class Family>
support::TraceRecord SfviRun<Family>::roundRecord(std::size_t round) {
  support::TraceRecord record;
  record.round = round;
  record.freeEnergy = -std::numeric_limits<double>::infinity();
  record.freeEnergyStandardError = 0.0;
  const auto ne = static_cast<Eigen::Index>(std::max<std::size_t>(options.elboSamples, 2));
  std::mt19937_64 evalRng(support::deriveSeed(options.seed, 0xe1b0ULL, round));
  const Eigen::MatrixXd eps = standardNormals(static_cast<Eigen::Index>(model.globalDim()), ne, evalRng);
  try {
    const Eigen::MatrixXd sent = global.sendDraws(eps);
    const std::vector<SiloReply<Family>> replies =
        silos.stepAll(global.mean(), global.root(), global.theta(), sent, kElboStream | round, 0.0);
    Eigen::VectorXd total = global.priorTerm(prior, sent).drawValues;
    for (const SiloReply<Family>& r : replies) total += r.values;
    record.freeEnergy = total.mean() + global.entropy();
    record.freeEnergyStandardError = std::sqrt((total.array() - total.mean()).square().sum() /
                                               static_cast<double>(ne - 1) / static_cast<double>(ne));
  } catch (const std::runtime_error& e) {
    result.events.push_back("round " + std::to_string(round) + ": the ELBO is not finite (" + e.what() + ")");
  }
  result.counters.evaluationMessages += 2 * silos.size();
  result.counters.rounds = round;
  record.counters = result.counters;
  return record;
}

template <class Family>
bool SfviRun<Family>::closeRound(support::TraceRecord record, const Standard& before) {
  const Standard q = global.standard();
  record.maxChange = (q.m - before.m).cwiseAbs().cwiseQuotient(marginalSds(before)).maxCoeff();
  record.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
  result.trace.push_back(record);
  result.rounds = record.round;
  result.stoppedEarly = options.afterRound && options.afterRound(record, q);
  return result.stoppedEarly;
}

template <class Family>
SfviResult<Family> SfviRun<Family>::finish(std::size_t samples) {
  result.samples = samples;
  result.q = global.standard();
  result.globalShape = global.shape();
  result.theta = global.theta();
  result.locals = silos.conditionals(global.mean());
  result.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
  return std::move(result);
}

#define PVI_INSTANTIATE(F)   \
  template class SiloSet<F>; \
  template class SfviRun<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
