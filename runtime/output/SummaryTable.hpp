#pragma once
// The summary as an aligned text table for the terminal, in the spirit of stansummary and
// CmdStanPy's summary():
//
//   Name       Mean      SD      5%     50%     95%
//   alpha     1.234  0.1234   1.031   1.235   1.437
//
// Names are left-aligned, numbers right-aligned with `sigFigs` significant digits (printf %g).
// When any column carries analytic moments, two more columns "Mean(q)" and "SD(q)" appear,
// with "-" where a row has none. Draws from a sampler's chains add "MCSE" (of the mean),
// "ESS_bulk", "ESS_tail" and "R_hat".
#include <string>
#include <vector>

#include "runtime/output/Summary.hpp"

namespace pvi::output {

std::string formatSummaryTable(const std::vector<ColumnSummary>& rows, int sigFigs = 4);

}  // namespace pvi::output
