#pragma once
// What a model's data blocks declare, for binding and validating data and for messages.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pvi {

// The shape of a variable's element type (arrays are listed separately, in arrayDims).
enum class ValueShape { Scalar, Vector, RowVector, Matrix };

// The map from the unconstrained scale to a variable's declared bounds: the identity for an
// unbounded variable, x = lower + exp(u), x = upper - exp(u), or
// x = lower + (upper - lower) * inv_logit(u). For data the bounds are checks, not a map.
// Simplex, Ordered and PositiveOrdered: Stan's constrained vectors (a simplex of K elements has
// K - 1 unconstrained coordinates). Affine: Stan's offset and multiplier, x = offset + multiplier * u.
enum class TransformKind {
  Identity,
  Lower,
  Upper,
  LowerUpper,
  Simplex,
  Ordered,
  PositiveOrdered,
  CholeskyFactorCorr,
  Affine,
  UnitVector,
  CholeskyFactorCov,
  CovMatrix,
  CorrMatrix
};

// One bound of a declaration, e.g. lower=0 or upper=b[k].
struct Bound {
  std::string expr;               // as written (printed), e.g. "0", "-1.5", "lo"; empty when absent
  std::optional<double> constant; // its value when it is a number (a literal, possibly negated)
};

struct Transform {
  TransformKind kind = TransformKind::Identity;
  Bound lower, upper;         // set as the kind says
  Bound offset, multiplier;   // Affine (either may be absent: 0 and 1)

  bool isIdentity() const { return kind == TransformKind::Identity; }
};

// One declared variable: data, parameter or generated quantity.
struct VariableInfo {
  std::string name;
  bool isInt = false;
  bool isScalar = false;                // an int or real that is not an array
  ValueShape shape = ValueShape::Scalar;
  std::vector<std::string> arrayDims;   // size expressions as written, outermost first
  std::vector<std::string> shapeDims;   // vector / row_vector: {n}; matrix: {rows, cols}
  std::string type;                     // as declared, e.g. "matrix[N, D]" or "array[N] int<lower=0, upper=1>"
  Transform transform;                  // its declared bounds, as data (never parse `type` for them)
  // Latents: the program gives it a proper prior (it is the variate of a density, or it is a simplex
  // or bounded on both sides). False for data, and in descriptions that do not say.
  bool properPrior = false;

  size_t rank() const { return arrayDims.size() + shapeDims.size(); }
};

using DataField = VariableInfo;

// A size equality the compiler could not decide (e.g. N == M): the data checks (shared_check, or
// partition_check when a size uses per-partition data) verify it when data are bound and report
// a failure as PVI_STATUS_SIZE_MISMATCH with this check's index (runtime/abi/factor_abi.h).
struct SizeCheckInfo {
  std::string a, b;        // the two sizes as the checker spells them, e.g. "N" and "(K + 1)"
  std::string what;        // e.g. "sizes of the operands of './' differ"
  std::string expr;        // the source text of the expression or statement (one line)
  std::string at;          // its position, "line:col"
  bool partition = false;  // uses per-partition data: checked for each partition
  // Uses transformed data: checked once they are computed (shared_check_transformed or
  // partition_check_transformed).
  bool transformed = false;
};

struct DataSchema {
  std::string partitionName;          // e.g. "client"; empty without partitions
  std::vector<DataField> shared;      // `data { }`, in declaration order
  std::vector<DataField> partition;   // `data per P { }`, in declaration order
  // The transformed data: computed when the data are bound (transform_shared and
  // transform_partition, runtime/abi/factor_abi.h) and appended to the shared data, or to each
  // partition's, after the variables above, in declaration order. Stan's `transformed data`;
  // also ints the compiler adds for sizes such as `sum(m) - 1` (named by that text).
  std::vector<DataField> transformedShared;
  std::vector<DataField> transformedPartition;
  std::vector<SizeCheckInfo> sizeChecks;  // size equalities checked when data are bound
};

}  // namespace pvi
