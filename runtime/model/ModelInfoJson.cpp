#include <nlohmann/json.hpp>
#include <stdexcept>

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

json variables(const std::vector<VariableInfo>& vars) {
  json out = json::array();
  for (const VariableInfo& v : vars)
    out.push_back({{"name", v.name},
                   {"int", v.isInt},
                   {"scalar", v.isScalar},
                   {"shape", shapeName(v.shape)},
                   {"array_dims", v.arrayDims},
                   {"shape_dims", v.shapeDims},
                   {"type", v.type}});
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
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace

std::string toJson(const ModelInfo& info) {
  json j{{"name", info.name},
         {"partition", info.data.partitionName},
         {"data", variables(info.data.shared)},
         {"data_per_partition", variables(info.data.partition)},
         {"globals", variables(info.globals)},
         {"hypers", variables(info.hypers)},
         {"locals", variables(info.locals)},
         {"generated_shared", variables(info.generatedShared)},
         {"generated_partition", variables(info.generatedPartition)}};
  return j.dump();
}

ModelInfo modelInfoFromJson(const std::string& text) {
  try {
    json j = json::parse(text);
    ModelInfo info;
    info.name = j.at("name").get<std::string>();
    info.data.partitionName = j.at("partition").get<std::string>();
    info.data.shared = variablesFrom(j.at("data"));
    info.data.partition = variablesFrom(j.at("data_per_partition"));
    info.globals = variablesFrom(j.at("globals"));
    info.hypers = variablesFrom(j.at("hypers"));
    info.locals = variablesFrom(j.at("locals"));
    info.generatedShared = variablesFrom(j.at("generated_shared"));
    info.generatedPartition = variablesFrom(j.at("generated_partition"));
    return info;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed model info: ") + e.what());
  }
}

}  // namespace pvi
