#include "runtime/output/detail/JsonFields.hpp"

#include <cmath>

namespace pvi::output::detail {

Json jsonNumber(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

Json columnJson(const ColumnSummary& s) {
  Json j{{"name", s.name}, {"mean", jsonNumber(s.mean)}, {"sd", jsonNumber(s.sd)},
         {"q5", jsonNumber(s.q5)}, {"q50", jsonNumber(s.q50)}, {"q95", jsonNumber(s.q95)}};
  if (s.analytic) {
    j["analytic_mean"] = jsonNumber(s.analytic->mean);
    j["analytic_sd"] = jsonNumber(s.analytic->sd);
  }
  if (std::isfinite(s.rhat) || std::isfinite(s.essBulk)) {
    j["mcse_mean"] = jsonNumber(s.mcseMean);
    j["ess_bulk"] = jsonNumber(s.essBulk);
    j["ess_tail"] = jsonNumber(s.essTail);
    j["rhat"] = jsonNumber(s.rhat);
  }
  return j;
}

std::string dumpJson(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"; }

}  // namespace pvi::output::detail
