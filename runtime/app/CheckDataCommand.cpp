// `check-data`: load and validate the data against the model; print what was bound.
#include <iostream>

#include "runtime/app/BindData.hpp"
#include "runtime/app/Cli.hpp"

namespace pvi::app {

int runCheckData(const std::string& program, const LoadedModel& lm, const DataCli& data) {
  try {
    BoundModel b = bindData(lm, data);
    printNotes(program, b);
    const CompiledModel& m = *b.model;
    std::cout << "data OK: " << m.globalDim() << " global dimensions, " << m.hyperDim() << " hyperparameters, "
              << m.numPartitions() << " partitions";
    if (!lm.info.data.partitionName.empty()) std::cout << " (" << lm.info.data.partitionName << ")";
    std::cout << "\n";
    for (std::size_t j = 0; j < m.numPartitions(); ++j)
      std::cout << "  " << m.partitionLabels().at(j) << ": " << m.localDim(j) << " local dimensions\n";
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return bindErrorExitCode(e);
  }
}

}  // namespace pvi::app
