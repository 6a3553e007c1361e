#pragma once
// Umbrella header of the results output (docs/output.md).
#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/PartitionLocals.hpp"
#include "runtime/output/Quantile.hpp"
#include "runtime/output/Report.hpp"
#include "runtime/output/Results.hpp"
#include "runtime/output/StanCsvReader.hpp"
#include "runtime/output/StanCsvWriter.hpp"
#include "runtime/output/StanSamplingCsv.hpp"
#include "runtime/output/Summary.hpp"
#include "runtime/output/SummaryJson.hpp"
#include "runtime/output/SummaryTable.hpp"
#include "runtime/output/Version.hpp"
