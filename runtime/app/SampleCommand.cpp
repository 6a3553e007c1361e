// `fit --algorithm nuts` (and `pvic run --algorithm nuts`): sample, write each chain's draws in
// CmdStan's sampling layout (or one merged file), each partition's locals to its own directory,
// the summary with R-hat and ESS, and say whether the chains mixed (docs/sampling.md).
#include <cmath>
#include <filesystem>
#include <iostream>

#include "runtime/app/BindData.hpp"
#include "runtime/app/Cli.hpp"
#include "runtime/app/FitCommandSupport.hpp"
#include "runtime/fit/Fit.hpp"
#include "runtime/fit/Mixing.hpp"
#include "runtime/fit/PosteriorDraws.hpp"
#include "runtime/fit/Progress.hpp"
#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/PartitionLocals.hpp"
#include "runtime/output/StanSamplingCsv.hpp"
#include "runtime/output/Summary.hpp"
#include "runtime/output/SummaryJson.hpp"
#include "runtime/output/SummaryTable.hpp"

namespace pvi::app {

namespace {

namespace fs = std::filesystem;

output::RunInfo samplingRunInfo(const LoadedModel& lm, const BoundModel& b, const FitOptions& o, const OutputCli& out) {
  output::RunInfo run;
  run.model = lm.info.name;
  run.dataFiles = b.dataFiles;
  run.algorithm = "nuts";
  run.options = {{"chains", std::to_string(o.sampling.chains)}, {"adaptation", adaptationName(o.sampling.adaptation)}};
  run.seed = o.seed;
  run.outputFile = out.output;
  return run;
}

// Chain c's rows [c n, (c + 1) n) of a table, with the sampler's settings and columns.
output::ChainSamples chainSamples(const DrawTable& table, std::size_t numParameters, std::size_t c, Eigen::Index n,
                                  const samplers::ChainResult& chain, const FitOptions& o,
                                  const std::vector<std::pair<Eigen::Index, Eigen::Index>>& metricBlocks) {
  output::ChainSamples s;
  s.chainId = chain.chain;
  s.draws.columns = table.columns;
  s.draws.values = table.values.middleRows(static_cast<Eigen::Index>(c) * n, n);
  s.draws.numParameters = numParameters;
  const samplers::SamplerColumns& k = chain.columns;
  s.sampler = {k.logDensity, k.acceptStat, k.stepSize, k.energy, k.treeDepth, k.leapfrogs, k.divergent};
  s.stepSize = chain.stepSize;
  // The inverse metric's blocks of this file's unconstrained parameters.
  Eigen::Index size = 0;
  for (const auto& [offset, length] : metricBlocks) size += length;
  const bool dense = chain.metric.kind() == samplers::MetricKind::Dense;
  s.metric = dense ? "dense_e" : "diag_e";
  Eigen::VectorXi index(size);
  Eigen::Index at = 0;
  for (const auto& [offset, length] : metricBlocks)
    for (Eigen::Index i = 0; i < length; ++i) index[at++] = offset + i;
  if (dense) {
    s.inverseMetricDense.resize(size, size);
    for (Eigen::Index i = 0; i < size; ++i)
      for (Eigen::Index j = 0; j < size; ++j)
        s.inverseMetricDense(i, j) = chain.metric.inverseDense()(index[i], index[j]);
  } else {
    s.inverseMetricDiagonal.resize(size);
    for (Eigen::Index i = 0; i < size; ++i) s.inverseMetricDiagonal[i] = chain.metric.inverseDiagonal()[index[i]];
  }
  s.numWarmup = o.sampling.warmup ? *o.sampling.warmup : defaultWarmup(o.sampling.adaptation);
  s.maxDepth = o.sampling.maxDepth;
  s.adaptDelta = o.sampling.adaptDelta;
  s.warmupSeconds = chain.warmupSeconds;
  s.samplingSeconds = chain.samplingSeconds;
  return s;
}

output::SamplingTotals samplingTotals(const MixingSummary& m, const FitOptions& o, std::size_t chains) {
  output::SamplingTotals t;
  t.chains = chains;
  t.drawsPerChain = o.sampling.draws;
  t.warmup = o.sampling.warmup ? *o.sampling.warmup : defaultWarmup(o.sampling.adaptation);
  t.divergences = m.divergences;
  t.treeDepthHits = m.treeDepthHits;
  t.warmupGradients = m.warmupGradients;
  t.samplingGradients = m.samplingGradients;
  t.maxRhat = m.maxRhat;
  t.minEssBulk = m.minEssBulk;
  t.minEssTail = m.minEssTail;
  t.mixed = !m.failed;
  t.warnings = m.warnings;
  return t;
}

}  // namespace

int runSampling(const std::string& program, const LoadedModel& lm, const BoundModel& bound, const FitCli& fitCli,
                const OutputCli& outCli, const FitOptions& options, PhaseTimes times) {
  const CompiledModel& model = *bound.model;
  FitResult result;
  const int fitted = fitWithProgress(
      program, fitCli,
      [&](ProgressDisplay& progress) {
        return fitModel(model, options, {}, [&](const samplers::ChainProgress& c) { progress.chain(c); });
      },
      result);
  if (fitted != kExitOk) return fitted;
  if (!result.start.empty()) std::cout << "start: " << result.start << "\n";
  const SampledPosterior& p = result.posterior.sampled();
  const MixingSummary& mixing = *result.mixing;
  times.start = result.startSeconds;
  times.fit = result.totalSeconds - result.startSeconds;
  const int status = writeOutputs(program, [&] {
    Stopwatch clock;
    const PosteriorDraws draws = drawPosterior(model, result, 0, 0);
    times.draws = clock.lap();
    const output::RunInfo run = samplingRunInfo(lm, bound, options, outCli);
    // The parameter and generated-quantity columns, without lp__, log_p__, log_g__.
    const Eigen::Index extra = 3;
    DrawTable global;
    global.columns.assign(draws.global.columns.begin() + extra, draws.global.columns.end());
    global.values = draws.global.values.rightCols(draws.global.values.cols() - extra);
    const std::size_t numParameters = model.parameterLayout().size();
    const auto n = static_cast<Eigen::Index>(options.sampling.draws);

    output::FitResults summary;
    summary.run = run;
    output::DrawsTable table{global.columns, global.values, numParameters};
    summary.summary = output::summariseChains(table, p.chain);
    summary.elapsedSeconds = result.seconds;
    summary.sampling = samplingTotals(mixing, options, p.chains.size());
    const std::string summaryPath =
        outCli.summaryJson.empty() ? stem(outCli.output) + "-summary.json" : outCli.summaryJson;

    // The main files' unconstrained parameters are z and theta; a partition's are its w_j.
    const std::vector<std::pair<Eigen::Index, Eigen::Index>> globalBlocks = {
        {0, static_cast<Eigen::Index>(p.globalDim)},
        {static_cast<Eigen::Index>(p.hyperOffset), static_cast<Eigen::Index>(p.hyperDim)}};
    std::vector<output::ChainSamples> chains;
    for (std::size_t c = 0; c < p.chains.size(); ++c)
      chains.push_back(chainSamples(global, numParameters, c, n, p.chains[c], options, globalBlocks));

    output::OutputSet outputs;
    std::vector<std::string> written;
    PartitionTables shown;
    const std::string localsWritten =
        writeEachPartition(model, draws, outCli, [&](const std::string& dir, std::size_t j, const DrawTable& t) {
          output::PartitionSamplingLocals locals;
          locals.label = model.partitionLabels().at(j);
          const std::vector<std::pair<Eigen::Index, Eigen::Index>> blocks = {
              {static_cast<Eigen::Index>(p.localOffsets.at(j)), static_cast<Eigen::Index>(model.localDim(j))}};
          for (std::size_t c = 0; c < p.chains.size(); ++c)
            locals.chains.push_back(chainSamples(t, model.localLayout(j).size(), c, n, p.chains[c], options, blocks));
          output::writePartitionSamplingLocals(dir, run, locals);
          if (outCli.showLocals)
            shown.tables.emplace_back(
                locals.label, output::summariseChains({t.columns, t.values, model.localLayout(j).size()}, p.chain));
        });
    if (!localsWritten.empty()) written.push_back(localsWritten);
    output::writeSummaryJson(summaryPath, summary);
    written.push_back(summaryPath);
    if (outCli.mergeChains) {
      output::writeStanSamplingCsvMerged(outCli.output, run, chains);
      written.push_back(outCli.output);
    } else {
      for (const output::ChainSamples& chain : chains) {
        const fs::path path = output::chainCsvPath(outCli.output, chain.chainId);
        output::writeStanSamplingCsv(path, run, chain);
        written.push_back(path.string());
      }
    }
    outputs.commit();
    times.write = clock.lap();

    std::cout << "\n" << output::formatSummaryTable(summary.summary) << "\n";
    shown.print();
    std::printf(
        "%zu chains of %zu draws after %zu warm-up iterations in %.1f s; %zu gradient evaluations "
        "(%zu in warm-up); %zu divergent transitions; largest R-hat %.4g; smallest ESS bulk %.0f, tail %.0f%s\n",
        p.chains.size(), options.sampling.draws, summary.sampling->warmup, result.seconds,
        mixing.warmupGradients + mixing.samplingGradients, mixing.warmupGradients, mixing.divergences, mixing.maxRhat,
        mixing.minEssBulk, mixing.minEssTail, mixing.warnings.empty() ? " (no warnings)" : "");
    for (const std::string& w : written) std::printf("wrote %s\n", w.c_str());
    std::printf("%s\n", workLine(times, result.evaluations).c_str());
    std::fflush(stdout);
    for (const std::string& w : mixing.warnings) std::cerr << program << ": warning: " << w << "\n";
  });
  if (status != kExitOk) return status;
  if (mixing.failed) {
    std::cerr << program << ": error: the fit failed: the chains did not mix (the draws were written for inspection)\n";
    return kExitFitFailed;
  }
  return kExitOk;
}

}  // namespace pvi::app
