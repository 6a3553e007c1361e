#pragma once
// The reference posteriors in tests/reference/ (README there): per global, its mean, sd and the
// Monte Carlo standard error of the mean.
#include <map>
#include <string>

namespace pvi::test {

struct Reference {
  double mean, sd, mcse;
};

// name -> reference, from tests/reference/<file>: the MCSE from its mcse_mean column, or
// sd / sqrt(n_eff).
std::map<std::string, Reference> readReference(const std::string& file);

}  // namespace pvi::test
