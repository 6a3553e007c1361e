#include "runtime/output/detail/StanCsvHeader.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "runtime/output/Version.hpp"

namespace pvi::output::detail {

namespace {

// Keys with a meaning to CmdStan (variational and sample methods), to CmdStanPy's configuration
// dictionary (which also derives data_file, column_names, draws_* and ct_* entries) and to rstan's
// read_stan_csv (which renames id, num_samples and num_warmup to chain_id, iter and warmup and
// reads sampler_t), plus the keys pvic itself writes.
const std::set<std::string> kReservedKeys = {"model",
                                             "method",
                                             "algorithm",
                                             "iter",
                                             "grad_samples",
                                             "elbo_samples",
                                             "eta",
                                             "tol_rel_obj",
                                             "eval_elbo",
                                             "output_samples",
                                             "id",
                                             "file",
                                             "seed",
                                             "init",
                                             "diagnostic_file",
                                             "refresh",
                                             "sig_figs",
                                             "num_samples",
                                             "num_warmup",
                                             "save_warmup",
                                             "thin",
                                             "adapt",
                                             "engaged",
                                             "gamma",
                                             "delta",
                                             "kappa",
                                             "t0",
                                             "init_buffer",
                                             "term_buffer",
                                             "window",
                                             "save_metric",
                                             "engine",
                                             "max_depth",
                                             "metric",
                                             "metric_file",
                                             "stepsize",
                                             "stepsize_jitter",
                                             "num_chains",
                                             "num_threads",
                                             "profile_file",
                                             "stan_version_major",
                                             "stan_version_minor",
                                             "stan_version_patch",
                                             "stanc_version",
                                             "stancflags",
                                             "start_datetime",
                                             "data_file",
                                             "column_names",
                                             "raw_header",
                                             "draws_sampling",
                                             "draws_warmup",
                                             "ct_divergences",
                                             "ct_max_treedepth",
                                             "chain_id",
                                             "warmup",
                                             "sampler_t",
                                             "max_treedepth",
                                             "adapt_delta",
                                             "adaptation_info",
                                             "has_time",
                                             "time_info",
                                             "pvic_version",
                                             "pvi_algorithm",
                                             "partition",
                                             "local_latents",
                                             "generated_quantities",
                                             "chains"};

// Comment lines must stay one line each.
std::string oneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

}  // namespace

void configLine(std::ostream& os, int depth, const std::string& key, const std::string& value) {
  os << '#' << std::string(1 + 2 * depth, ' ') << oneLine(key) << " = " << oneLine(value) << '\n';
}

void sectionLine(std::ostream& os, int depth, const std::string& name) {
  os << '#' << std::string(1 + 2 * depth, ' ') << oneLine(name) << '\n';
}

std::string optionKey(const std::string& key) { return kReservedKeys.count(key) ? "pvi_" + key : key; }

void writeRunLines(std::ostream& os, const RunInfo& run) {
  configLine(os, 0, "model", run.model);
  configLine(os, 0, "start_datetime", run.startDatetime.empty() ? currentUtcDatetime() : run.startDatetime);
  configLine(os, 0, "pvic_version", pvicVersion());
}

void writePviSection(std::ostream& os, const RunInfo& run,
                     const std::vector<std::pair<std::string, std::string>>& extra) {
  sectionLine(os, 1, "pvi");
  configLine(os, 2, "pvi_algorithm", run.algorithm);
  for (const auto& [key, value] : extra) configLine(os, 2, key, value);
  for (const auto& [key, value] : run.options) configLine(os, 2, optionKey(key), value);
}

void writeDataRandomOutput(std::ostream& os, const RunInfo& run) {
  sectionLine(os, 0, "data");
  for (const std::string& file : run.dataFiles) configLine(os, 1, "file", file);
  sectionLine(os, 0, "random");
  configLine(os, 1, "seed", run.seed ? std::to_string(*run.seed) : std::string("(none)"));
  sectionLine(os, 0, "output");
  configLine(os, 1, "file", run.outputFile);
}

void checkColumnNames(const std::vector<std::string>& names, std::set<std::string> taken, const std::string& what) {
  for (const std::string& name : names) {
    const bool bad = name.empty() || name.front() == '#' || std::any_of(name.begin(), name.end(), [](char c) {
                       return c == ',' || c == '"' || std::isspace(static_cast<unsigned char>(c));
                     });
    if (bad) throw std::invalid_argument(what + ": invalid column name '" + name + "'");
    if (!taken.insert(name).second) throw std::invalid_argument(what + ": duplicate column name '" + name + "'");
  }
}

}  // namespace pvi::output::detail
