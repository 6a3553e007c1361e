// The `--algorithm auto` rule (docs/fitting.md) and the checks of explicit choices.
#include <gtest/gtest.h>

#include <cmath>

#include <limits>

#include "runtime/fit/AlgorithmChoice.hpp"

namespace pvi {
namespace {

ModelShape shape(std::size_t globals, std::size_t partitions, std::size_t locals) {
  ModelShape s;
  s.globalDim = globals;
  s.partitions = partitions;
  s.localDim = locals;
  return s;
}

TEST(AlgorithmChoice, NoLocalsGivesDampedSynchronousPvi) {
  AlgorithmChoice c = chooseAlgorithm(shape(58, 10, 0), FitOptions{});
  EXPECT_EQ(c.algorithm, Algorithm::Pvi);
  EXPECT_EQ(c.schedule, ScheduleKind::Synchronous);
  EXPECT_EQ(c.family, FamilyKind::Full);
  EXPECT_DOUBLE_EQ(c.damping, 2.0 / 11.0);  // 10 clients and the refined prior
  EXPECT_NE(c.reason.find("no local latents"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("synchronous"), std::string::npos) << c.reason;
}

TEST(AlgorithmChoice, LocalsGiveSfviAndNameThePreferredAlgorithm) {
  ModelShape sixty = shape(7, 60, 60);
  sixty.maxLocalDim = 1;
  AlgorithmChoice small = chooseAlgorithm(sixty, FitOptions{});
  EXPECT_EQ(small.algorithm, Algorithm::Sfvi);
  EXPECT_EQ(small.locals, LocalsKind::Structured);  // 1 local per partition: L_j too
  EXPECT_NE(small.reason.find("sfvi: the model has local latents"), std::string::npos) << small.reason;
  EXPECT_NE(small.reason.find("ep-mu"), std::string::npos) << small.reason;
  ModelShape forty = shape(50, 4, 400);
  forty.maxLocalDim = 100;
  AlgorithmChoice large = chooseAlgorithm(forty, FitOptions{});
  EXPECT_EQ(large.algorithm, Algorithm::Sfvi);
  EXPECT_EQ(large.locals, LocalsKind::Skewed);  // more than 64 locals in a partition: L = I, shaped
  EXPECT_NE(large.reason.find("skewed q(w | z)"), std::string::npos) << large.reason;
  EXPECT_EQ(large.reason.find("sfvi-avg"), std::string::npos) << large.reason;
  // With many locals per partition SFVI refines its draws after each plateau (8 -> 128), so its
  // round limit is higher; with a few (contraception's 2) it does not.
  EXPECT_EQ(large.refineSamples, 128u);
  EXPECT_EQ(large.rounds, 100u);
  EXPECT_NE(large.reason.find("draws doubling from 8 to 128 at each plateau"), std::string::npos) << large.reason;
  EXPECT_EQ(small.refineSamples, 0u);
  EXPECT_EQ(small.rounds, 30u);
  FitOptions asPvi;  // PVI's clients take the refined draws from the first round; its rounds stay
  asPvi.algorithm = Algorithm::Pvi;
  const AlgorithmChoice pviMany = chooseAlgorithm(forty, asPvi);
  EXPECT_EQ(pviMany.refineSamples, 128u);
  EXPECT_EQ(pviMany.rounds, 30u);
  EXPECT_NE(pviMany.reason.find("128 draws per local step"), std::string::npos) << pviMany.reason;
  EXPECT_EQ(chooseAlgorithm(sixty, asPvi).refineSamples, 0u);
  FitOptions noRefine;
  noRefine.refineSamples = 8;  // at most --samples: off
  EXPECT_EQ(chooseAlgorithm(forty, noRefine).refineSamples, 0u);
  EXPECT_EQ(chooseAlgorithm(forty, noRefine).rounds, 30u);
  FitOptions budget;
  budget.roundBudget = 4;
  AlgorithmChoice capped = chooseAlgorithm(forty, budget);
  EXPECT_EQ(capped.algorithm, Algorithm::SfviAvg);
  EXPECT_NE(capped.reason.find("sfvi-avg: the model has local latents and the communication rounds are capped"),
            std::string::npos)
      << capped.reason;
  EXPECT_EQ(capped.rounds, 4u);
  // The digits network: 4,097 globals and 4,736 locals per silo. C_j alone would hold 19 million
  // numbers per silo, so the locals are independent of z, and the line says why.
  ModelShape bnn = shape(4097, 10, 47360);
  bnn.maxLocalDim = 4736;
  AlgorithmChoice net = chooseAlgorithm(bnn, FitOptions{});
  EXPECT_EQ(net.locals, LocalsKind::Independent);
  EXPECT_EQ(net.family, FamilyKind::MeanField);
  EXPECT_NE(net.reason.find("independent q(w | z) (coupling it to z would take 4,736 x 4,097 numbers per partition)"),
            std::string::npos)
      << net.reason;
  ModelShape edge = shape(1024, 2, 2048);  // 1024 x 1024 = 2^20: still coupled
  edge.maxLocalDim = 1024;
  EXPECT_EQ(chooseAlgorithm(edge, FitOptions{}).locals, LocalsKind::Skewed);
  edge.maxLocalDim = 1025;
  EXPECT_EQ(chooseAlgorithm(edge, FitOptions{}).locals, LocalsKind::Independent);
  // PVI with locals, when asked for: sequential, undamped.
  FitOptions pvi;
  pvi.algorithm = Algorithm::Pvi;
  AlgorithmChoice p = chooseAlgorithm(sixty, pvi);
  EXPECT_EQ(p.algorithm, Algorithm::Pvi);
  EXPECT_EQ(p.schedule, ScheduleKind::Sequential);
  EXPECT_DOUBLE_EQ(p.damping, 1.0);
}

// Importance-weighted locals: 8 draws of w_j per z where every partition has at most 8 locals,
// none with more (their log weights' variance grows with the number), and only for sfvi and
// sfvi-avg.
TEST(AlgorithmChoice, FewLocalsPerPartitionGetImportanceWeightedDraws) {
  ModelShape sixty = shape(8, 60, 120);
  sixty.maxLocalDim = 2;
  const AlgorithmChoice slope = chooseAlgorithm(sixty, FitOptions{});
  EXPECT_EQ(slope.innerDraws, 8u);
  EXPECT_NE(slope.reason.find("with 8 importance-weighted draws per z"), std::string::npos) << slope.reason;
  FitOptions capped;
  capped.roundBudget = 10;
  EXPECT_EQ(chooseAlgorithm(sixty, capped).innerDraws, 8u);  // sfvi-avg
  ModelShape children = shape(4, 2, 537);
  children.maxLocalDim = 300;
  const AlgorithmChoice cities = chooseAlgorithm(children, FitOptions{});
  EXPECT_EQ(cities.innerDraws, 1u);
  EXPECT_EQ(cities.reason.find("importance-weighted"), std::string::npos) << cities.reason;
  FitOptions one;
  one.innerDraws = 1;
  EXPECT_EQ(chooseAlgorithm(sixty, one).innerDraws, 1u);
  FitOptions many;
  many.innerDraws = 32;
  EXPECT_EQ(chooseAlgorithm(children, many).innerDraws, 32u);
  EXPECT_EQ(chooseAlgorithm(shape(8, 4, 0), many).innerDraws, 1u);  // no locals: nothing to weigh
  for (Algorithm a : {Algorithm::Pvi, Algorithm::EpMu, Algorithm::Nuts}) {
    FitOptions o = many;
    o.algorithm = a;
    try {
      chooseAlgorithm(sixty, o);
      ADD_FAILURE() << algorithmName(a) << " accepted --inner-draws";
    } catch (const FitConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find("--inner-draws is for sfvi and sfvi-avg"), std::string::npos) << e.what();
    }
  }
  FitOptions pvi;
  pvi.algorithm = Algorithm::Pvi;
  EXPECT_EQ(chooseAlgorithm(sixty, pvi).innerDraws, 1u);
}

// Where the locals get importance-weighted draws, auto draws them from each z's Laplace proposal
// and skews q(z) (sfvi; sfvi-avg has no skewed q(z)); each can be turned off or asked for.
TEST(AlgorithmChoice, WeightedLocalsComeFromTheLaplaceProposalWithASkewedQz) {
  ModelShape sixty = shape(8, 60, 120);
  sixty.maxLocalDim = 2;
  const AlgorithmChoice slope = chooseAlgorithm(sixty, FitOptions{});
  EXPECT_TRUE(slope.laplaceLocals);
  EXPECT_TRUE(slope.skewedGlobals);
  EXPECT_NE(slope.reason.find("full skewed Gaussian"), std::string::npos) << slope.reason;
  EXPECT_NE(slope.reason.find("8 importance-weighted draws per z from each z's Laplace proposal"), std::string::npos)
      << slope.reason;
  FitOptions capped;
  capped.roundBudget = 10;
  const AlgorithmChoice avg = chooseAlgorithm(sixty, capped);
  EXPECT_EQ(avg.algorithm, Algorithm::SfviAvg);
  EXPECT_TRUE(avg.laplaceLocals);
  EXPECT_FALSE(avg.skewedGlobals);
  ModelShape children = shape(4, 2, 537);
  children.maxLocalDim = 300;
  const AlgorithmChoice cities = chooseAlgorithm(children, FitOptions{});
  EXPECT_FALSE(cities.laplaceLocals);
  EXPECT_FALSE(cities.skewedGlobals);
  FitOptions q;
  q.laplaceLocals = false;
  EXPECT_FALSE(chooseAlgorithm(sixty, q).laplaceLocals);
  EXPECT_FALSE(chooseAlgorithm(sixty, q).skewedGlobals);
  FitOptions gaussian;
  gaussian.skewedGlobals = false;
  EXPECT_TRUE(chooseAlgorithm(sixty, gaussian).laplaceLocals);
  EXPECT_FALSE(chooseAlgorithm(sixty, gaussian).skewedGlobals);
  FitOptions many;
  many.innerDraws = 32;
  EXPECT_FALSE(chooseAlgorithm(children, many).laplaceLocals);  // 300 locals: a 300 x 300 Hessian per z
  FitOptions laplace = many;
  laplace.laplaceLocals = true;
  EXPECT_TRUE(chooseAlgorithm(children, laplace).laplaceLocals);  // asked for
  EXPECT_FALSE(chooseAlgorithm(shape(8, 4, 0), laplace).laplaceLocals);  // no locals
  for (const ModelShape& s : {children, sixty}) {  // one inner draw: nothing to weigh
    FitOptions one;
    one.laplaceLocals = true;
    if (s.maxLocalDim == 2) one.innerDraws = 1;
    try {
      chooseAlgorithm(s, one);
      ADD_FAILURE() << "laplace accepted with one inner draw";
    } catch (const FitConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find("add --inner-draws 8"), std::string::npos) << e.what();
    }
  }
  for (Algorithm a : {Algorithm::Pvi, Algorithm::EpMu, Algorithm::Nuts}) {
    FitOptions o;
    o.laplaceLocals = true;
    o.algorithm = a;
    try {
      chooseAlgorithm(sixty, o);
      ADD_FAILURE() << algorithmName(a) << " accepted --inner-proposal laplace";
    } catch (const FitConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find("--inner-proposal laplace is for sfvi and sfvi-avg"), std::string::npos)
          << e.what();
    }
  }
  FitOptions pvi;
  pvi.algorithm = Algorithm::Pvi;
  EXPECT_FALSE(chooseAlgorithm(sixty, pvi).laplaceLocals);
  EXPECT_FALSE(chooseAlgorithm(sixty, pvi).skewedGlobals);
}

