// `fit` (and `pvic run`): bind the data, fit, write the draws, the summaries, the report and the
// per-partition local posteriors, and print the summary table.
#include <cmath>
#include <filesystem>
#include <iostream>

#include "runtime/app/BindData.hpp"
#include "runtime/app/Cli.hpp"
#include "runtime/app/FitCommandSupport.hpp"
#include "runtime/fit/ImportanceResampling.hpp"
#include "runtime/fit/Fit.hpp"
#include "runtime/fit/PosteriorDraws.hpp"
#include "runtime/fit/Progress.hpp"
#include "runtime/model/CompiledModel.hpp"
#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/FromTrace.hpp"
#include "runtime/output/PartitionLocals.hpp"
#include "runtime/output/Report.hpp"
#include "runtime/output/StanCsvWriter.hpp"
#include "runtime/output/Summary.hpp"
#include "runtime/output/SummaryJson.hpp"
#include "runtime/output/SummaryTable.hpp"
#include "stdlib/kernels/rng/rng.h"

namespace pvi::app {

namespace {

namespace fs = std::filesystem;

bool bounded(const VariableInfo& v) { return !v.transform.isIdentity(); }

// q's exact marginal of each parameter column whose transform is the identity (unbounded globals).
std::vector<std::optional<output::AnalyticMoments>> analyticMoments(const CompiledModel& m, const FitResult& f,
                                                                    std::size_t columns) {
  std::vector<std::optional<output::AnalyticMoments>> out(columns);
  const auto& vars = m.parameterLayout().variables();
  const GaussianPosterior& q = f.posterior.gaussian();
  const Eigen::VectorXd mean = q.momentMean(), variances = q.momentVariances();
  // The globals come first in the layout, in ModelInfo::globals order (hyperparameters follow);
  // z holds their coordinates in that order, fewer than their elements for a simplex.
  std::size_t z = 0;
  for (std::size_t g = 0; g < vars.size() && g < m.info().globals.size(); z += m.unconstrainedCount(g), ++g) {
    const VariableExtent& v = vars[g];
    if (bounded(m.info().globals[g])) continue;  // a transformed global: q's moments are not its moments
    for (std::size_t i = 0; i < v.size; ++i) {
      const auto k = static_cast<Eigen::Index>(z + i);
      if (k < mean.size() && v.offset + i < columns)
        out[v.offset + i] = output::AnalyticMoments{mean[k], std::sqrt(variances[k])};
    }
  }
  return out;
}

output::RunInfo runInfo(const LoadedModel& lm, const BoundModel& b, const FitCli& f, const FitResult& r,
                        const OutputCli& o) {
  output::RunInfo run;
  run.model = lm.info.name;
  run.dataFiles = b.dataFiles;
  run.algorithm = algorithmName(r.choice.algorithm);
  run.family = r.choice.family == FamilyKind::Full ? "fullrank" : "meanfield";
  run.options = {{"schedule", scheduleName(r.choice.schedule)},
                 {"damping", std::to_string(r.choice.damping)},
                 {"max_rounds", std::to_string(r.choice.rounds)},
                 {"local_steps", std::to_string(f.fit.localSteps)},
                 {"learning_rate", std::to_string(f.fit.learningRate)},
                 {"samples", std::to_string(f.fit.samples)},
                 {"inner_draws", std::to_string(r.choice.innerDraws)},
                 {"inner_proposal", r.choice.laplaceLocals ? "laplace" : "q"},
                 {"globals", r.choice.skewedGlobals ? "skewed" : "gaussian"},
                 {"draws", std::to_string(o.draws)},
                 {"resample", o.resample},
                 {"choice", r.choice.reason}};
  run.seed = f.fit.seed;
  run.rounds = r.rounds;
  run.outputFile = o.output;
  return run;
}

// Pareto k-hat above this: do not trust the approximation (Yao et al. 2018; docs/fitting.md).
constexpr double kKhatTrusted = 0.7;

std::string khatLine(double khat, std::size_t draws) {
  char buffer[320];
  if (khat <= kKhatTrusted)
    std::snprintf(buffer, sizeof buffer,
                  "Pareto k-hat %.2f of the model against q over %zu draws: at most 0.7, q is a usable approximation",
                  khat, draws);
  else
    std::snprintf(buffer, sizeof buffer,
                  "Pareto k-hat %.2f of the model against q over %zu draws is above 0.7: do not trust this "
                  "approximation; --algorithm nuts gives the exact posterior",
                  khat, draws);
  return buffer;
}

// The first few events of a fit (rejected or halved updates, failures) on stderr.
void printEvents(const std::vector<std::string>& events) {
  if (events.empty()) return;
  std::cerr << events.size() << " event(s) logged during the fit:\n";
  for (std::size_t i = 0; i < events.size() && i < 5; ++i) std::cerr << "  " << events[i] << "\n";
  if (events.size() > 5) std::cerr << "  ... and " << events.size() - 5 << " more\n";
}

// Refuses, before a long fit, an output whose directory does not exist or is not a directory.
void checkOutputDirectory(const std::string& file, const char* option) {
  const fs::path dir = fs::absolute(file).parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw output::OutputError(file, std::string("directory '") + dir.string() + "' does not exist (" + option + ")");
}

}  // namespace

int runFit(const std::string& program, const LoadedModel& lm, const DataCli& data, const FitCli& fitCli,
           const OutputCli& outCli) {
  BoundModel bound;
  FitOptions options = fitCli.fit;
  PhaseTimes times;
  times.compile = lm.compileSeconds;
  Stopwatch clock;
  try {
    options.algorithm = parseAlgorithm(fitCli.algorithm);
    if (!fitCli.schedule.empty()) options.schedule = parseSchedule(fitCli.schedule);
    if (!fitCli.family.empty()) options.family = parseFamily(fitCli.family);
    if (!fitCli.locals.empty()) options.locals = parseLocals(fitCli.locals);
    if (!fitCli.globals.empty()) options.skewedGlobals = fitCli.globals == "skewed";
    if (!fitCli.innerProposal.empty()) options.laplaceLocals = fitCli.innerProposal == "laplace";
    if (fitCli.roundBudget > 0) options.roundBudget = fitCli.roundBudget;
    options.sampling.metric = parseMetric(fitCli.metric);
    options.sampling.adaptation = parseAdaptation(fitCli.adaptation);
    options.laplaceStart = fitCli.start == "laplace";
    if (fitCli.warmup >= 0) options.sampling.warmup = static_cast<std::size_t>(fitCli.warmup);
    options.sampling.draws = outCli.draws;
    bound = bindData(lm, data, options.seed);
    times.data = clock.lap();
    printNotes(program, bound);
    // Refuses bad options, and a family or draws too large for memory, before anything runs,
    // and says what auto picked.
    const bool sampling = options.algorithm == Algorithm::Nuts;
    checkDrawsFit(*bound.model, sampling ? outCli.draws * options.sampling.chains : outCli.draws);
    const AlgorithmChoice choice = chooseAlgorithm(shapeOf(*bound.model), options);
    std::cout << "algorithm: " << choice.reason << std::endl;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return bindErrorExitCode(e);
  }
  try {
    checkOutputDirectory(outCli.output, "--output");
    if (!outCli.summaryJson.empty()) checkOutputDirectory(outCli.summaryJson, "--summary-json");
  } catch (const output::OutputError& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return kExitOutput;
  }
  if (options.algorithm == Algorithm::Nuts) return runSampling(program, lm, bound, fitCli, outCli, options, times);
  const CompiledModel& model = *bound.model;
  FitResult result;
  const int fitted = fitWithProgress(
      program, fitCli,
      [&](ProgressDisplay& progress) {
        return fitModel(model, options,
                        [&](const support::TraceRecord& r, const AlgorithmChoice& c) { progress.round(r, c); });
      },
      result);
  if (fitted != kExitOk) return fitted;
  times.start = result.startSeconds;
  times.fit = result.totalSeconds - result.startSeconds;
  std::cout << "prior: " << result.prior << "\n";
  if (!result.start.empty()) std::cout << "start: " << result.start << "\n";
  if (!result.usable) {
    // Nothing is written: a file from this fit would look like a result.
    std::cerr << program << ": error: " << result.status << "\n";
    printEvents(result.events);
    return kExitFitFailed;
  }

  return writeOutputs(program, [&] {
    // The draws, resampled by their importance weights p / q where their k-hat (how far q is from
    // the model) says those are reliable.
    ResampleOptions resample;
    resample.enabled = outCli.resample == "psis";
    resample.maxKhat = kKhatTrusted;
    resample.threads = options.threads;
    clock.lap();
    const PosteriorDraws draws = drawPosterior(model, result, outCli.draws, options.seed + 1, resample);
    times.draws = clock.lap();
    const ImportanceResampling& resampling = draws.resampling;
    output::RunInfo run = runInfo(lm, bound, fitCli, result, outCli);
    // The Stan CSV: parameters and generated quantities, without the three density columns.
    output::StanCsvDraws csv;
    const Eigen::Index extra = 3;
    csv.draws.columns.assign(draws.global.columns.begin() + extra, draws.global.columns.end());
    csv.draws.values = draws.global.values.rightCols(draws.global.values.cols() - extra);
    csv.draws.numParameters = model.parameterLayout().size();
    csv.logP = draws.global.values.col(1);
    csv.logG = draws.global.values.col(2);
    const std::vector<double> theta = result.theta;
    const Eigen::VectorXd qMean = result.posterior.gaussian().momentMean();
    std::vector<double> meanRow = model.constrainGlobals(qMean.data(), theta.empty() ? nullptr : theta.data());
    pvi_rng rng;  // the mean row's draws, from a stream of their own
    pvi_rng_seed(&rng, options.seed, ~uint64_t{0});
    for (double v : model.generateShared(qMean.data(), theta.empty() ? nullptr : theta.data(), rng))
      meanRow.push_back(v);
    csv.mean = Eigen::Map<const Eigen::VectorXd>(meanRow.data(), static_cast<Eigen::Index>(meanRow.size()));

    const auto analytic = analyticMoments(model, result, csv.draws.columns.size());
    output::FitResults summary;
    summary.run = run;
    summary.summary = output::summarise(csv.draws, analytic);
    summary.elbo = result.elbo.value;
    summary.elboStandardError = result.elbo.standardError;
    summary.communication = output::communicationTotals(result.counters);
    summary.elapsedSeconds = result.seconds;
    summary.trace = output::traceRows(result.trace);
    summary.paretoKhat = resampling.khat;
    summary.importanceResampled = resampling.applied;
    summary.importanceEffectiveDraws = resampling.effectiveDraws;
    const std::string summaryPath =
        outCli.summaryJson.empty() ? stem(outCli.output) + "-summary.json" : outCli.summaryJson;

    // The outputs are one set: all are written under temporary names, then published together;
    // if any write fails, none appears (docs/output.md). The draws file is written, so published,
    // last.
    output::OutputSet outputs;
    std::vector<std::string> written = {outCli.output, summaryPath};
    PartitionTables shown;
    const std::string localsWritten =
        writeEachPartition(model, draws, outCli, [&](const std::string& dir, std::size_t j, const DrawTable& t) {
          output::PartitionLocals locals;
          locals.label = model.partitionLabels().at(j);
          locals.draws.columns = t.columns;
          locals.draws.values = t.values;
          locals.draws.numParameters = model.localLayout(j).size();
          output::writePartitionLocals(dir, run, locals);
          if (outCli.showLocals) shown.tables.emplace_back(locals.label, output::summarise(locals.draws, {}));
        });
    if (!outCli.reportDir.empty()) {
      output::ReportInput report;
      report.run = run;
      report.trace = summary.trace;
      report.marginals = output::marginalsFromDraws(csv.draws, analytic);
      output::writeReport(outCli.reportDir, report);
      written.push_back(outCli.reportDir + "/index.html");
    }
    if (!localsWritten.empty()) written.push_back(localsWritten);
    output::writeSummaryJson(summaryPath, summary);
    output::writeStanCsv(outCli.output, run, csv);
    outputs.commit();
    times.write = clock.lap();

    std::cout << "\n" << output::formatSummaryTable(summary.summary) << "\n";
    shown.print();
    if (std::isfinite(result.elbo.value))
      std::printf("ELBO%s %.6g (standard error %.2g) after %zu rounds in %.1f s; %s\n",
                  result.choice.innerDraws > 1 ? " (importance-weighted over each partition's locals)" : "",
                  result.elbo.value, result.elbo.standardError, result.rounds, result.seconds, result.status.c_str());
    else  // EP has no ELBO
      std::printf("%zu rounds in %.1f s; %s\n", result.rounds, result.seconds, result.status.c_str());
    if (summary.paretoKhat <= kKhatTrusted) std::printf("%s\n", khatLine(summary.paretoKhat, resampling.candidates).c_str());
    if (resampling.applied)
      std::printf("draws: %zu resampled from those by their Pareto-smoothed importance weights (%.0f effective; "
                  "--resample none writes q's)\n",
                  outCli.draws, resampling.effectiveDraws);
    std::printf("communication: %zu messages up, %zu down; %zu bytes up, %zu down\n", result.counters.messagesUp,
                result.counters.messagesDown, result.counters.bytesUp, result.counters.bytesDown);
    std::fflush(stdout);
    if (!result.converged) std::cerr << program << ": warning: " << result.status << "\n";
    if (!(summary.paretoKhat <= kKhatTrusted))
      std::cerr << program << ": warning: " << khatLine(summary.paretoKhat, resampling.candidates) << "\n";
    printEvents(result.events);
    for (const std::string& w : written) std::printf("wrote %s\n", w.c_str());
    std::printf("%s\n", workLine(times, result.evaluations).c_str());
  });
}

}  // namespace pvi::app
