// pvi_spambase: the spambase version of the PVI paper's UCI experiment (Section 5.1, Figure 4;
// Appendix E.1) on the compiled examples/logistic_regression/model.pvi. See ../README.md.
//
// For each client split (A homogeneous, B inhomogeneous) and each method (global VI, sequential
// and synchronous PVI, BCM same / split, VCL, streaming VB) it prints the test accuracy and test
// NLPD after every communication round, then a summary table; --csv writes the per-round table.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "CompiledSpamModel.hpp"
#include "EigenLogisticModel.hpp"
#include "Experiment.hpp"
#include "runtime/model/GaussianPriorProbe.hpp"
#include "runtime/model/WithGaussianPrior.hpp"

namespace {

using namespace spam;

struct Settings {
  std::string dataDir = PVI_SOURCE_DIR "/examples/logistic_regression";
  std::string modelFile;  // default: dataDir/model.pvi
  std::string budget = "full";
  std::string family = "meanfield";
  std::string splits = "AB";
  bool eigen = false;
  std::string csv;
  std::uint64_t splitSeed = SplitBOptions{}.seed;
  ExperimentOptions experiment;
};

// Mean-field by default, as in the paper (Section 5: "a mean-field Gaussian variational
// approximation").
void applyBudget(Settings& s) {
  pvi::algorithms::AdamOptions& a = s.experiment.adam;
  a.learningRate = 0.05;
  a.finalLearningRateFraction = 0.02;
  a.samples = 8;
  pvi::algorithms::GlobalVIOptions& g = s.experiment.globalVI;
  g.method = pvi::algorithms::GlobalVIMethod::NaturalGradient;
  g.samples = 32;
  if (s.budget == "full") {
    s.experiment.rounds = 10;
    a.steps = 800;
    g.stepSize = 0.1;
    g.iterations = 400;
  } else if (s.budget == "small") {
    s.experiment.rounds = 5;
    a.steps = 300;
    g.stepSize = 0.2;
    g.iterations = 150;
  } else {
    throw CLI::ValidationError("--budget", "full or small");
  }
}

// The compiled model's prior, probed from its log density and checked against the declared
// N(0, prior_sd^2 I): PVI then holds it exactly as factor 0.
pvi::GaussianPrior compiledPrior(const pvi::FactorModel& model, double priorSd) {
  const pvi::GaussianPrior prior = probedPrior(model);
  const std::size_t d = model.globalDim();
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      const double expected = i == j ? priorSd * priorSd : 0.0;
      if (std::abs(prior.covariance[i * d + j] - expected) > 1e-12 * priorSd * priorSd || prior.mean[i] != 0.0)
        throw std::runtime_error("the probed prior is not N(0, prior_sd^2 I)");
    }
  return prior;
}

template <class Family>
std::vector<RoundRecord> runAll(const pvi::FactorModel& model, const Split& split, const TestSet& test,
                                const std::string& splitName, const ExperimentOptions& options) {
  std::vector<RoundRecord> all;
  for (Method m : kAllMethods) {
    const auto print = [&](const RoundRecord& r) {
      if (m == Method::GlobalVI && r.round < options.globalVI.iterations) return;  // its final iterate only
      std::printf("split %s  %-16s round %2zu  accuracy %6.2f%%  NLPD %.4f  messages %4zu  bytes %8zu\n",
                  splitName.c_str(), methodName(m).c_str(), r.round, 100.0 * r.score.accuracy, r.score.nlpd, r.messages,
                  r.bytes);
      std::fflush(stdout);
    };
    const std::vector<RoundRecord> records = runMethod<Family>(m, model, splitSizes(split), test, options, print);
    all.insert(all.end(), records.begin(), records.end());
  }
  return all;
}

void printSummary(const std::map<std::string, std::vector<RoundRecord>>& bySplit, const std::string& csv) {
  std::printf("\n%-6s %-16s %9s %8s %14s %6s %8s %10s %9s\n", "split", "method", "accuracy", "NLPD", "ELBO (se)",
              "rounds", "messages", "bytes", "reached");
  for (const auto& [split, records] : bySplit) {
    double target = 0.0;
    for (const RoundRecord& r : records)
      if (r.method == Method::GlobalVI) target = r.score.accuracy;  // the last iterate's
    for (Method m : kAllMethods) {
      std::vector<RoundRecord> own;
      for (const RoundRecord& r : records)
        if (r.method == m) own.push_back(r);
      if (own.empty()) continue;
      const RoundRecord& last = own.back();
      const long reach = m == Method::GlobalVI ? -2 : roundReaching(own, target, 0.005);
      const std::string reachText = reach == -2 ? "-" : reach < 0 ? "never" : "round " + std::to_string(reach);
      std::string note;
      if (last.rejected > 0) note += " rejected " + std::to_string(last.rejected);
      if (last.halvings > 0) note += " halvings " + std::to_string(last.halvings);
      std::printf("%-6s %-16s %8.2f%% %8.4f %9.2f (%.2f) %6zu %8zu %10zu %9s%s\n", split.c_str(), methodName(m).c_str(),
                  100.0 * last.score.accuracy, last.score.nlpd, last.elbo, last.elboStandardError, last.round,
                  last.messages, last.bytes, reachText.c_str(), note.c_str());
    }
  }
  std::printf(
      "(global VI: rounds = iterations, no messages. reached: the first round from which the accuracy stays\n"
      " at least global VI's minus 0.5 percentage points)\n");
  if (csv.empty()) return;
  std::ofstream out(csv);
  if (!out) throw std::runtime_error("cannot write " + csv);
  out << "split,method,round,accuracy,nlpd,messages,bytes,elbo\n";
  for (const auto& [split, records] : bySplit)
    for (const RoundRecord& r : records) {
      out << split << ',' << methodName(r.method) << ',' << r.round << ',' << r.score.accuracy << ',' << r.score.nlpd
          << ',' << r.messages << ',' << r.bytes << ',';
      if (!std::isnan(r.elbo)) out << r.elbo;  // final rounds only
      out << '\n';
    }
}