TEST(AlgorithmChoice, LargeGlobalDimensionUsesMeanField) {
  EXPECT_EQ(chooseAlgorithm(shape(200, 3, 0), FitOptions{}).family, FamilyKind::Full);
  EXPECT_EQ(chooseAlgorithm(shape(201, 3, 0), FitOptions{}).family, FamilyKind::MeanField);
}

TEST(AlgorithmChoice, ExplicitOptionsWin) {
  FitOptions o;
  o.algorithm = Algorithm::Pvi;
  o.schedule = ScheduleKind::Synchronous;
  o.family = FamilyKind::MeanField;
  o.damping = 0.5;
  o.rounds = 7;
  AlgorithmChoice c = chooseAlgorithm(shape(7, 60, 60), o);
  EXPECT_EQ(c.schedule, ScheduleKind::Synchronous);
  EXPECT_EQ(c.family, FamilyKind::MeanField);
  EXPECT_DOUBLE_EQ(c.damping, 0.5);
  EXPECT_EQ(c.rounds, 7u);
  EXPECT_NE(c.reason.find("as requested"), std::string::npos);
}

TEST(AlgorithmChoice, EpVariantsGetTheirStepsAndRefuseWhatTheyCannotServe) {
  ModelShape sixty = shape(7, 60, 60);
  sixty.maxLocalDim = 1;
  for (Algorithm a : {Algorithm::EpEta, Algorithm::EpMu}) {
    FitOptions o;
    o.algorithm = a;
    const AlgorithmChoice c = chooseAlgorithm(sixty, o);
    EXPECT_EQ(c.algorithm, a);
    EXPECT_EQ(c.family, FamilyKind::Full);
    EXPECT_EQ(c.samples, 1u);
    EXPECT_DOUBLE_EQ(c.step, 0.1 / 60);       // 0.1 / sites
    EXPECT_DOUBLE_EQ(c.startStep, 0.5 / 60);  // min(0.1, 0.5 / sites)
    EXPECT_EQ(c.rounds, 3099u);               // ceil(3000 sqrt(64 / 60))
    EXPECT_EQ(c.warmup, c.rounds / 10);
    EXPECT_NE(c.reason.find(algorithmName(a) + " as requested"), std::string::npos) << c.reason;
    EXPECT_NE(c.reason.find("60 partitions as sites"), std::string::npos) << c.reason;
  }
  // Many locals per site (Six Cities: 2 silos of up to 300 children): both steps divided, and the
  // iterations multiplied, by sqrt(300 / 16).
  ModelShape two = shape(5, 2, 537);
  two.maxLocalDim = 300;
  FitOptions mu;
  mu.algorithm = Algorithm::EpMu;
  const AlgorithmChoice many = chooseAlgorithm(two, mu);
  const double factor = std::sqrt(300.0 / 16.0);
  EXPECT_DOUBLE_EQ(many.step, 0.02 / factor);
  EXPECT_DOUBLE_EQ(many.startStep, 0.1 / factor);  // min(0.1, 0.5 / 2) / factor
  EXPECT_EQ(many.rounds, 12991u);                   // ceil(3000 sqrt(300 / 16))
  // Fewer sites, few locals (the EP paper's hierarchical logistic regression: 16 groups of 4
  // coefficients): the iterations multiplied by sqrt(64 / 16) for a longer average.
  ModelShape sixteen = shape(8, 16, 64);
  sixteen.maxLocalDim = 4;
  const AlgorithmChoice groups = chooseAlgorithm(sixteen, mu);
  EXPECT_DOUBLE_EQ(groups.step, 0.1 / 16);
  EXPECT_DOUBLE_EQ(groups.startStep, 0.5 / 16);
  EXPECT_EQ(groups.rounds, 6000u);
  FitOptions ep;
  ep.algorithm = Algorithm::Ep;
  const AlgorithmChoice plain = chooseAlgorithm(sixty, ep);
  EXPECT_EQ(plain.samples, 100u);  // more than D + 2, as its unbiased estimator needs
  EXPECT_DOUBLE_EQ(plain.step, 0.5);
  auto refusedWith = [&](FitOptions o, const std::string& expected) {
    try {
      chooseAlgorithm(sixty, o);
      ADD_FAILURE() << "accepted; expected: " << expected;
    } catch (const FitConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  FitOptions o = ep;
  o.ep.samples = 9;
  refusedWith(o, "--ep-samples above D + 2 = 9");
  o = ep;
  o.algorithm = Algorithm::EpMu;
  o.family = FamilyKind::MeanField;
  refusedWith(o, "full-covariance Gaussian");
  o.family.reset();
  o.ep.step = 1.5;
  refusedWith(o, "--ep-step must be in (0, 1]");
  o.ep.step = 0.0;
  o.ep.power = -1.0;
  refusedWith(o, "--ep-power must be a positive number");
  o.ep.power = 1.0;
  o.ep.inner = 0;
  refusedWith(o, "--ep-inner must be at least 1");
  ModelShape hyper = sixty;
  hyper.hyperDim = 2;
  o = ep;
  o.algorithm = Algorithm::EpMu;
  try {
    chooseAlgorithm(hyper, o);
    ADD_FAILURE() << "hyperparameters without --theta were accepted";
  } catch (const FitConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("does not learn hyperparameters"), std::string::npos) << e.what();
  }
  o.theta = {0.0, 0.0};
  EXPECT_NO_THROW(chooseAlgorithm(hyper, o));
  o = ep;
  try {
    chooseAlgorithm(shape(3, 0, 0), o);
    ADD_FAILURE() << "a model without partitions was accepted";
  } catch (const FitConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("no @partition"), std::string::npos) << e.what();
  }
}

