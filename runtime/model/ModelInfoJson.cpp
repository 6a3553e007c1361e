#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "runtime/model/ModelInfo.hpp"

namespace pvi {

namespace {

using nlohmann::json;

const char* shapeName(ValueShape s) {
  switch (s) {
    case ValueShape::Scalar: return "scalar";
    case ValueShape::Vector: return "vector";
    case ValueShape::RowVector: return "row_vector";
    case ValueShape::Matrix: return "matrix";
  }
  return "scalar";
}

ValueShape shapeFromName(const std::string& s) {
  if (s == "scalar") return ValueShape::Scalar;
  if (s == "vector") return ValueShape::Vector;
  if (s == "row_vector") return ValueShape::RowVector;
  if (s == "matrix") return ValueShape::Matrix;
  throw std::runtime_error("model info: unknown shape '" + s + "'");
}

const char* transformName(TransformKind k) {
  switch (k) {
    case TransformKind::Identity: return "identity";
    case TransformKind::Lower: return "lower";
    case TransformKind::Upper: return "upper";
    case TransformKind::LowerUpper: return "lower_upper";
    case TransformKind::Simplex: return "simplex";
    case TransformKind::Ordered: return "ordered";
    case TransformKind::PositiveOrdered: return "positive_ordered";
    case TransformKind::CholeskyFactorCorr: return "cholesky_factor_corr";
    case TransformKind::Affine: return "affine";
    case TransformKind::UnitVector: return "unit_vector";
    case TransformKind::CholeskyFactorCov: return "cholesky_factor_cov";
    case TransformKind::CovMatrix: return "cov_matrix";
    case TransformKind::CorrMatrix: return "corr_matrix";
  }
  return "identity";
}

TransformKind transformFromName(const std::string& s) {
  if (s == "identity") return TransformKind::Identity;
  if (s == "lower") return TransformKind::Lower;
  if (s == "upper") return TransformKind::Upper;
  if (s == "lower_upper") return TransformKind::LowerUpper;
  if (s == "simplex") return TransformKind::Simplex;
  if (s == "ordered") return TransformKind::Ordered;
  if (s == "positive_ordered") return TransformKind::PositiveOrdered;
  if (s == "cholesky_factor_corr") return TransformKind::CholeskyFactorCorr;
  if (s == "affine") return TransformKind::Affine;
  if (s == "unit_vector") return TransformKind::UnitVector;
  if (s == "cholesky_factor_cov") return TransformKind::CholeskyFactorCov;
  if (s == "cov_matrix") return TransformKind::CovMatrix;
  if (s == "corr_matrix") return TransformKind::CorrMatrix;
  throw std::runtime_error("model info: unknown transform '" + s + "'");
}

// {"expr": "0", "constant": 0} or {"expr": "lo", "constant": null}; null when absent.
json boundJson(const Bound& b) {
  if (b.expr.empty()) return nullptr;
  return {{"expr", b.expr}, {"constant", b.constant ? json(*b.constant) : json(nullptr)}};
}

Bound boundFrom(const json& j) {
  Bound b;
  if (j.is_null()) return b;
  b.expr = j.at("expr").get<std::string>();
  if (!j.at("constant").is_null()) b.constant = j.at("constant").get<double>();
  return b;
}

json variables(const std::vector<VariableInfo>& vars) {
  json out = json::array();
  for (const VariableInfo& v : vars)
    out.push_back({{"name", v.name},
                   {"int", v.isInt},
                   {"scalar", v.isScalar},
                   {"shape", shapeName(v.shape)},
                   {"array_dims", v.arrayDims},
                   {"shape_dims", v.shapeDims},
                   {"type", v.type},
                   {"proper_prior", v.properPrior},
                   {"transform",
                    {{"kind", transformName(v.transform.kind)},
                     {"lower", boundJson(v.transform.lower)},
                     {"upper", boundJson(v.transform.upper)},
                     {"offset", boundJson(v.transform.offset)},
                     {"multiplier", boundJson(v.transform.multiplier)}}}});
  return out;
}

std::vector<VariableInfo> variablesFrom(const json& j) {
  std::vector<VariableInfo> out;
  for (const json& v : j) {
    VariableInfo x;
    x.name = v.at("name").get<std::string>();
    x.isInt = v.at("int").get<bool>();
    x.isScalar = v.at("scalar").get<bool>();
    x.shape = shapeFromName(v.at("shape").get<std::string>());
    x.arrayDims = v.at("array_dims").get<std::vector<std::string>>();
    x.shapeDims = v.at("shape_dims").get<std::vector<std::string>>();
    x.type = v.at("type").get<std::string>();
    x.properPrior = v.value("proper_prior", false);  // absent: not known
    const json& t = v.at("transform");
    x.transform.kind = transformFromName(t.at("kind").get<std::string>());
    x.transform.lower = boundFrom(t.at("lower"));
    x.transform.upper = boundFrom(t.at("upper"));
    // Descriptions written before offset and multiplier existed do not have them.
    if (t.contains("offset")) x.transform.offset = boundFrom(t.at("offset"));
    if (t.contains("multiplier")) x.transform.multiplier = boundFrom(t.at("multiplier"));
    out.push_back(std::move(x));
  }
  return out;
}

uint64_t hashFrom(const std::string& text) {
  if (text.size() != 16 || text.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw std::runtime_error("malformed model info: source_hash '" + text + "' is not 16 hexadecimal digits");
  return std::stoull(text, nullptr, 16);
}

}  // namespace

std::string toJson(const ModelInfo& info) {
  json j{{"abi_version", info.abiVersion},
         {"source_hash", hashText(info.sourceHash)},
         {"name", info.name},
         {"partition", info.data.partitionName},
         {"data", variables(info.data.shared)},
         {"data_per_partition", variables(info.data.partition)},
         {"transformed_data", variables(info.data.transformedShared)},
         {"transformed_data_per_partition", variables(info.data.transformedPartition)},
         {"globals", variables(info.globals)},
         {"hypers", variables(info.hypers)},
         {"locals", variables(info.locals)},
         {"generated_shared", variables(info.generatedShared)},
         {"generated_partition", variables(info.generatedPartition)}};
  json checks = json::array();
  for (const SizeCheckInfo& c : info.data.sizeChecks)
    checks.push_back({{"a", c.a},
                      {"b", c.b},
                      {"what", c.what},
                      {"expr", c.expr},
                      {"at", c.at},
                      {"partition", c.partition},
                      {"transformed", c.transformed}});
  j["size_checks"] = checks;
  j["rng_calls"] = info.rngCalls;
  j["statements"] = info.statements;
  return j.dump();
}

ModelInfo modelInfoFromJson(const std::string& text) {
  try {
    json j = json::parse(text);
    // The version first: a description of another version may differ in anything else.
    const int version = j.is_object() && j.contains("abi_version") ? j.at("abi_version").get<int>() : 0;
    if (version != PVI_FACTOR_ABI_VERSION)
      throw std::runtime_error("the compiled model uses factor ABI version " + std::to_string(version) +
                               ", but this runtime implements version " + std::to_string(PVI_FACTOR_ABI_VERSION) +
                               ": compile it again with this pvic");
    ModelInfo info;
    info.abiVersion = version;
    info.sourceHash = hashFrom(j.at("source_hash").get<std::string>());
    info.name = j.at("name").get<std::string>();
    info.data.partitionName = j.at("partition").get<std::string>();
    info.data.shared = variablesFrom(j.at("data"));
    info.data.partition = variablesFrom(j.at("data_per_partition"));
    info.data.transformedShared = variablesFrom(j.at("transformed_data"));
    info.data.transformedPartition = variablesFrom(j.at("transformed_data_per_partition"));
    info.globals = variablesFrom(j.at("globals"));
    info.hypers = variablesFrom(j.at("hypers"));
    info.locals = variablesFrom(j.at("locals"));
    info.generatedShared = variablesFrom(j.at("generated_shared"));
    info.generatedPartition = variablesFrom(j.at("generated_partition"));
    if (j.contains("size_checks"))  // absent: none
      for (const json& c : j.at("size_checks"))
        info.data.sizeChecks.push_back({c.at("a").get<std::string>(), c.at("b").get<std::string>(),
                                        c.at("what").get<std::string>(), c.at("expr").get<std::string>(),
                                        c.at("at").get<std::string>(), c.at("partition").get<bool>(),
                                        c.value("transformed", false)});
    if (j.contains("rng_calls")) info.rngCalls = j.at("rng_calls").get<std::vector<std::string>>();
    if (j.contains("statements")) info.statements = j.at("statements").get<std::vector<std::string>>();
    return info;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed model info: ") + e.what());
  }
}

}  // namespace pvi
