#include "runtime/output/SummaryJson.hpp"

#include <cmath>

#include "runtime/output/AtomicFile.hpp"
#include "runtime/output/detail/JsonFields.hpp"
#include "runtime/output/Version.hpp"

namespace pvi::output {

namespace {

using detail::columnJson;
using detail::Json;
Json number(double x) { return detail::jsonNumber(x); }

Json communicationJson(const CommunicationTotals& c) {
  return Json{{"messages_up", c.messagesUp}, {"messages_down", c.messagesDown}, {"bytes_up", c.bytesUp},
              {"bytes_down", c.bytesDown},   {"server_updates", c.serverUpdates}, {"dropped", c.dropped},
              {"accepted", c.accepted},      {"rejected", c.rejected}};
}

Json traceJson(const TraceRow& r) {
  Json j{{"round", r.round},
         {"elbo", number(r.elbo)},
         {"elbo_se", number(r.elboStandardError)},
         {"max_change", number(r.maxChange)},
         {"seconds", number(r.seconds)}};
  const Json communication = communicationJson(r.communication);  // not a temporary: items() refers to it
  for (const auto& [key, value] : communication.items()) j[key] = value;
  Json metrics = Json::object();
  for (const auto& [name, value] : r.metrics) metrics[name] = number(value);
  j["metrics"] = std::move(metrics);
  return j;
}

}  // namespace

std::string summaryJson(const FitResults& r) {
  Json options = Json::object();
  for (const auto& [key, value] : r.run.options) options[key] = value;
  Json parameters = Json::array();
  Json generated = Json::array();
  std::size_t draws = 0;
  for (const ColumnSummary& s : r.summary) {
    (s.generated ? generated : parameters).push_back(columnJson(s));
    draws = s.draws;
  }
  Json trace = Json::array();
  for (const TraceRow& row : r.trace) trace.push_back(traceJson(row));

  Json j{{"format", kSummaryFormat},
         {"pvic_version", pvicVersion()},
         {"model", r.run.model},
         {"data_files", r.run.dataFiles},
         {"algorithm", r.run.algorithm},
         {"family", r.run.family},
         {"options", std::move(options)},
         {"seed", r.run.seed ? Json(*r.run.seed) : Json(nullptr)},
         {"start_datetime", r.run.startDatetime.empty() ? currentUtcDatetime() : r.run.startDatetime},
         {"draws", draws},
         {"quantile_rule", "R type 7"},
         {"parameters", std::move(parameters)},
         {"generated_quantities", std::move(generated)},
         {"elbo", number(r.elbo)},
         {"elbo_se", number(r.elboStandardError)},
         {"log_evidence", number(r.logEvidence)},
         {"pareto_khat", number(r.paretoKhat)},
         {"importance_resampled", r.importanceResampled},
         {"importance_effective_draws", number(r.importanceEffectiveDraws)},
         {"rounds", r.run.rounds},
         {"communication", communicationJson(r.communication)},
         {"elapsed_seconds", number(r.elapsedSeconds)},
         {"trace", std::move(trace)}};
  if (r.sampling) {
    const SamplingTotals& t = *r.sampling;
    j["sampling"] = Json{{"chains", t.chains},
                         {"draws_per_chain", t.drawsPerChain},
                         {"warmup", t.warmup},
                         {"divergences", t.divergences},
                         {"treedepth_hits", t.treeDepthHits},
                         {"warmup_gradients", t.warmupGradients},
                         {"sampling_gradients", t.samplingGradients},
                         {"max_rhat", number(t.maxRhat)},
                         {"min_ess_bulk", number(t.minEssBulk)},
                         {"min_ess_tail", number(t.minEssTail)},
                         {"mixed", t.mixed},
                         {"warnings", t.warnings}};
  }
  return detail::dumpJson(j);
}

void writeSummaryJson(const std::filesystem::path& path, const FitResults& results) {
  writeFileAtomically(path, summaryJson(results));
}

}  // namespace pvi::output
