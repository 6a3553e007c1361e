#pragma once
// The signature table of the standard library: every operator, function and distribution the
// checker accepts, with the rule that computes its result type and checks its sizes.
// Later phases (IR lowering, AD, code generation) extend the entries here, so adding a function
// is one place.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/sema/Type.hpp"

namespace pvi::stdlib {

// What an argument position accepts.
enum class Param {
  Int,        // int
  Real,       // int or real
  Vector,     // vector
  RowVector,  // row_vector
  Matrix,     // matrix
  Vectors,    // vector or array[] vector (multi_normal's variate and mean, vectorised as in Stan)
  IntArray,   // array[] int
  Ints,       // int or array[] int
  Reals,      // real scalar or 1-D container: vector, row_vector, array[] real/int (and matrix)
  Reals1D,    // Reals without the matrix (the arguments of _rng functions and GLMs, as in Stan)
  Container,  // Reals without the scalars
  Array2D,    // array[,] real or array[,] int
  Any,        // any numeric type, arrays included (element-wise functions)
};
std::string describe(Param p);
bool accepts(Param p, const Type& t);

// A size equality that could not be decided at compile time; it is checked when data are bound.
struct DeferredSizeCheck {
  Size a, b;
  std::string what;
};

// Collects size mismatches found while computing a result type.
class SizeChecker {
 public:
  void requireEqual(const Size& a, const Size& b, const std::string& what);
  std::vector<std::string> errors;
  std::vector<DeferredSizeCheck> deferred;
};

struct CallArgs {
  const std::vector<Type>& types;
  // For int scalar arguments: the value as a symbolic size (rep_vector(0, N) has size N).
  const std::vector<Size>& asSize;
  SizeChecker& sizes;
};

using ResultRule = std::function<Type(const CallArgs&)>;

struct Signature {
  std::vector<Param> params;
  ResultRule result;
};

struct FunctionEntry {
  std::string name;
  std::vector<Signature> signatures;
};

struct DistributionEntry {
  std::string name;
  bool discrete;               // density suffix _lpmf instead of _lpdf
  Param variate;
  std::vector<Param> params;   // after the variate
  std::vector<std::string> paramNames;
  // Sizes: by default every non-scalar argument (variate included) must have the same size;
  // multivariate densities replace the rule.
  std::function<void(const std::vector<Type>&, SizeChecker&)> sizeRule;
};

// Lookup. Operators are named by their spelling: "+", "-", "*", ".*", "'" (transpose), "u-"
// (unary minus), "u+", "!", ...
const FunctionEntry* findOperator(const std::string& op);
const FunctionEntry* findFunction(const std::string& name);
const DistributionEntry* findDistribution(const std::string& name);
// "normal_lpdf" (or "normal_lcdf", "normal_lccdf", "normal_cdf") -> the normal entry (nullptr for
// names without a density or CDF suffix).
const DistributionEntry* findDensityFunction(const std::string& name);
// "_lcdf", "_lccdf" or "_cdf" when `name` ends with one, else "".
std::string cdfSuffix(const std::string& name);
// The distribution has _lcdf, _lccdf and _cdf (its kernels exist), so it can also be truncated.
bool hasCdf(const DistributionEntry& d);

const std::vector<FunctionEntry>& operators();
const std::vector<FunctionEntry>& functions();
const std::vector<DistributionEntry>& distributions();

// The length of a 1-D container (vector, row_vector, 1-D array) or nullopt.
std::optional<Size> length1D(const Type& t);

}  // namespace pvi::stdlib
