#pragma once
// What a model's data blocks declare, for validating bound data and for messages.
#include <string>
#include <vector>

namespace pvi {

struct DataField {
  std::string name;
  bool isInt = false;
  bool isScalar = false;
  std::string type;  // as declared, e.g. "matrix[N, D]" or "array[N] int<lower=0, upper=1>"
};

struct DataSchema {
  std::string partitionName;          // e.g. "client"; empty without partitions
  std::vector<DataField> shared;      // `data { }`, in declaration order
  std::vector<DataField> partition;   // `data per P { }`, in declaration order
};

}  // namespace pvi
