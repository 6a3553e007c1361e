#include "runtime/app/FitCommandSupport.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <iostream>

#include "runtime/model/MemoryLimit.hpp"
#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/SummaryTable.hpp"

namespace pvi::app {

std::string workLine(const PhaseTimes& t, const EvaluationCounts& e) {
  char buffer[160];
  std::string out = "time:";
  if (t.compile >= 0.0) {
    std::snprintf(buffer, sizeof buffer, " compile %.2f s,", t.compile);
    out += buffer;
  }
  std::snprintf(buffer, sizeof buffer, " data %.2f s, start %.2f s, fit %.2f s, draws %.2f s, write %.2f s", t.data,
                t.start, t.fit, t.draws, t.write);
  out += buffer;
  out += "; evaluations: " + groupedNumber(e.partitionGradients) + " partition gradients, " +
         groupedNumber(e.partitionValues) + " partition values, " + groupedNumber(e.priorGradients) +
         " prior gradients, " + groupedNumber(e.priorValues) + " prior values";
  struct rusage usage {};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {  // ru_maxrss is in KiB on Linux
    std::snprintf(buffer, sizeof buffer, "; peak memory %.0f MB", static_cast<double>(usage.ru_maxrss) * 1024.0 / 1e6);
    out += buffer;
  }
  return out;
}

int fitWithProgress(const std::string& program, const FitCli& options,
                    const std::function<FitResult(ProgressDisplay&)>& fit, FitResult& result) {
  const bool show = options.progress == "always" || (options.progress == "auto" && stderrIsTerminal());
  ProgressDisplay progress(std::cerr, show);
  try {
    result = fit(progress);
    progress.finish();
    return kExitOk;
  } catch (const FitConfigurationError& e) {
    progress.finish();
    std::cerr << program << ": error: " << e.what() << "\n";
    return kExitInvalid;
  } catch (const std::exception& e) {
    progress.finish();
    std::cerr << program << ": error: the fit failed: " << e.what() << "\n";
    return kExitFitFailed;
  }
}

int writeOutputs(const std::string& program, const std::function<void()>& write) {
  try {
    write();
    return kExitOk;
  } catch (const output::OutputError& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return kExitOutput;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return kExitOutput;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return kExitFitFailed;
  }
}

std::string writeEachPartition(const CompiledModel& model, const PosteriorDraws& draws, const OutputCli& output,
                               const std::function<void(const std::string&, std::size_t, const DrawTable&)>& write) {
  const std::string dir = output.localsDir.empty() ? stem(output.output) + "-locals" : output.localsDir;
  std::size_t written = 0;
  std::size_t only = 0;
  for (std::size_t j = 0; j < model.numPartitions(); ++j) {
    const DrawTable& table = draws.partitions[j];
    if (table.columns.empty()) continue;
    if (written++ == 0) output::ensureDirectory(dir);
    write(dir, j, table);
    only = j;
  }
  if (written == 0) return "";
  if (written == 1) return dir + "/" + model.partitionLabels().at(only) + "/";
  return dir + "/ (" + std::to_string(written) + " partition directories)";
}

void PartitionTables::print() const {
  for (const auto& [label, rows] : tables)
    std::cout << "partition " << label << ":\n" << output::formatSummaryTable(rows) << "\n";
}

}  // namespace pvi::app
