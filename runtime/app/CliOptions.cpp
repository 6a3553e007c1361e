#include "runtime/app/Cli.hpp"
#include "runtime/fit/FitOptions.hpp"

namespace pvi::app {

void addDataOptions(CLI::App& cmd, DataCli& d) {
  cmd.add_option("--data", d.data, "Shared data (the data block), CmdStan JSON")->type_name("FILE");
  cmd.add_option("--partition-data", d.partitionData,
                 "Per-partition data: one CSV file with a partition column, or one CmdStan JSON file per partition "
                 "(repeat the option)")
      ->type_name("FILE");
  cmd.add_option("--partition-label", d.partitionLabels,
                 "Labels of the JSON partition files, in order (default: each file's name without extension)")
      ->type_name("LABEL");
  cmd.add_option("--partition-by", d.partitionBy,
                 "The CSV column naming each row's partition (default: the model's partition name)")
      ->type_name("COLUMN");
  cmd.add_option("--map", d.maps,
                 "Map a categorical column to integers, e.g. --map y=spam:1,nonspam:0 (repeat per column)")
      ->type_name("COL=VAL:INT,...");
  cmd.add_flag("--allow-single-partition", d.allowSinglePartition,
               "Accept a partition column with only one distinct value");
}

void addFitOptions(CLI::App& cmd, FitCli& f, OutputCli& o) {
  cmd.add_option("--algorithm", f.algorithm, "Inference algorithm (auto picks one and says why)")
      ->capture_default_str()
      ->check(CLI::IsMember(algorithmNames()));
  cmd.add_option("--schedule", f.schedule, "PVI schedule: synchronous or sequential (default: auto)")
      ->check(CLI::IsMember(scheduleNames()));
  cmd.add_option("--family", f.family, "Gaussian family of q: full or mean-field (default: auto)")
      ->check(CLI::IsMember(familyNames()));
  cmd.add_option("--locals", f.locals,
                 "Each partition's q(w | z): structured (mean and sds move with z, correlated locals), "
                 "structured-diagonal, skewed (structured-diagonal with a sinh-arcsinh shape per local), gaussian (the "
                 "SFVI paper's: mean moves with z), or independent of z (default: auto)")
      ->check(CLI::IsMember(localsNames()));
  cmd.add_option("--globals", f.globals,
                 "sfvi: q(z) gaussian, or skewed (a sinh-arcsinh shape on each of its coordinates, for globals "
                 "whose posterior is skewed, such as the sd of few groups; default: auto, skewed where the locals "
                 "are drawn from their Laplace proposal)")
      ->check(CLI::IsMember({"gaussian", "skewed"}));
  cmd.add_option("--rounds", f.fit.rounds,
                 "Most communication rounds (0: auto: 30 for pvi, sfvi and sfvi-avg; for ep, ep-eta and ep-mu, "
                 "iterations: 3,000 times a factor of the sites and locals, docs/fitting.md \"EP\")")
      ->capture_default_str();
  cmd.add_option("--round-budget", f.roundBudget, "A hard cap on communication rounds, used by auto (0: none)")
      ->capture_default_str();
  cmd.add_option("--damping", f.fit.damping, "Damping rho in (0, 1] (0: auto)")->capture_default_str();
  cmd.add_option("--tolerance", f.fit.tolerance, "Stop when a round changes q by at most this (relative)")
      ->capture_default_str();
  cmd.add_option("--patience", f.fit.patience, "Stop after this many rounds without ELBO gain (0: never)")
      ->capture_default_str();
  cmd.add_option("--start", f.start,
                 "Where q starts: laplace (the Laplace approximation at the joint mode; with local latents, "
                 "N(0, --initial-sd^2 I)) or prior")
      ->capture_default_str()
      ->check(CLI::IsMember({"laplace", "prior"}));
  cmd.add_option("--local-steps", f.fit.localSteps,
                 "Most Adam steps per client update (without local latents a client stops sooner, when 2 windows of 10 "
                 "steps do not raise its objective beyond its Monte Carlo error)")
      ->capture_default_str();
  cmd.add_option("--iterations-per-round", f.fit.iterationsPerRound,
                 "sfvi: server steps per round (the ELBO is estimated and q averaged once per round)")
      ->capture_default_str();
  cmd.add_option("--learning-rate", f.fit.learningRate, "Adam learning rate")->capture_default_str();
  cmd.add_option("--initial-sd", f.fit.initialSd,
                 "sfvi, sfvi-avg, and pvi with local latents: q starts at N(0, sd^2 I) on the unconstrained scale (0.1 "
                 "suits neural networks)")
      ->capture_default_str();
  cmd.add_option("--ep-step", f.fit.ep.step,
                 "ep: damping alpha; ep-eta, ep-mu: step eps after the warm-up, in (0, 1] (0: auto, 0.5 for ep, "
                 "min(0.02, 0.1 / sites) otherwise)")
      ->capture_default_str();
  cmd.add_option("--ep-start-step", f.fit.ep.startStep,
                 "ep-eta, ep-mu: step at the first iteration, falling to --ep-step over the first tenth (0: auto, "
                 "min(0.1, 0.5 / sites), until some cavity keeps less than half of the approximation)")
      ->capture_default_str();
  cmd.add_option("--ep-samples", f.fit.ep.samples,
                 "ep, ep-eta, ep-mu: tilted draws per site update (0: auto, 1 for ep-eta and ep-mu; ep needs more "
                 "than D + 2)")
      ->capture_default_str();
  cmd.add_flag("--ep-restart", f.fit.ep.restart,
               "ep, ep-eta, ep-mu: restart each site's chain from a draw of the approximation at every "
               "re-adaptation");
  cmd.add_option("--ep-inner", f.fit.ep.inner, "ep, ep-eta, ep-mu: site sweeps per refresh of theta")
      ->capture_default_str();
  cmd.add_option("--ep-power", f.fit.ep.power, "ep, ep-eta, ep-mu: power beta of every site (1: EP)")
      ->capture_default_str();
  cmd.add_option("--samples", f.fit.samples, "Monte Carlo draws per Adam step")->capture_default_str();
  cmd.add_option("--inner-draws", f.fit.innerDraws,
                 "sfvi, sfvi-avg: draws of each partition's locals per draw of the globals, importance-weighted (0: "
                 "auto, 8 where every partition has at most 8 locals, else 1; 1: the plain ELBO)")
      ->capture_default_str();
  cmd.add_option("--inner-proposal", f.innerProposal,
                 "sfvi, sfvi-avg: where those draws come from: q (q(w | z)), or laplace (at each draw of the globals, "
                 "Newton's method finds the mode of the partition's locals and they are drawn from the Gaussian "
                 "with its curvature; default: auto, laplace with more than one inner draw)")
      ->check(CLI::IsMember({"q", "laplace"}));
  cmd.add_option(
         "--refine-samples", f.fit.refineSamples,
         "sfvi: when the ELBO stops rising, double the draws per step up to this many and go on; pvi: the draws per "
         "local step instead of --samples (0: auto, 16 x --samples with more than 64 locals in a partition, else "
         "off; at most --samples: off)")
      ->capture_default_str();
  cmd.add_option("--elbo-samples", f.fit.elboSamples, "Draws per client for each round's ELBO estimate")
      ->capture_default_str();
  cmd.add_option("--threads", f.fit.threads, "Threads for parallel clients or chains (0: all cores)")
      ->capture_default_str();
  cmd.add_option("--seed", f.fit.seed, "Random seed")->capture_default_str();
  cmd.add_option("--theta", f.fit.theta, "Fixed hyperparameters, unconstrained (default: zeros)")
      ->delimiter(',')
      ->type_name("X,...");
  cmd.add_option("--chains", f.fit.sampling.chains, "nuts: number of chains (run on --threads threads)")
      ->capture_default_str();
  cmd.add_option("--warmup", f.warmup,
                 "nuts: warm-up iterations per chain (default: 300 with --adaptation fisher, 1000 with windowed)")
      ->type_name("N");
  cmd.add_option("--max-depth", f.fit.sampling.maxDepth, "nuts: maximum tree depth")->capture_default_str();
  cmd.add_option("--adapt-delta", f.fit.sampling.adaptDelta, "nuts: target acceptance statistic in (0, 1)")
      ->capture_default_str();
  cmd.add_option("--metric", f.metric, "nuts: diag or dense metric")
      ->capture_default_str()
      ->check(CLI::IsMember(metricNames()));
  cmd.add_option("--adaptation", f.adaptation,
                 "nuts: metric warm-up, fisher (nutpie's diagonal) or windowed (Stan's; needed for dense)")
      ->capture_default_str()
      ->check(CLI::IsMember(adaptationNames()));
  cmd.add_option("--progress", f.progress, "Progress display: auto (on a terminal), always or never")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd.add_option("-o,--output", o.output, "Draws from q in constrained space, Stan CSV")->capture_default_str();
  cmd.add_option("--draws", o.draws, "Number of draws written (nuts: per chain)")->capture_default_str();
  cmd.add_flag("--merge-chains", o.mergeChains,
               "nuts: all chains in the --output file with a chain__ column (default: <output stem>_<chain>.csv "
               "per chain, as CmdStan)");
  cmd.add_option("--resample", o.resample,
                 "Variational fits: psis (the draws written are resampled by their Pareto-smoothed importance "
                 "weights p / q when k-hat is at most 0.7, as Stan's Pathfinder does) or none (q's own draws)")
      ->capture_default_str()
      ->check(CLI::IsMember({"psis", "none"}));
  cmd.add_option("--summary-json", o.summaryJson, "JSON summary (default: <output stem>-summary.json)")
      ->type_name("FILE");
  cmd.add_option("--report", o.reportDir, "Write SVG plots and index.html to DIR")->type_name("DIR");
  cmd.add_flag("--show-locals", o.showLocals,
               "Also print the summary of every partition's local latents and partition-level generated "
               "quantities (always written to --locals-dir)");
  cmd.add_option("--locals-dir", o.localsDir,
                 "Directory of per-partition local posteriors, one subdirectory per partition "
                 "(default: <output stem>-locals)")
      ->type_name("DIR");
}

void addLogDensityOptions(CLI::App& cmd, LogDensityCli& p) {
  cmd.add_option("--z", p.z, "Unconstrained globals (default: zeros)")->delimiter(',')->type_name("X,...");
  cmd.add_option("--w", p.w,
                 "Unconstrained locals of every partition, concatenated in partition order (default: zeros)")
      ->delimiter(',')
      ->type_name("X,...");
  cmd.add_option("--theta", p.theta, "Unconstrained hyperparameters (default: zeros)")
      ->delimiter(',')
      ->type_name("X,...");
}

}  // namespace pvi::app
