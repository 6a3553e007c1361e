// The start of a fit at the Laplace approximation (runtime/federation/LaplaceStart.hpp), with the
// federation it starts:
//   - on the conjugate linear-Gaussian model the joint density is quadratic, so the Laplace
//     approximation is the exact posterior: q must equal it (to the rounding of finite differences
//     of exact gradients), for 1 and 3 partitions, an exact or a refined prior, and the mean-field
//     family (whose optimum keeps the exact means and has variances 1 / P_ii);
//   - the server's invariant eta_q == eta_0 + sum_k eta_k holds and every client agrees with it;
//   - with local latents q is left as it was and the report says why (the isotropic start then
//     puts q at N(0, sd^2 I) exactly, with the invariant intact); a flat direction, a density
//     that rises without bound or one still rising beyond the mode found (separable logistic data
//     under a flat prior) are reported as an improper posterior.
#include <gtest/gtest.h>

#include <memory>

#include "PviTestModels.hpp"
#include "runtime/algorithms/pvi/Pvi.hpp"
#include "runtime/federation/IsotropicStart.hpp"
#include "runtime/federation/LaplaceStart.hpp"

namespace pvi::test {
namespace {
using namespace pvi::federation;
using namespace pvi::algorithms;

template <class Family>
Federation<Family> federationOf(const FactorModel& model, bool refinePrior = false) {
  FederationOptions<Family> o;
  o.refinePrior = refinePrior;
  return makeFederation<Family>(model, std::make_shared<AdamOptimiser<Family>>(), o);
}

struct Case {
  int partitions;
  bool refinePrior;
};

class LaplaceStartConjugate : public ::testing::TestWithParam<Case> {};

TEST_P(LaplaceStartConjugate, FullFamilyStartsAtTheExactPosterior) {
  const LinearGaussianModel model(60, 3, GetParam().partitions, 17);
  auto federation = federationOf<FullGaussian>(model, GetParam().refinePrior);
  const LaplaceStartReport report = startAtLaplace(federation);
  ASSERT_TRUE(report.applied) << report.summary;
  EXPECT_FALSE(report.improper);
  const FullStandard q = toStandard(federation.server().posterior());
  const Eigen::MatrixXd S = model.posteriorCovariance();
  const Eigen::VectorXd sd = S.diagonal().cwiseSqrt();
  EXPECT_LT(((q.m - model.posteriorMean()).cwiseQuotient(sd)).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LT(((q.S - S).array() / (sd * sd.transpose()).array()).abs().maxCoeff(), 1e-6);
  EXPECT_LT(federation.server().invariantError(), 1e-12);
  EXPECT_EQ(federation.clientRecordMismatch(), 0.0);
  EXPECT_GT(federation.server().counters().startMessages, 0u);
}

INSTANTIATE_TEST_SUITE_P(PartitionsAndPriors, LaplaceStartConjugate,
                         ::testing::Values(Case{1, false}, Case{3, false}, Case{3, true}), [](const auto& info) {
                           return std::to_string(info.param.partitions) + "Partitions" +
                                  (info.param.refinePrior ? "RefinedPrior" : "ExactPrior");
                         });

TEST(LaplaceStart, MeanFieldFamilyStartsAtItsOptimum) {
  LinearGaussianModel model(60, 3, 3, 19);
  model.setDiagonalPrior();
  auto federation = federationOf<MeanFieldGaussian>(model);
  const LaplaceStartReport report = startAtLaplace(federation);
  ASSERT_TRUE(report.applied) << report.summary;
  const MeanFieldStandard q = toStandard(federation.server().posterior());
  const Eigen::VectorXd var = model.meanFieldVariances();
  EXPECT_LT(((q.m - model.posteriorMean()).cwiseQuotient(var.cwiseSqrt())).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LT((q.var.cwiseQuotient(var).array() - 1.0).abs().maxCoeff(), 1e-6);
  EXPECT_LT(federation.server().invariantError(), 1e-12);
}

TEST(LaplaceStart, ModelsWithLocalLatentsStartFromThePrior) {
  const RandomEffectsModel model(4, 10, 5);
  auto federation = federationOf<FullGaussian>(model);
  const FullNatural before = federation.server().posterior();
  const LaplaceStartReport report = startAtLaplace(federation);
  EXPECT_FALSE(report.applied);
  EXPECT_NE(report.summary.find("local latents"), std::string::npos) << report.summary;
  EXPECT_EQ(maxAbs(federation.server().posterior() - before), 0.0);
}

// The start PVI takes instead with local latents (IsotropicStart.hpp): q becomes N(0, sd^2 I)
// exactly (the prior is N(0, 2^2 I) here), each participant's factor takes an equal share of the
// move, and the server's invariant and the clients' copies of their factors agree.
TEST(IsotropicStart, PutsQAtTheIsotropicGaussianThroughEveryParticipant) {
  const RandomEffectsModel model(4, 10, 5);
  for (double sd : {1.0, 0.5}) {
    auto federation = federationOf<FullGaussian>(model);
    const IsotropicStartReport report = startAtIsotropic(federation, sd);
    ASSERT_TRUE(report.applied) << report.summary;
    EXPECT_NE(report.summary.find("local latents"), std::string::npos) << report.summary;
    const FullStandard q = toStandard(federation.server().posterior());
    EXPECT_LT(q.m.cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((q.S - sd * sd * Eigen::MatrixXd::Identity(q.dim(), q.dim())).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT(federation.server().invariantError(), 1e-12);
    const std::size_t k = federation.server().numFactors();
    for (std::size_t i = 2; i < k; ++i)
      EXPECT_LT(maxAbs(federation.server().factor(i) - federation.server().factor(1)), 1e-12) << i;
    for (Participant<FullGaussian>* p : federation.participants())
      EXPECT_LT(maxAbs(p->factor() - federation.server().factor(p->factorIndex())), 1e-12);
  }
}

// Flat priors on two coordinates; one partition whose term is `kind`:
//   Unbounded  f = z_1 - z_2^2 / 2   (rises forever along z_1: an improper posterior)
//   Flat       f = -z_1^2 / 2        (says nothing about z_2: no curvature along it)
//   Separable  f = sum_i log logistic(x_i z_1) - z_2^2 / 2 with x = (1, 2, 3): rises towards 0 as
//              z_1 -> infinity, so the gradient vanishes long before |z| is large
enum class Kind { Unbounded, Flat, Separable };
class FlatPriorModel : public FactorModel {
 public:
  explicit FlatPriorModel(Kind kind) : kind_(kind) {}
  size_t globalDim() const override { return 2; }
  size_t numPartitions() const override { return 1; }
  double priorLogDensity(const double*, const double*, double* gradZ, double*) const override {
    if (gradZ) gradZ[0] = gradZ[1] = 0.0;
    return 0.0;
  }
  double partitionLogDensity(size_t, const double* z, const double*, const double*, double* gradZ, double*,
                             double*) const override {
    if (kind_ == Kind::Separable) {
      double f = -0.5 * z[1] * z[1], g = 0.0;
      for (const double x : {1.0, 2.0, 3.0}) {
        f -= std::log1p(std::exp(-x * z[0]));
        g += x / (1.0 + std::exp(x * z[0]));
      }
      if (gradZ) gradZ[0] = g, gradZ[1] = -z[1];
      return f;
    }
    if (kind_ == Kind::Unbounded) {
      if (gradZ) gradZ[0] = 1.0, gradZ[1] = -z[1];
      return z[0] - 0.5 * z[1] * z[1];
    }
    if (gradZ) gradZ[0] = -z[0], gradZ[1] = 0.0;
    return -0.5 * z[0] * z[0];
  }
  std::vector<std::string> globalNames() const override { return {"alpha", "beta"}; }

 private:
  Kind kind_;
};

// Starts a federation of `kind` and checks that it is refused as improper, q untouched, with the
// report naming `expected`.
void expectImproper(Kind kind, const std::string& expected) {
  const FlatPriorModel model(kind);
  auto federation = federationOf<FullGaussian>(model);
  const FullNatural before = federation.server().posterior();
  LaplaceStartOptions o;
  o.names = model.globalNames();
  const LaplaceStartReport report = startAtLaplace(federation, o);
  EXPECT_FALSE(report.applied);
  EXPECT_TRUE(report.improper);
  EXPECT_NE(report.summary.find("improper"), std::string::npos) << report.summary;
  EXPECT_NE(report.summary.find(expected), std::string::npos) << report.summary;
  EXPECT_EQ(maxAbs(federation.server().posterior() - before), 0.0);
  EXPECT_LT(federation.server().invariantError(), 1e-12);
}

TEST(LaplaceStart, ADensityRisingWithoutBoundIsAnImproperPosterior) {
  expectImproper(Kind::Unbounded, "runs off to infinity");
  expectImproper(Kind::Unbounded, "'alpha'");
}

TEST(LaplaceStart, AFlatDirectionIsAnImproperPosterior) { expectImproper(Kind::Flat, "flat along 'beta'"); }

TEST(LaplaceStart, ADensityStillRisingBeyondTheModeIsAnImproperPosterior) {
  expectImproper(Kind::Separable, "still rises");
  expectImproper(Kind::Separable, "along 'alpha'");
}

}  // namespace
}  // namespace pvi::test
