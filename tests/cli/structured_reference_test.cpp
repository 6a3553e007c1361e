// The variational fits of hierarchical models against Stan's NUTS posteriors
// (tests/reference/README.md): with the structured q(w_j | z) (runtime/families/ConditionalGaussian.hpp),
// `pvic run` with its defaults (auto: sfvi) and `--algorithm pvi` must give every global's mean
// within 0.1 reference sd and its sd within 15% of the reference's on the contraception example.
// The summary's moments come from 10,000 draws of q, whose own error (0.01 sd in the mean, 0.7%
// in the sd) is far inside those bounds; measured over seeds 1-5 the worst cells are 0.050 sd and
// 0.918 (sfvi), 0.030 sd and 0.938 (pvi), both for tau (docs/fitting.md).
//
// Six Cities (4 binary observations per child: the children's conditional posteriors are skewed)
// needs the skewed q(w_j | z) that auto picks there: with it the defaults of auto (sfvi) and of
// `--algorithm pvi` meet the same bounds (seeds 1-5 in docs/fitting.md). The Gaussian structured-diagonal family cannot
// (omega 1.3 sd high): it must say so (Pareto k-hat above 0.7 with the warning), never pass silently.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "reference_posterior.hpp"

namespace pvi::test {
namespace {

struct Fit {
  ProcessResult process;
  nlohmann::json summary;
};

Fit fit(const TempDir& dir, const std::string& example, const std::string& flags) {
  const std::string ex = pvi::test::example(example);
  std::string f = flags;
  for (std::size_t at; (at = f.find("@/")) != std::string::npos;) f.replace(at, 1, ex);
  Fit r;
  r.process = run(pvic() + " run " + ex + "/model.pvi" + f + " --seed 1 --draws 10000 --progress never -o " +
                  (dir.path / "fit.csv").string());
  const auto path = dir.path / "fit-summary.json";
  if (std::filesystem::exists(path)) r.summary = nlohmann::json::parse(slurp(path));
  return r;
}

// The worst |mean error| in reference sds and the worst |log sd ratio|, printing every global.
std::pair<double, double> compare(const Fit& r, const std::map<std::string, Reference>& reference,
                                  const std::string& label) {
  double meanErr = 0.0, sdErr = 0.0;
  std::size_t compared = 0;
  for (const auto& column : r.summary["parameters"]) {
    const auto it = reference.find(column["name"].get<std::string>());
    if (it == reference.end()) continue;
    const double mean = column["mean"], sd = column["sd"];
    const double e = (mean - it->second.mean) / it->second.sd, ratio = sd / it->second.sd;
    std::cout << "[measured] " << label << " " << it->first << ": (mean - ref) / ref sd " << e << ", sd / ref sd "
              << ratio << "\n";
    meanErr = std::max(meanErr, std::abs(e));
    sdErr = std::max(sdErr, std::abs(std::log(ratio)));
    ++compared;
  }
  EXPECT_EQ(compared, reference.size()) << label << ": a global is missing from the summary";
  return {meanErr, sdErr};
}

class Contraception : public ::testing::TestWithParam<const char*> {};

TEST_P(Contraception, GlobalsMatchStansLongRun) {
  TempDir dir;
  const Fit r = fit(dir, "hierarchical_logistic",
                    std::string(" --data @/data.json --partition-data @/data_per_district.csv") + GetParam());
  ASSERT_EQ(r.process.exitCode, 0) << r.process.err;
  ASSERT_FALSE(r.summary.is_null()) << r.process.err;
  const auto [meanErr, sdErr] = compare(r, readReference("hierarchical_logistic.csv"), GetParam());
  EXPECT_LE(meanErr, 0.1);
  EXPECT_LE(sdErr, -std::log(0.85));  // sd within 15%, on the side it errs (VI: too narrow)
  // EP's q(w_j | z) comes from 2,000 draws of each site's chain, whose error over 60 districts can
  // put the Pareto k-hat of the whole joint just above 0.7 (0.76 for ep-eta, seed 1) while the
  // globals match: for EP only the verdict must not warn.
  const bool ep = std::string(GetParam()).find("--algorithm ep") != std::string::npos;
  EXPECT_EQ(r.process.err.find(ep ? "warning: not converged" : "warning"), std::string::npos) << r.process.err;
  EXPECT_NE(r.process.out.find("converged"), std::string::npos) << r.process.out;
  // The tilted chains diverge only in the funnel's neck while q is near the prior (39-122 times
  // per run), never in the averaged half (docs/fitting.md, "EP"): the verdict says so.
  if (ep) EXPECT_NE(r.process.out.find(", none after the first half)"), std::string::npos) << r.process.out;
}

INSTANTIATE_TEST_SUITE_P(Structured, Contraception, ::testing::Values("", " --algorithm pvi"),
                         [](const auto& info) { return std::string(*info.param ? "Pvi" : "Auto"); });
// EP-mu and EP-eta with their defaults (one NUTS draw per site update; runtime/fit/FitEp.cpp).
// Measured over seeds 1-3 (docs/fitting.md, "EP"): see the closing table there.
INSTANTIATE_TEST_SUITE_P(Ep, Contraception, ::testing::Values(" --algorithm ep-mu", " --algorithm ep-eta"),
                         [](const auto& info) { return std::string(info.index == 0 ? "EpMu" : "EpEta"); });

// Nested groups: the same model with the 60 districts grouped into 10 silos of 6 (their
// intercepts a vector local per silo) has the same posterior (examples/hierarchical_logistic/nested).
TEST(NestedGroups, TenSilosOfSixDistrictsMatchStansLongRun) {
  TempDir dir;
  const std::string ex = example("hierarchical_logistic");
  const ProcessResult p =
      run(pvic() + " run " + ex + "/nested/model.pvi --data " + ex + "/data.json --partition-data " + ex +
          "/nested/data_per_silo_10.csv --seed 1 --draws 10000 --progress never -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(p.exitCode, 0) << p.err;
  Fit r{p, nlohmann::json::parse(slurp(dir.path / "fit-summary.json"))};
  const auto [meanErr, sdErr] = compare(r, readReference("hierarchical_logistic.csv"), "10 silos");
  EXPECT_LE(meanErr, 0.1);
  EXPECT_LE(sdErr, -std::log(0.85));
}

class SixCities : public ::testing::TestWithParam<const char*> {};

TEST_P(SixCities, DefaultsMatchStansLongRun) {
  TempDir dir;
  const Fit r =
      fit(dir, "six_cities", std::string(" --data @/data.json --partition-data @/data_per_silo.csv") + GetParam());
  ASSERT_EQ(r.process.exitCode, 0) << r.process.err;
  ASSERT_FALSE(r.summary.is_null()) << r.process.err;
  EXPECT_NE(r.process.out.find("skewed q(w | z)"), std::string::npos) << r.process.out;
  const auto [meanErr, sdErr] = compare(r, readReference("six_cities.csv"), std::string("six cities") + GetParam());
  EXPECT_LE(meanErr, 0.1);
  EXPECT_LE(sdErr, -std::log(0.85));
  EXPECT_EQ(r.process.err.find("warning"), std::string::npos) << r.process.err;
  EXPECT_NE(r.process.out.find("converged"), std::string::npos) << r.process.out;
}

// Auto (sfvi, refining its draws 8 -> 128) and PVI (isotropic start, 128 draws per local step).
INSTANTIATE_TEST_SUITE_P(Skewed, SixCities, ::testing::Values("", " --algorithm pvi"),
                         [](const auto& info) { return std::string(*info.param ? "Pvi" : "Auto"); });

// EP-mu with its defaults on two sites of up to 300 locals each: the step falls from 0.023 to
// 0.0046 over 13,000 iterations (AlgorithmChoice's many-locals rule; the larger start ends near
// iteration 90, when a cavity keeps half of theta), the metric moves each child's intercept with
// the globals, and the dominant sites' moments use Stein's identity against q (SampledSites.hpp,
// Reference). Measured over seeds 1-3 with 10,000 draws: worst |mean error| 0.040-0.093 sd, sds
// 0.935-1.012 of Stan's (docs/fitting.md, "EP"). The verdict may say "not converged" (the
// quarters' means differ by 0.12-0.13 sd on seeds 2 and 3), and the joint k-hat over 600 locals
// from 2,000 draws per site warns; neither is asserted.
TEST(SixCitiesEp, EpMuDefaultsMatchStansLongRun) {
  TempDir dir;
  const Fit r = fit(dir, "six_cities", " --data @/data.json --partition-data @/data_per_silo.csv --algorithm ep-mu");
  ASSERT_EQ(r.process.exitCode, 0) << r.process.err;
  ASSERT_FALSE(r.summary.is_null()) << r.process.err;
  const auto [meanErr, sdErr] = compare(r, readReference("six_cities.csv"), "six cities, ep-mu");
  EXPECT_LE(meanErr, 0.1);
  EXPECT_LE(sdErr, -std::log(0.85));
}

// EP-mu with its defaults on the EP paper's own hierarchical logistic regression (16 sites of 4
// locals, log-variance globals: examples/ep_hierarchical_logistic) against Stan's NUTS
// (tests/reference/make_ep_logistic.R). Before the backoff and the warm-up's moment choice it
// failed ("EP did not settle") on most seeds. EP's own fixed point here is about 7%
// narrower than the posterior in the sds (with 32 draws per update, seeds 1 and 4 agree on
// 0.92-0.95), so the bounds are the fit's: it must finish, every sd within 15% of Stan's, and every
// mean within 0.2 reference sd. Seeds 1-6 with 10,000 draws: worst mean errors 0.039-0.103 sd, sds 0.907-1.004 (the
// averages of the last two quarters differ by 0.12-0.21 sd on most seeds, so the verdict may say
// "not converged"; it is not asserted).
TEST(EpPaperLogistic, EpMuDefaultsMatchStansLongRun) {
  TempDir dir;
  const Fit r = fit(dir, "ep_hierarchical_logistic",
                    " --data @/data.json --partition-data @/data_per_group.csv --algorithm ep-mu");
  ASSERT_EQ(r.process.exitCode, 0) << r.process.err;
  ASSERT_FALSE(r.summary.is_null()) << r.process.err;
  const auto [meanErr, sdErr] =
      compare(r, readReference("ep_hierarchical_logistic.csv"), "the EP paper's logistic regression, ep-mu");
  EXPECT_LE(meanErr, 0.2);
  EXPECT_LE(sdErr, -std::log(0.85));
}

TEST(SixCitiesGaussian, LocalsMatchOrSayTheyCannotBeTrusted) {
  TempDir dir;
  const Fit r =
      fit(dir, "six_cities", " --data @/data.json --partition-data @/data_per_silo.csv --locals structured-diagonal");
  ASSERT_EQ(r.process.exitCode, 0) << r.process.err;
  ASSERT_FALSE(r.summary.is_null()) << r.process.err;
  const auto [meanErr, sdErr] = compare(r, readReference("six_cities.csv"), "six cities, gaussian locals");
  const bool matches = meanErr <= 0.1 && sdErr <= -std::log(0.85);
  const double khat = r.summary["pareto_khat"];
  if (!matches) {
    EXPECT_GT(khat, 0.7);
    EXPECT_NE(r.process.err.find("do not trust this approximation"), std::string::npos) << r.process.err;
  }
}

// A count outcome whose group sd is a global over 8 groups (tests/cli/models/count_random_effect.pvi,
// Stan's posterior in tests/reference/): alpha's spread grows with sigma_u (0.13 to 0.32 over
// sigma_u's quintiles under NUTS), which no Gaussian q(z) can follow. The skewed q(z) of
// --globals skewed (families/GlobalShape.hpp) with the importance resample meets the bounds (seeds
// 1-5 with 1,000 draws: worst 0.081 sd and 0.900, docs/fitting.md); the Gaussian q(z) did not
// (sigma_u's sd at 0.81-0.96 of Stan's, with k-hat below 0.7 on 3 seeds).
TEST(SkewedGlobals, CountModelMatchesStansLongRun) {
  TempDir dir;
  const std::string models = std::string(PVI_SOURCE_DIR) + "/tests/cli/models";
  const ProcessResult p =
      run(pvic() + " run " + models + "/count_random_effect.pvi --partition-data " + example("poisson_random_effect") +
          "/data_per_group.csv --algorithm sfvi --globals skewed --seed 1 --draws 10000 --progress never -o " +
          (dir.path / "fit.csv").string());
  ASSERT_EQ(p.exitCode, 0) << p.err;
  EXPECT_NE(p.out.find("skewed Gaussian"), std::string::npos) << p.out;
  Fit r{p, nlohmann::json::parse(slurp(dir.path / "fit-summary.json"))};
  const auto [meanErr, sdErr] = compare(r, readReference("count_random_effect.csv"), "counts, skewed q(z)");
  EXPECT_LE(meanErr, 0.1);
  EXPECT_LE(sdErr, -std::log(0.85));
  EXPECT_EQ(p.err.find("warning"), std::string::npos) << p.err;
  EXPECT_NE(p.out.find("converged"), std::string::npos) << p.out;
}

// A random intercept and a random urban slope per district (tests/cli/models/random_slope.pvi,
// Stan's posterior in tests/reference/): log tau_urban's posterior has a long left tail (skewness
// -0.90 under NUTS), where every district's slope shrinks to 0 and q(w | z), linear in z, cannot
// follow p(w | z, y). Auto draws each district's locals from their Laplace proposal at each z (8
// importance-weighted draws) and skews q(z) (fit/AlgorithmChoice.cpp), and every global meets the
// contraception bounds: seeds 1-3 with 4,000 draws, tau_urban +0.025 to +0.033 sd and sd 0.952 to
// 0.965 of Stan's (it was +0.15 to +0.22 sd with q's own draws and a Gaussian q(z); docs/fitting.md).
TEST(RandomSlope, AutoMatchesStansLongRun) {
  TempDir dir;
  const std::string ex = example("hierarchical_logistic");
  const std::string models = std::string(PVI_SOURCE_DIR) + "/tests/cli/models";
  const ProcessResult p =
      run(pvic() + " run " + models + "/random_slope.pvi --data " + ex + "/data.json --partition-data " + ex +
          "/data_per_district.csv --seed 1 --draws 4000 --progress never -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(p.exitCode, 0) << p.err;
  EXPECT_NE(p.out.find("with 8 importance-weighted draws per z from each z's Laplace proposal"), std::string::npos)
      << p.out;
  EXPECT_NE(p.out.find("skewed Gaussian"), std::string::npos) << p.out;
  Fit r{p, nlohmann::json::parse(slurp(dir.path / "fit-summary.json"))};
  const auto [meanErr, sdErr] = compare(r, readReference("random_slope.csv"), "random slope");
  EXPECT_LE(meanErr, 0.1);
  EXPECT_LE(sdErr, -std::log(0.85));
  EXPECT_EQ(p.err.find("warning"), std::string::npos) << p.err;
  EXPECT_NE(p.out.find("converged"), std::string::npos) << p.out;
}

}  // namespace
}  // namespace pvi::test
