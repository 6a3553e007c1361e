#pragma once
// Loads the data named on the command line and binds them to the model, validated.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/app/Cli.hpp"
#include "runtime/model/CompiledModel.hpp"

namespace pvi::app {

struct BoundModel {
  std::unique_ptr<CompiledModel> model;
  std::vector<std::string> dataFiles;  // as given, for output headers
  std::vector<std::string> notes;      // BoundData::notes: print them (printNotes)
};

// Each note as "PROGRAM: note: ..." on stderr.
void printNotes(const std::string& program, const BoundModel& bound);

// Throws DataError (a bad file, a value that does not fit the model) or std::invalid_argument
// (options that do not fit together). `seed` seeds the transformed data's _rng draws: the run's
// --seed (default 1, as a fit's).
BoundModel bindData(const LoadedModel& model, const DataCli& data, std::uint64_t seed = 1);

// The exit code for an error from bindData: kExitUsage for a data file that cannot be read (or
// is empty), kExitInvalid otherwise.
int bindErrorExitCode(const std::exception& e);

}  // namespace pvi::app
