#include "exact_moments.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.hpp"

namespace pvi::test {

void expectNutsMatchesExactMoments(const std::string& program, const std::vector<ExactMoments>& exact, int seed,
                                   double sdErrors) {
  TempDir dir;
  const std::filesystem::path model = dir.path / "model.stan", data = dir.path / "data.json";
  std::ofstream(model) << program;
  std::ofstream(data) << "{}";
  const ProcessResult r = run(pvic() + " run " + model.string() + " --data " + data.string() +
                              " --algorithm nuts --chains 4 --draws 2000 --seed " + std::to_string(seed) +
                              " --progress never -o " + (dir.path / "fit.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json summary = nlohmann::json::parse(slurp(dir.path / "fit-summary.json"));
  EXPECT_EQ(summary["sampling"]["divergences"], 0);
  const std::map<std::string, double> kurtosis = drawsExcessKurtosis(dir.path, "fit");
  for (const ExactMoments& e : exact) {
    SCOPED_TRACE(e.name);
    const nlohmann::json* row = nullptr;
    for (const char* table : {"parameters", "generated_quantities"})
      for (const nlohmann::json& p : summary[table])
        if (p["name"] == e.name) row = &p;
    ASSERT_NE(row, nullptr);
    const double mean = (*row)["mean"], sd = (*row)["sd"], mcse = (*row)["mcse_mean"];
    const double ess = std::min((*row)["ess_bulk"].get<double>(), (*row)["ess_tail"].get<double>());
    EXPECT_NEAR(mean, e.mean, 5 * mcse);
    ASSERT_TRUE(kurtosis.count(e.name)) << "no column " << e.name << " in the draws";
    const double k = std::isnan(e.excessKurtosis) ? kurtosis.at(e.name) : e.excessKurtosis;
    ASSERT_TRUE(std::isfinite(k)) << "the draws of " << e.name << " have no kurtosis";
    EXPECT_NEAR(sd, e.sd, sdErrors * e.sd * relativeSdError(std::max(k, 0.0), ess));
  }
}

}  // namespace pvi::test
