// The embedding API (<pvi/pvi.hpp>): compile from a string, bind in-memory values, evaluate,
// map between spaces, fit, and the errors users get.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <thread>

#include "pvi/pvi.hpp"

namespace pvi {
namespace {

const char* kModel = R"(
@partition(site)
data { real<lower=0> s; }
data per site { int N; vector[N] y; }
global { real mu; real<lower=0> sigma; }
model { mu ~ normal(0, s); sigma ~ normal(0, 1); y ~ normal(mu, sigma); }
)";

BoundModel bound() {
  Model m = Model::fromString(kModel, "toy");
  NamedData shared;
  shared.set("s", 2.0);
  std::vector<NamedData> sites(2);
  sites[0].set("N", int64_t{3}).set("y", Eigen::VectorXd::LinSpaced(3, 0.0, 1.0));
  sites[1].set("N", int64_t{2}).set("y", Eigen::VectorXd::Constant(2, 0.4));
  return m.bind(shared, sites, {"a", "b"});
}

// log N(x | m, sd)
double normalLog(double x, double m, double sd) {
  return -0.5 * std::pow((x - m) / sd, 2) - std::log(sd) - 0.5 * std::log(2 * M_PI);
}

TEST(EmbedApi, LogDensityMatchesAHandWrittenDensity) {
  BoundModel b = bound();
  EXPECT_EQ(b.dimZ(), 2u);
  EXPECT_EQ(b.numPartitions(), 2u);
  EXPECT_EQ(b.parameterNames(), (std::vector<std::string>{"mu", "sigma"}));
  Eigen::VectorXd z(2);
  z << 0.3, -0.2;  // sigma = exp(-0.2), log-Jacobian -0.2
  const double sigma = std::exp(-0.2);
  double expected = normalLog(0.3, 0, 2) + normalLog(sigma, 0, 1) - 0.2;
  for (double y : {0.0, 0.5, 1.0, 0.4, 0.4}) expected += normalLog(y, 0.3, sigma);
  Eigen::VectorXd grad;
  EXPECT_NEAR(b.logDensity(z, {}, {}, &grad), expected, 1e-12);
  // Central differences for the gradient.
  for (int i = 0; i < 2; ++i) {
    Eigen::VectorXd up = z, down = z;
    up[i] += 1e-6;
    down[i] -= 1e-6;
    EXPECT_NEAR(grad[i], (b.logDensity(up) - b.logDensity(down)) / 2e-6, 1e-6);
  }
  Eigen::VectorXd c = b.constrain(z);
  EXPECT_NEAR(c[1], sigma, 1e-15);
  EXPECT_NEAR(b.unconstrain(c)[1], -0.2, 1e-15);
  c[1] = -1.0;
  EXPECT_THROW(b.unconstrain(c), std::invalid_argument);
}

TEST(EmbedApi, EvaluationIsThreadSafe) {
  BoundModel b = bound();
  Eigen::VectorXd z(2);
  z << 0.1, 0.2;
  const double reference = b.logDensity(z);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) mismatches[t] += b.logDensity(z) != reference;
    });
  for (std::thread& t : threads) t.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST(EmbedApi, FitAndReadThePosterior) {
  BoundModel b = bound();
  FitOptions o;
  o.rounds = 5;
  Posterior p = b.fit(o);
  EXPECT_EQ(p.mean().size(), 2);
  EXPECT_EQ(p.covariance().rows(), 2);
  Eigen::VectorXd c = p.constrainedMean();
  EXPECT_GT(c[1], 0.0);
  EXPECT_NEAR(c[0], p.mean()[0], 1e-15);  // mu is unbounded
  PosteriorDraws d = p.draws(100, 3);
  EXPECT_EQ(d.global.values.rows(), 100);
  EXPECT_EQ(d.global.columns[3], "mu");
}

// NUTS through the same call: the posterior is the draws, read through the same accessors.
TEST(EmbedApi, SampleWithNutsAndReadTheDraws) {
  BoundModel b = bound();
  FitOptions o;
  o.algorithm = Algorithm::Nuts;
  o.sampling.chains = 2;
  o.sampling.draws = 300;
  o.sampling.warmup = 300;
  std::atomic<int> reports{0};
  Posterior p = b.fit(o, {}, [&](const samplers::ChainProgress&) { ++reports; });
  ASSERT_TRUE(p.sampled());
  EXPECT_GT(reports.load(), 100);
  ASSERT_TRUE(p.result().mixing.has_value());
  const Eigen::MatrixXd& x = p.result().posterior.sampled().draws;
  ASSERT_EQ(x.rows(), 600);
  ASSERT_EQ(p.mean().size(), 2);
  EXPECT_NEAR(p.mean()[1], x.col(1).mean(), 1e-12);
  const double varMu = (x.col(0).array() - x.col(0).mean()).square().sum() / 599.0;
  EXPECT_NEAR(p.covariance()(0, 0), varMu, 1e-12);
  // mu is unbounded; sigma = exp(z_2): its posterior mean is the mean of exp of the draws.
  const Eigen::VectorXd c = p.constrainedMean();
  EXPECT_NEAR(c[0], p.mean()[0], 1e-12);
  EXPECT_NEAR(c[1], x.col(1).array().exp().mean(), 1e-12);
  EXPECT_EQ(p.draws(0).global.values.rows(), 600);
}

TEST(EmbedApi, ErrorsNameWhatIsWrong) {
  try {
    Model::fromString("global { real a; } model { a ~ nornal(0, 1); }", "typo");
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("nornal"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Model::fromFile("/no/such/model.pvi"), std::runtime_error);
  Model m = Model::fromString(kModel, "toy");
  NamedData shared, site;
  site.set("N", int64_t{1}).set("y", Eigen::VectorXd::Zero(1));
  try {
    m.bind(shared, {site});
    FAIL() << "bound without s";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("'s'"), std::string::npos) << e.what();
  }
  shared.set("s", -1.0);
  try {
    m.bind(shared, {site});
    FAIL() << "bound a negative s";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("lower bound"), std::string::npos) << e.what();
  }
  shared.set("s", 1.0).set("t", 2.0);
  EXPECT_THROW(m.bind(shared, {site}), DataError);
  DataTexts texts;
  texts.sharedJson = SourceText{"shared.json", R"({"s": 1})"};
  texts.partitionCsv = SourceText{"sites.csv", "site,y\na,1\na,2\nb,3\n"};
  BoundModel fromText = m.bind(texts);
  EXPECT_EQ(fromText.numPartitions(), 2u);
  EXPECT_EQ(fromText.factors().partitionLabels(), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace pvi
