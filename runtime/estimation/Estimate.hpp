#pragma once
// A Monte Carlo (or exact) value with its standard error.
namespace pvi::estimation {

struct Estimate {
  double value = 0.0;
  double standardError = 0.0;
};

}  // namespace pvi::estimation
