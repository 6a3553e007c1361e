// Every diagnostic against the R posterior package on the draw sets of data/ (generate.R). The
// expected values were printed, from the repository root, by (R 4.2.2, posterior 1.4.0):
//
// Rscript -e 'suppressMessages(library(posterior)); stopifnot(packageVersion("posterior") == "1.4.0");
//   for (f in c("ar07", "ar095", "shifted", "ties", "odd", "single", "antithetic", "cauchy", "alternating")) {
//   x <- as.matrix(read.csv(paste0("tests/diagnostics/data/", f, ".csv")));
//   v <- suppressWarnings(c(rhat(x), ess_bulk(x), ess_tail(x), ess_basic(x), ess_basic(x, split = FALSE),
//   ess_quantile(x, 0.25, names = FALSE), mcse_mean(x), mcse_sd(x), rhat_basic(x), rhat_basic(x, split = FALSE)));
//   cat(f, sprintf("%.17g", v), "\n") }'
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "draws_csv.hpp"
#include "runtime/diagnostics/Diagnostics.hpp"

namespace pvi::diagnostics {
namespace {

using test::readDraws;
using test::relativeError;

// The draw sets (data/generate.R), 4 chains x 200 unless said:
//   ar07         AR(1), phi = 0.7
//   ar095        phi = 0.95
//   shifted      phi = 0.5, chains shifted by 0, 0, 1, 3: R-hat large
//   ties         floor(1.5 AR(1)): a few integers, many ties
//   odd          3 chains x 201: the middle draw is dropped when splitting
//   single       1 chain x 300: the unsplit R-hat has no between-chain variance (NA)
//   antithetic   phi = -0.9: ESS capped at S log10(S)
//   cauchy       iid Cauchy
//   alternating  (-1)^t + 0.01 noise: lag-1 autocorrelation below -1, tau_hat = 2 for split chains
// and what the command printed for them, verbatim: rhat, ess_bulk, ess_tail, ess_basic,
// ess_basic(split = FALSE), ess_quantile(0.25), mcse_mean, mcse_sd, rhat_basic,
// rhat_basic(split = FALSE).
constexpr const char* kPosteriorOutput = R"(
ar07 1.0108188060525394 155.95605174247981 328.46717170598396 156.46660291979202 153.77858270863419 245.89900172452775 0.1098097679176377 0.05739720572820927 1.0094875902801712 1.0009335358168734
ar095 1.0913650260632295 36.114540212962766 93.492823258828949 35.215153033854108 33.74089493407854 33.78563393431655 0.5475104759285121 0.22982339742741931 1.0875846591812603 1.0324186083095122
shifted 1.5096962164458088 8.1677234347485808 46.630087318600168 7.7481093944889246 3.5713061176318686 34.085319051609062 0.62777839119723655 0.18034736127455664 1.5493188797715283 1.6199127338093424
ties 1.0100386793659391 215.62109455715091 382.44856628980625 215.85139352363956 213.85002843103643 349.70066734002569 0.12871889459190991 0.062516064688243972 1.0101591789791944 1.0069765777259525
odd 1.0294302865961482 113.53695584631507 210.41743418256013 113.7726666724476 108.118539045766 184.17951548815603 0.12949765438915914 0.069834434701911446 1.0282594999267032 1.0206374875818396
single 1.0395397425429294 82.430739601363385 174.27173850937038 75.162933542095089 135.61100439977488 162.23123825241825 0.13156023888244675 0.053434317549933719 1.0385031416111674 NA
antithetic 1.0330168669450392 2322.471989593555 284.55506674205355 2322.471989593555 2322.471989593555 520.48672561298463 0.044182455952842981 0.14986573216794286 0.9954479756917316 0.99766549488813716
cauchy 1.0006420717890496 789.03904475053912 663.42463823845253 816.1160123600838 807.9569768014303 649.8364373475913 4.4326504702156111 58.408201354940289 0.99966618291076648 0.99948173415018804
alternating 1.006786810143065 2322.471989593555 889.00020464204533 400 2322.471989593555 1306.691484766274 0.05004768398464203 0.00036827452678433331 0.99498763716258221 0.99749690592498397
)";

struct Reference {
  std::string name;
  double rhat, essBulk, essTail, essBasic, essBasicUnsplit, essQuantile25, mcseMean, mcseSd, rhatBasic,
      rhatBasicUnsplit;
};

void PrintTo(const Reference& r, std::ostream* os) { *os << r.name; }  // test names show the draw set

std::vector<Reference> references() {
  std::vector<Reference> out;
  std::istringstream lines(kPosteriorOutput);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    Reference r;
    if (!(fields >> r.name)) continue;
    for (double* value : {&r.rhat, &r.essBulk, &r.essTail, &r.essBasic, &r.essBasicUnsplit, &r.essQuantile25,
                          &r.mcseMean, &r.mcseSd, &r.rhatBasic, &r.rhatBasicUnsplit}) {
      std::string field;
      fields >> field;
      *value = field == "NA" ? std::nan("") : std::stod(field);
    }
    out.push_back(r);
  }
  return out;
}

constexpr double kTolerance = 1e-8;

void expectMatches(double actual, double expected, const char* what) {
  if (std::isnan(expected)) {
    EXPECT_TRUE(std::isnan(actual)) << what << " = " << actual << ", posterior gives NA";
  } else {
    EXPECT_LT(relativeError(actual, expected), kTolerance)
        << what << " = " << actual << ", posterior gives " << expected;
  }
}

class PosteriorReference : public ::testing::TestWithParam<Reference> {};

TEST_P(PosteriorReference, EveryDiagnosticMatchesPosterior) {
  const Reference& r = GetParam();
  const Eigen::MatrixXd x = readDraws(r.name);
  expectMatches(rhat(x), r.rhat, "rhat");
  expectMatches(essBulk(x), r.essBulk, "ess_bulk");
  expectMatches(essTail(x), r.essTail, "ess_tail");
  expectMatches(essBasic(x), r.essBasic, "ess_basic");
  expectMatches(essBasic(x, false), r.essBasicUnsplit, "ess_basic(split = FALSE)");
  expectMatches(essQuantile(x, 0.25), r.essQuantile25, "ess_quantile(0.25)");
  expectMatches(mcseMean(x), r.mcseMean, "mcse_mean");
  expectMatches(mcseSd(x), r.mcseSd, "mcse_sd");
  expectMatches(rhatBasic(x), r.rhatBasic, "rhat_basic");
  expectMatches(rhatBasic(x, false), r.rhatBasicUnsplit, "rhat_basic(split = FALSE)");
}

TEST_P(PosteriorReference, DiagnoseGathersTheFunctions) {
  const Eigen::MatrixXd x = readDraws(GetParam().name);
  const Diagnostics d = diagnose(x);
  EXPECT_EQ(d.rhat, rhat(x));
  EXPECT_EQ(d.essBulk, essBulk(x));
  EXPECT_EQ(d.essTail, essTail(x));
  EXPECT_EQ(d.mcseMean, mcseMean(x));
  EXPECT_EQ(d.mcseSd, mcseSd(x));
}

INSTANTIATE_TEST_SUITE_P(DrawSets, PosteriorReference, ::testing::ValuesIn(references()),
                         [](const ::testing::TestParamInfo<Reference>& info) { return info.param.name; });

TEST(PosteriorReference, ShiftedChainsAreFlaggedAndMixedOnesAreNot) {
  EXPECT_GT(rhat(readDraws("shifted")), 1.01);
  EXPECT_LT(rhat(readDraws("cauchy")), 1.01);
}

}  // namespace
}  // namespace pvi::diagnostics
