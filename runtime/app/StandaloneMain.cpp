// The command line of an executable built by `pvic build`: fit, check-data, log-density, info.
#include <iostream>

#include "runtime/app/Cli.hpp"

namespace pvi::app {

int standaloneMain(int argc, char** argv, const LoadedModel& model) {
  const std::string program = argc > 0 ? std::string(argv[0]) : std::string("model");
  CLI::App app{"Inference for the model '" + model.info.name + "', built by pvic"};
  app.require_subcommand(1);
  app.footer("Exit codes: 0 success, 1 invalid data or options, 2 bad usage or unreadable input, 3 the fit "
             "failed, 4 an output could not be written.");
  DataCli data;
  FitCli fit;
  OutputCli output;
  LogDensityCli point;
  CLI::App* fitCmd = app.add_subcommand("fit", "Fit the model to data and write draws, summaries and a report");
  addDataOptions(*fitCmd, data);
  addFitOptions(*fitCmd, fit, output);
  CLI::App* check = app.add_subcommand("check-data", "Load and validate data against the model");
  addDataOptions(*check, data);
  CLI::App* logDensity =
      app.add_subcommand("log-density", "Print every factor's log density and gradient at a point (JSON)");
  addDataOptions(*logDensity, data);
  addLogDensityOptions(*logDensity, point);
  CLI::App* info = app.add_subcommand("info", "Print the model's data, parameters, partition and factors");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (fitCmd->parsed()) return runFit(program, model, data, fit, output);
  if (check->parsed()) return runCheckData(program, model, data);
  if (logDensity->parsed()) return runLogDensity(program, model, data, point);
  if (info->parsed()) return runInfo(model);
  return kExitUsage;
}

}  // namespace pvi::app