TEST(AlgorithmChoice, BadOptionsAreRefusedWithReasons) {
  auto refused = [](FitOptions o) { EXPECT_THROW(chooseAlgorithm(shape(3, 2, 0), o), FitConfigurationError); };
  FitOptions o;
  o.damping = 1.5;
  refused(o);
  o = {};
  o.damping = -0.1;
  refused(o);
  o = {};
  o.localSteps = 0;
  refused(o);
  o = {};
  o.roundBudget = 0;
  refused(o);
  for (double sd : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    o = {};
    o.initialSd = sd;
    refused(o);
  }
  EXPECT_THROW(parseAlgorithm("hmc"), std::invalid_argument);
  EXPECT_THROW(parseMetric("unit"), std::invalid_argument);
  EXPECT_THROW(parseAdaptation("nutpie"), std::invalid_argument);
  for (const std::string& n : metricNames()) EXPECT_EQ(metricName(parseMetric(n)), n);
  for (const std::string& n : adaptationNames()) EXPECT_EQ(adaptationName(parseAdaptation(n)), n);
  EXPECT_THROW(parseSchedule("asap"), std::invalid_argument);
  EXPECT_THROW(parseFamily("student"), std::invalid_argument);
  for (const std::string& n : scheduleNames()) EXPECT_EQ(scheduleName(parseSchedule(n)), n);
  for (const std::string& n : familyNames()) EXPECT_EQ(familyName(parseFamily(n)), n);
  for (const std::string& n : algorithmNames()) EXPECT_EQ(algorithmName(parseAlgorithm(n)), n);
}

