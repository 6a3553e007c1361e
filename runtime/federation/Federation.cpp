#include "runtime/federation/Federation.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "runtime/families/Family.hpp"
#include "runtime/support/Seeds.hpp"

namespace pvi::federation {

namespace {

template <class Family>
std::vector<std::unique_ptr<Participant<Family>>> asParticipants(std::vector<std::unique_ptr<Client<Family>>> clients) {
  std::vector<std::unique_ptr<Participant<Family>>> out;
  for (auto& c : clients) out.push_back(std::move(c));
  return out;
}

}  // namespace

template <class Family>
Federation<Family>::Federation(Server<Family> server, std::vector<std::unique_ptr<Client<Family>>> clients,
                               std::unique_ptr<Client<Family>> priorClient)
    : Federation(std::move(server), asParticipants(std::move(clients)), std::move(priorClient)) {}

template <class Family>
Federation<Family>::Federation(Server<Family> server, std::vector<std::unique_ptr<Participant<Family>>> participants,
                               std::unique_ptr<Participant<Family>> prior)
    : server_(std::move(server)), clients_(std::move(participants)), priorClient_(std::move(prior)) {
  if (server_.numFactors() != clients_.size() + 1)
    throw std::invalid_argument("Federation: the server has " + std::to_string(server_.numFactors() - 1) +
                                " client factors but " + std::to_string(clients_.size()) + " clients were given");
  for (std::size_t k = 0; k < clients_.size(); ++k)
    if (!clients_[k] || clients_[k]->factorIndex() != k + 1)
      throw std::invalid_argument("Federation: clients[" + std::to_string(k) + "] must hold factor " +
                                  std::to_string(k + 1));
  if (priorClient_ && priorClient_->factorIndex() != 0)
    throw std::invalid_argument("Federation: the prior client must hold factor 0");
  if (priorClient_ && maxAbsDifference(priorClient_->factor(), server_.factor(0)) != 0.0)
    throw std::invalid_argument("Federation: the prior client's factor differs from the server's eta_0");
}

template <class Family>
Participant<Family>& Federation<Family>::participant(std::size_t factorIndex) {
  if (factorIndex == 0) {
    if (!priorClient_) throw std::out_of_range("Federation: the prior is exact, factor 0 has no participant");
    return *priorClient_;
  }
  if (factorIndex > clients_.size())
    throw std::out_of_range("Federation: no factor " + std::to_string(factorIndex) + " (there are " +
                            std::to_string(clients_.size()) + " partitions)");
  return *clients_[factorIndex - 1];
}

template <class Family>
const Participant<Family>& Federation<Family>::participant(std::size_t factorIndex) const {
  return const_cast<Federation*>(this)->participant(factorIndex);
}

template <class Family>
Client<Family>& Federation<Family>::client(std::size_t factorIndex) {
  auto* c = dynamic_cast<Client<Family>*>(&participant(factorIndex));
  if (!c) throw std::logic_error("Federation: factor " + std::to_string(factorIndex) + " is not an in-process client");
  return *c;
}

template <class Family>
const Client<Family>& Federation<Family>::client(std::size_t factorIndex) const {
  return const_cast<Federation*>(this)->client(factorIndex);
}

template <class Family>
std::vector<Participant<Family>*> Federation<Family>::participants() {
  std::vector<Participant<Family>*> out;
  if (priorClient_) out.push_back(priorClient_.get());
  for (auto& c : clients_) out.push_back(c.get());
  return out;
}

template <class Family>
std::optional<std::string> Federation<Family>::moveFactors(const std::vector<Natural>& deltas) {
  const std::vector<Participant<Family>*> everyone = participants();
  if (deltas.size() != everyone.size())
    throw std::invalid_argument("Federation::moveFactors: one delta per participant is needed");
  if (everyone.empty()) return std::nullopt;
  std::vector<ClientUpdate<Family>> updates(everyone.size());
  std::vector<const ClientUpdate<Family>*> received;
  for (std::size_t k = 0; k < everyone.size(); ++k) {
    updates[k].factorIndex = everyone[k]->factorIndex();
    updates[k].ok = true;
    updates[k].delta = deltas[k];
    received.push_back(&updates[k]);
  }
  const std::vector<ApplyOutcome> outcomes = server_.apply(received);
  for (std::size_t k = 0; k < everyone.size(); ++k) everyone[k]->commit(updates[k], outcomes[k].scale);
  if (!outcomes.front().applied) return outcomes.front().reason;
  return std::nullopt;
}

namespace {

// A participant's expected log-likelihood for the ELBO; a failure names the factor ("factor K: ...",
// which the fit turns into the partition's label).
template <class Participant, class Natural, class Server>
estimation::Estimate expectedLogLikelihoodOf(Participant& p, const Natural& q, std::size_t samples, std::uint64_t seed,
                                             const Server& server) {
  try {
    return p.expectedLogLikelihood(q, samples, seed);
  } catch (const std::exception& e) {
    throw std::runtime_error("the ELBO estimate failed: " + server.factorName(p.factorIndex()) + ": " + e.what());
  }
}

}  // namespace

template <class Family>
estimation::Estimate Federation<Family>::freeEnergy(std::size_t samples, std::uint64_t seed) {
  const Natural& q = server_.posterior();
  double value = entropy(toStandard(q)), variance = 0.0;
  std::vector<estimation::Estimate> terms(clients_.size());
  support::forEachIndex(pool_.get(), clients_.size(), [&](std::size_t k) {
    Participant<Family>& c = *clients_[k];
    terms[k] = expectedLogLikelihoodOf(c, q, samples, support::deriveSeed(seed, c.factorIndex()), server_);
  });
  for (const estimation::Estimate& e : terms) {  // in factor order, whatever the threads
    value += e.value;
    variance += e.standardError * e.standardError;
    server_.counters().evaluationMessages += 2;
  }
  if (priorClient_) {
    const estimation::Estimate e =
        expectedLogLikelihoodOf(*priorClient_, q, samples, support::deriveSeed(seed, 0), server_);
    value += e.value;
    variance += e.standardError * e.standardError;
  } else {
    value += inner(server_.factor(0), toMean(q)) - logPartition(server_.factor(0));
  }
  return {value, std::sqrt(variance)};
}

template <class Family>
double Federation<Family>::clientRecordMismatch() const {
  double worst = 0.0;
  for (const auto& c : clients_)
    worst = std::max(worst, maxAbsDifference(c->factor(), server_.factor(c->factorIndex())));
  if (priorClient_) worst = std::max(worst, maxAbsDifference(priorClient_->factor(), server_.factor(0)));
  return worst;
}

template <class Family>
std::optional<typename Family::Natural> exactPriorFactor(const FactorModel& model) {
  const std::optional<GaussianPrior> prior = model.gaussianPrior();
  if (!prior) return std::nullopt;
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  const bool diagonal = !prior->variances.empty();
  if (prior->mean.size() != static_cast<std::size_t>(d) ||
      (diagonal ? prior->variances.size() != static_cast<std::size_t>(d)
                : prior->covariance.size() != static_cast<std::size_t>(d * d)))
    throw std::invalid_argument("gaussianPrior: mean or covariance of the wrong size");
  const Eigen::VectorXd m = Eigen::Map<const Eigen::VectorXd>(prior->mean.data(), d);
  if (diagonal)
    return toNatural(
        FamilyTraits<Family>::fromVariances(m, Eigen::Map<const Eigen::VectorXd>(prior->variances.data(), d)));
  // Row-major D x D; a symmetric matrix reads the same either way, the transpose fixes the rest.
  const Eigen::MatrixXd S = Eigen::Map<const Eigen::MatrixXd>(prior->covariance.data(), d, d).transpose();
  const std::optional<typename Family::Standard> q = FamilyTraits<Family>::fromMoments(m, S);
  if (!q) return std::nullopt;  // not representable: refine it
  return toNatural(*q);
}

template <class Family>
Federation<Family> makeFederation(const FactorModel& model, std::shared_ptr<const LocalOptimiser<Family>> optimiser,
                                  const FederationOptions<Family>& options) {
  using Natural = typename Family::Natural;
  const auto d = static_cast<Eigen::Index>(model.globalDim());
  const std::size_t m = model.numPartitions();
  if (!options.initialLocals.empty() && options.initialLocals.size() != m)
    throw std::invalid_argument("makeFederation: initialLocals must have one entry per partition");

  std::optional<Natural> exact = options.refinePrior ? std::nullopt : exactPriorFactor<Family>(model);
  std::unique_ptr<Client<Family>> priorClient;
  Natural eta0;
  if (exact) {
    eta0 = *exact;
  } else {
    const double v = options.initialPriorScale * options.initialPriorScale;
    eta0 = toNatural(FamilyTraits<Family>::isotropic(d, v));
    priorClient = std::make_unique<Client<Family>>(
        0, std::make_shared<estimation::PriorLikelihood>(model, options.theta, options.exact),
        options.priorOptimiser ? options.priorOptimiser : optimiser, eta0);
  }
  ServerOptions serverOptions = options.server;
  if (!serverOptions.factorName)  // partitions by their labels: "partition 'dhaka' (factor 3)"
    serverOptions.factorName = [&model](std::size_t k) {
      return k == 0 ? std::string("the prior (factor 0)")
                    : "partition '" + model.partitionLabel(k - 1) + "' (factor " + std::to_string(k) + ")";
    };
  Server<Family> server(eta0, m, serverOptions);
  if (!exact) server.trace().log("prior refined as factor 0 (not exactly Gaussian in this family, or asked to)");

  std::vector<std::unique_ptr<Client<Family>>> clients;
  for (std::size_t j = 0; j < m; ++j) {
    std::optional<ConditionalGaussian> locals;
    if (const auto dw = static_cast<Eigen::Index>(model.localDim(j)); dw > 0) {
      locals = options.initialLocals.empty()
                   ? ConditionalGaussian::independent(Eigen::VectorXd::Zero(dw), Eigen::VectorXd::Ones(dw))
                   : options.initialLocals[j];
      locals = withShape(*locals, options.localShape, d);
    }
    clients.push_back(std::make_unique<Client<Family>>(
        j + 1, std::make_shared<estimation::PartitionLikelihood>(model, j, options.theta, options.exact), optimiser,
        Natural::flat(d), locals));
  }
  return Federation<Family>(std::move(server), std::move(clients), std::move(priorClient));
}

#define PVI_INSTANTIATE(F)                                                                               \
  template class Federation<F>;                                                                          \
  template std::optional<F::Natural> exactPriorFactor<F>(const FactorModel&);                            \
  template Federation<F> makeFederation<F>(const FactorModel&, std::shared_ptr<const LocalOptimiser<F>>, \
                                           const FederationOptions<F>&);
PVI_FOR_EACH_FAMILY(PVI_INSTANTIATE)
#undef PVI_INSTANTIATE

}  // namespace pvi::federation
