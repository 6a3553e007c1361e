#pragma once
// What a model's data blocks declare, for binding and validating data and for messages.
#include <cstddef>
#include <string>
#include <vector>

namespace pvi {

// The shape of a variable's element type (arrays are listed separately, in arrayDims).
enum class ValueShape { Scalar, Vector, RowVector, Matrix };

// One declared variable: data, parameter or generated quantity.
struct VariableInfo {
  std::string name;
  bool isInt = false;
  bool isScalar = false;                // an int or real that is not an array
  ValueShape shape = ValueShape::Scalar;
  std::vector<std::string> arrayDims;   // size expressions as written, outermost first
  std::vector<std::string> shapeDims;   // vector / row_vector: {n}; matrix: {rows, cols}
  std::string type;                     // as declared, e.g. "matrix[N, D]" or "array[N] int<lower=0, upper=1>"

  size_t rank() const { return arrayDims.size() + shapeDims.size(); }
};

using DataField = VariableInfo;

struct DataSchema {
  std::string partitionName;          // e.g. "client"; empty without partitions
  std::vector<DataField> shared;      // `data { }`, in declaration order
  std::vector<DataField> partition;   // `data per P { }`, in declaration order
};

}  // namespace pvi