// NUTS runs over every latent: the reason counts them; its options are checked by name, and draws
// that cannot fit in memory are refused before sampling.
TEST(AlgorithmChoice, NutsSaysWhatItSamplesAndRefusesBadOptions) {
  FitOptions o;
  o.algorithm = Algorithm::Nuts;
  const AlgorithmChoice c = chooseAlgorithm(shape(3, 2, 10), o);
  EXPECT_EQ(c.algorithm, Algorithm::Nuts);
  EXPECT_NE(c.reason.find("4 chains of 300 warm-up and 1000 draws over 13 parameters"), std::string::npos) << c.reason;
  const auto refusal = [](FitOptions bad) {
    try {
      chooseAlgorithm(shape(3, 2, 10), bad);
    } catch (const FitConfigurationError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  FitOptions bad = o;
  bad.sampling.chains = 0;
  EXPECT_NE(refusal(bad).find("--chains"), std::string::npos);
  bad = o;
  bad.sampling.adaptDelta = 1.0;
  EXPECT_NE(refusal(bad).find("--adapt-delta"), std::string::npos);
  bad = o;
  bad.sampling.metric = samplers::MetricKind::Dense;
  EXPECT_NE(refusal(bad).find("--adaptation windowed"), std::string::npos);
  bad = o;
  bad.theta = {0.0};
  EXPECT_NE(refusal(bad).find("--theta"), std::string::npos);
  bad = o;
  bad.sampling.draws = std::size_t{1} << 40;
  EXPECT_NE(refusal(bad).find("need more than"), std::string::npos);
}

// The full family holds D(D + 1) numbers in each of 2(M + 1) copies of a factor: refused when
// they exceed memory, with the mean-field family suggested; auto then picks mean-field.
TEST(AlgorithmChoice, FullFamilyTooLargeForMemoryIsRefusedSuggestingMeanField) {
  const MemoryLimit memory{std::uint64_t{16} << 30, "a test limit"};
  FitOptions full;
  full.family = FamilyKind::Full;
  // bnn_classifier with H = 1000: 57 x 1000 + 2 x 1000 + 1 globals, 10 partitions.
  try {
    chooseAlgorithm(shape(59001, 10, 0), full, memory);
    ADD_FAILURE() << "accepted";
  } catch (const FitConfigurationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the full-covariance Gaussian family over 59,001 global dimensions needs a 59,001 x 59,001 covariance "
              "matrix (25.9 GiB) in each of the 22 copies of a factor the fit holds at least (the server's 11 factors, "
              "each partition's own, the posterior): 571 GiB, more than a test limit (16.0 GiB); use the mean-field "
              "family (--family mean-field), which needs 2 x 59,001 numbers per factor");
  }
  FitOptions meanField;
  meanField.family = FamilyKind::MeanField;
  EXPECT_EQ(chooseAlgorithm(shape(59001, 10, 0), meanField, memory).family, FamilyKind::MeanField);

  // Exactly at the limit is accepted, one number more is not.
  const std::uint64_t numbers = *familyStateNumbers(FamilyKind::Full, shape(100, 3, 0));
  EXPECT_EQ(numbers, 100u * 101u * 8u);
  const MemoryLimit exact{numbers * 8, "exact"}, short1{numbers * 8 - 1, "short"};
  EXPECT_EQ(chooseAlgorithm(shape(100, 3, 0), full, exact).family, FamilyKind::Full);
  EXPECT_THROW(chooseAlgorithm(shape(100, 3, 0), full, short1), FitConfigurationError);
  // Auto, which would pick full at 100 dimensions, picks mean-field when full does not fit.
  EXPECT_EQ(chooseAlgorithm(shape(100, 3, 0), FitOptions{}, exact).family, FamilyKind::Full);
  EXPECT_EQ(chooseAlgorithm(shape(100, 3, 0), FitOptions{}, short1).family, FamilyKind::MeanField);
}

TEST(AlgorithmChoice, FamilySizesAreCheckedNotWrapped) {
  // D = 2^32: D x D overflows 64 bits.
  const std::size_t d = std::size_t{1} << 32;
  EXPECT_EQ(familyStateNumbers(FamilyKind::Full, shape(d, 1, 0)), std::nullopt);
  EXPECT_EQ(familyStateNumbers(FamilyKind::MeanField, shape(d, 1, 0)), 2 * d * 4);
  FitOptions full;
  full.family = FamilyKind::Full;
  // Refused on any machine, by this machine's memory.
  EXPECT_THROW(chooseAlgorithm(shape(d, 1, 0), full), FitConfigurationError);
  // Mean-field too large: no family to suggest.
  try {
    chooseAlgorithm(shape(1000000, 10, 0), FitOptions{}, MemoryLimit{std::uint64_t{64} << 20, "a test limit"});
    ADD_FAILURE() << "accepted";
  } catch (const FitConfigurationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the mean-field Gaussian family over 1,000,000 global dimensions needs 2 x 1,000,000 numbers in each of "
              "the 22 copies of a factor the fit holds at least (the server's 11 factors, each partition's own, the "
              "posterior): 336 MiB, more than a test limit (64.0 MiB)");
  }
}

}  // namespace
}  // namespace pvi
