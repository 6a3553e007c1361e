#pragma once
// NUTS on a program without data against the exact moments of its posterior.
#include <cmath>
#include <string>
#include <vector>

namespace pvi::test {

struct ExactMoments {
  const char* name;  // as the summary names it, e.g. "theta.1" (a parameter or a generated quantity)
  double mean, sd;
  // Its excess kurtosis where known exactly; NaN: estimated from the draws. It sets the standard
  // error of the sd estimate (relativeSdError).
  double excessKurtosis = NAN;
};

// Runs `pvic run --algorithm nuts` (4 chains of 2,000 draws, the seed given) on `program`, a Stan
// or .pvi program without data, and expects no divergences, every listed mean within 5 MCSE and
// every sd within `sdErrors` standard errors of an sd estimate from ESS draws:
// sd sqrt((k + 2) / (4 ESS)), k the marginal's excess kurtosis (exact where given, else the
// draws'; never below 0, the Gaussian's) and ESS the smaller of the bulk and tail ESS (a
// heavy-tailed marginal, an inverse-Wishart variance, has a far noisier sd than a Gaussian).
void expectNutsMatchesExactMoments(const std::string& program, const std::vector<ExactMoments>& exact, int seed,
                                   double sdErrors);

}  // namespace pvi::test