template <class Family>
int run(const Settings& s) {
  const SpamData data = loadSpamData(s.dataDir);
  const TestSet test{data.Xtest, data.ytest};
  const std::unique_ptr<JitProgram> program =
      s.eigen ? nullptr : compileProgram(s.modelFile.empty() ? s.dataDir + "/model.pvi" : s.modelFile);
  std::map<std::string, std::vector<RoundRecord>> bySplit;
  for (char name : s.splits) {
    SplitBOptions b;
    b.seed = s.splitSeed;
    const Split split = name == 'A' ? splitA(data.client) : splitB(data.ytrain, b);
    std::printf("split %c: client sizes", name);
    for (std::size_t n : splitSizes(split)) std::printf(" %zu", n);
    std::printf("\n");
    if (s.eigen) {
      const EigenLogisticModel model(data, split);
      bySplit[std::string(1, name)] = runAll<Family>(model, split, test, std::string(1, name), s.experiment);
    } else {
      const pvi::CompiledModel compiled = bindSpamData(*program, data, split);
      const pvi::WithGaussianPrior model(compiled, compiledPrior(compiled, data.priorSd));
      bySplit[std::string(1, name)] = runAll<Family>(model, split, test, std::string(1, name), s.experiment);
    }
  }
  printSummary(bySplit, s.csv);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  CLI::App app{"PVI on spambase: the paper's Section 5.1 experiment on the compiled logistic regression"};
  app.add_option("--data", s.dataDir, "directory with data.json, data_per_client.csv, model.pvi")
      ->capture_default_str();
  app.add_option("--model", s.modelFile, "the .pvi model (default: DATA/model.pvi)");
  app.add_option("--budget", s.budget, "full (10 rounds, 800 Adam steps) or small (5 rounds, 300 steps)")
      ->capture_default_str();
  app.add_option("--family", s.family,
                 "meanfield or full covariance (full: global VI draws 128 per iteration, see the README)")
      ->capture_default_str();
  app.add_option("--splits", s.splits, "which splits: A, B or AB")->capture_default_str();
  app.add_flag("--eigen", s.eigen, "use the hand-written Eigen model instead of the compiled one");
  app.add_option("--csv", s.csv, "write the per-round table to this CSV file");
  app.add_option("--seed", s.experiment.seed, "base seed of every random stream")->capture_default_str();
  app.add_option("--split-seed", s.splitSeed, "seed of split B")->capture_default_str();
  app.add_option("--threads", s.experiment.threads, "threads for synchronous PVI and BCM")->capture_default_str();
  app.add_option("--sync-damping", s.experiment.synchronousDamping, "rho of synchronous PVI")->capture_default_str();
  app.add_option("--seq-damping", s.experiment.sequentialDamping, "rho of sequential PVI")->capture_default_str();
  // Overrides of the budget's settings (applied after it).
  std::optional<std::size_t> rounds, steps, samples, gviIterations, gviSamples;
  std::optional<double> lr, finalLr, gviStep;
  app.add_option("--rounds", rounds, "communication rounds (budget: 10 / 5)");
  app.add_option("--adam-steps", steps, "Adam steps per client update (budget: 800 / 300)");
  app.add_option("--adam-lr", lr, "Adam learning rate (0.05)");
  app.add_option("--adam-final-lr", finalLr, "final learning rate as a fraction of the first (0.02)");
  app.add_option("--adam-samples", samples, "Monte Carlo draws per Adam step (8)");
  app.add_option("--gvi-iterations", gviIterations, "global VI iterations (budget: 400 / 150)");
  app.add_option("--gvi-step", gviStep, "global VI natural-gradient step (budget: 0.1 / 0.2)");
  app.add_option("--gvi-samples", gviSamples, "global VI draws per iteration (32; 128 with --family full)");
  CLI11_PARSE(app, argc, argv);
  try {
    applyBudget(s);
    if (rounds) s.experiment.rounds = *rounds;
    if (steps) s.experiment.adam.steps = *steps;
    if (samples) s.experiment.adam.samples = *samples;
    if (lr) s.experiment.adam.learningRate = *lr;
    if (finalLr) s.experiment.adam.finalLearningRateFraction = *finalLr;
    if (gviIterations) s.experiment.globalVI.iterations = *gviIterations;
    if (gviStep) s.experiment.globalVI.stepSize = *gviStep;
    // The full family's natural-gradient steps estimate a 58 x 58 Hessian: they need more draws
    // than dimensions (runGlobalVI refuses fewer).
    if (s.family == "full") s.experiment.globalVI.samples = 128;
    if (gviSamples) s.experiment.globalVI.samples = *gviSamples;
    for (char c : s.splits)
      if (c != 'A' && c != 'B') throw std::invalid_argument("--splits: A, B or AB");
    if (s.family == "meanfield") return run<pvi::MeanFieldGaussian>(s);
    if (s.family == "full") return run<pvi::FullGaussian>(s);
    throw std::invalid_argument("--family: meanfield or full");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pvi_spambase: %s\n", e.what());
    return 1;
  }
}
