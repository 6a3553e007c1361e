#include "runtime/app/FitCommandSupport.hpp"

#include <iostream>

#include "runtime/output/AtomicFile.hpp"

namespace pvi::app {

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

}  // namespace pvi::app
