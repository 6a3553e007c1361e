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
    ConditionalGaussian start = ConditionalGaussian::independent(Eigen::VectorXd::Zero(dw), Eigen::VectorXd::Ones(dw));
    if (dw > 0) start = withShape(start, options.localShape, d);
    silos_.push_back(std::make_unique<SfviSilo<Family>>(
        std::make_shared<estimation::PartitionLikelihood>(model, j, theta), std::move(start)));
    rngs_.emplace_back(support::deriveSeed(options.seed, 0x5f72ULL, j));
  }
  if (options.threads > 1 && J > 1) pool_ = std::make_unique<support::ThreadPool>(std::min(options.threads, J));
}

template <class Family>
Eigen::MatrixXd SiloSet<Family>::noise(std::uint64_t stream, std::size_t j, Eigen::Index n) {
  const auto dw = static_cast<Eigen::Index>(model_.localDim(j));
  if (options_.localNoise) return options_.localNoise(stream, j, dw, n);
  return standardNormals(dw, n, rngs_[j]);
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
  if (!pool_) {
    for (std::size_t j = 0; j < silos_.size(); ++j) one(j);
    return;
  }
  std::vector<std::future<void>> done;
  for (std::size_t j = 0; j < silos_.size(); ++j) done.push_back(pool_->submit([&one, j] { one(j); }));
  // Every task finishes before anything is rethrown: they use the caller's frame.
  std::exception_ptr first;
  for (auto& f : done) try {
      f.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  if (first) std::rethrow_exception(first);
}

template <class Family>
std::vector<SiloReply<Family>> SiloSet<Family>::stepAll(const Eigen::VectorXd& m, const Root& root,
                                                        const std::vector<double>& theta, const Eigen::MatrixXd& eps,
                                                        std::uint64_t stream, double learningRate) {
  std::vector<Eigen::MatrixXd> xi(silos_.size());
  for (std::size_t j = 0; j < silos_.size(); ++j) xi[j] = noise(stream, j, eps.cols());
  std::vector<SiloReply<Family>> replies(silos_.size());
  forEach([&](std::size_t j) { replies[j] = silos_[j]->step(m, root, theta, eps, xi[j], learningRate); });
  return replies;
}

template <class Family>
std::pair<double, double> SiloSet<Family>::elbo(const GlobalStep<Family>& global,
                                                const estimation::LocalLikelihood& prior, std::size_t round,
                                                std::size_t draws, std::string* failure) {
  const auto ne = static_cast<Eigen::Index>(std::max<std::size_t>(draws, 2));
  std::mt19937_64 evalRng(support::deriveSeed(options_.seed, 0xe1b0ULL, round));
  const Eigen::MatrixXd eps = standardNormals(static_cast<Eigen::Index>(model_.globalDim()), ne, evalRng);
  try {
    const std::vector<SiloReply<Family>> replies =
        stepAll(global.mean(), global.root(), global.theta(), eps, kElboStream | round, 0.0);
    Eigen::VectorXd total = global.priorTerm(prior, eps).drawValues;
    for (const SiloReply<Family>& r : replies) total += r.values;
    const double mean = total.mean() + entropy(global.standard());
    const double se = std::sqrt((total.array() - total.mean()).square().sum() / static_cast<double>(ne - 1) /
                                static_cast<double>(ne));
    return {mean, se};
  } catch (const std::runtime_error& e) {
    if (failure) *failure = e.what();
    return {-std::numeric_limits<double>::infinity(), 0.0};
  }
}

#define PVI_INSTANTIATE(F) template class SiloSet<F>;
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::algorithms
