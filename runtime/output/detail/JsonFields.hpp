#pragma once
// Internal to pvi_output (nlohmann_json is a private dependency): JSON pieces shared by the
// summary and the per-partition locals summary.
#include <string>

#include <nlohmann/json.hpp>

#include "runtime/output/Summary.hpp"

namespace pvi::output::detail {

using Json = nlohmann::ordered_json;

Json jsonNumber(double x);  // null when not finite (JSON has no NaN or infinity)
Json columnJson(const ColumnSummary& s);
std::string dumpJson(const Json& j);  // two-space indent, invalid UTF-8 replaced

}  // namespace pvi::output::detail
