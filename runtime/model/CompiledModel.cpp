#include "runtime/model/CompiledModel.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "runtime/model/MemoryLimit.hpp"
#include "runtime/model/NonFiniteReason.hpp"
#include "stdlib/kernels/arith/arith.h"
#include "stdlib/kernels/rng/rng.h"

namespace pvi {

namespace {

// An evaluation of generated code on this thread (pvi_begin_evaluation): clears the last reject
// message and non-finite note, and names the partition in reject and fatal_error messages while it
// lives: "reject (district 12): ...".
class PrintContext {
 public:
  explicit PrintContext(const std::string* where) { pvi_begin_evaluation(where != nullptr ? where->c_str() : nullptr); }
  ~PrintContext() { pvi_print_context(nullptr); }
  PrintContext(const PrintContext&) = delete;
  PrintContext& operator=(const PrintContext&) = delete;
};

// Scratch that lives as long as the thread: the workspace of generated code, and gradient
// outputs the caller did not ask for.
struct ThreadScratch {
  std::vector<double> workspace;
  std::vector<double> unusedGradient;
};
thread_local ThreadScratch scratch;

constexpr size_t kShared = static_cast<size_t>(-1);  // CompiledModel::generate: no partition

// "lower=0, upper=1", as declared.
std::string declaredBounds(const Transform& t) {
  std::string bounds;
  if (!t.lower.expr.empty()) bounds += "lower=" + t.lower.expr;
  if (!t.upper.expr.empty()) bounds += (bounds.empty() ? "" : ", ") + std::string("upper=") + t.upper.expr;
  return bounds;
}

// "the generated quantity 'y_rep.3' is below its lower bound (lower=0)": a bounds failure
// {variable, element, kind} of a generate function (PVI_STATUS_GENERATED_OUT_OF_BOUNDS).
std::string generatedOutOfBounds(const std::vector<VariableInfo>& infos, const VariableLayout& layout, int64_t var,
                                 int64_t element, int64_t kind) {
  if (var < 0 || static_cast<size_t>(var) >= layout.variables().size() || static_cast<size_t>(var) >= infos.size())
    return "a generated quantity is outside its bounds";
  const VariableExtent& v = layout.variables()[static_cast<size_t>(var)];
  const Transform& t = infos[static_cast<size_t>(var)].transform;
  const std::string name = element >= 0 && static_cast<size_t>(element) < v.size
                               ? layout.elementNames().at(v.offset + static_cast<size_t>(element))  // as in the CSV
                               : v.name;
  const std::string bounds = declaredBounds(t);
  const char* what = kind == 1 ? "is below its lower bound" : kind == 2 ? "is above its upper bound" : "is NaN";
  return "the generated quantity '" + name + "' " + what + " (declared with <" + bounds + ">)";
}

// Calls generated code with this thread's workspace, growing it and calling again while the code
// reports (status > 0) that it needs more. Returns the result; `status` is then 0 or an error.
template <class Call>
auto withWorkspace(int64_t& status, Call&& call) {
  for (;;) {
    status = 0;
    auto result = call(scratch.workspace.data(), static_cast<int64_t>(scratch.workspace.size() * sizeof(double)));
    if (status <= 0) return result;
    // Refused before allocating: a model-block local of a size too large for memory would
    // otherwise end in std::bad_alloc.
    if (const MemoryLimit limit = memoryLimit(); static_cast<uint64_t>(status) > limit.bytes)
      throw ModelEvaluationError("the model's code needs " + byteSizeText(static_cast<long double>(status)) +
                                 " of workspace for its local variables, more than " + limit.text());
    scratch.workspace.resize((static_cast<size_t>(status) + sizeof(double) - 1) / sizeof(double));
  }
}

// A model description with only its data schema (for code compiled without one).
ModelInfo infoWithSchema(const DataSchema& schema) {
  ModelInfo info;
  info.data = schema;
  return info;
}

}  // namespace

CompiledModel::CompiledModel(const pvi_model_code& code, const DataSchema& schema, DataBlock shared,
                             std::vector<DataBlock> partitions, std::vector<std::string> partitionLabels,
                             DataLocator locator, std::uint64_t seed)
    : CompiledModel(code, infoWithSchema(schema), std::move(shared), std::move(partitions), std::move(partitionLabels),
                    std::move(locator), seed) {}

CompiledModel::CompiledModel(const pvi_model_code& code, ModelInfo info, DataBlock shared,
                             std::vector<DataBlock> partitions, std::vector<std::string> partitionLabels,
                             DataLocator locator, std::uint64_t seed)
    : code_(code),
      info_(std::move(info)),
      labels_(std::move(partitionLabels)),
      locator_(std::move(locator)),
      seed_(seed),
      shared_(std::move(shared)),
      partitions_(std::move(partitions)) {
  for (size_t j = 0; j < partitions_.size(); ++j)
    printContexts_.push_back(info_.data.partitionName + " " + partitionLabel(j));
  validate();
  transformData();
  // Concrete shapes, from the data (the shapes functions read no parameters). Every size is
  // checked against the memory limit before anything of that size is allocated.
  const MemoryLimit limit = memoryLimit();
  std::vector<double> sharedShapes;
  if (code_.shapes_globals != nullptr) {
    sharedShapes = output(code_.shapes_globals, code_.shapes_globals_size, nullptr, nullptr, nullptr, nullptr);
    size_t cursor = 0;
    checkSizes(info_.globals, "global", sharedShapes, &cursor, kSharedBlock, limit);
    checkSizes(info_.hypers, "hyper", sharedShapes, &cursor, kSharedBlock, limit);
    checkSizes(info_.generatedShared, "generated", sharedShapes, &cursor, kSharedBlock, limit);
  }
  std::vector<std::vector<double>> partitionShapes;
  if (code_.shapes_partition != nullptr) {
    for (size_t j = 0; j < partitions_.size(); ++j) {
      partitionShapes.push_back(output(code_.shapes_partition, code_.shapes_partition_size, nullptr, nullptr, nullptr,
                                       partitions_[j].pointers()));
      const std::string label = partitionLabel(j);
      size_t cursor = 0;
      checkSizes(info_.locals, ("local per " + info_.data.partitionName + " " + label).c_str(), partitionShapes.back(),
                 &cursor, j, limit);
      checkSizes(info_.generatedPartition, ("generated, " + info_.data.partitionName + " " + label).c_str(),
                 partitionShapes.back(), &cursor, j, limit);
    }
  }
  int64_t dims[3] = {0, 0, 0};
  code_.prior_dims(shared_.pointers(), nullptr, dims);
  dimZ_ = static_cast<size_t>(dims[0]);
  dimTheta_ = static_cast<size_t>(dims[2]);
  for (const DataBlock& p : partitions_) {
    code_.partition_dims(shared_.pointers(), p.pointers(), dims);
    dimW_.push_back(static_cast<size_t>(dims[1]));
  }
  if (code_.shapes_globals != nullptr) {
    size_t cursor = 0;
    std::vector<VariableInfo> params = info_.globals;
    params.insert(params.end(), info_.hypers.begin(), info_.hypers.end());
    parameters_ = VariableLayout(params, sharedShapes, &cursor);
    generatedShared_ = VariableLayout(info_.generatedShared, sharedShapes, &cursor);
  }
  for (const std::vector<double>& shapes : partitionShapes) {
    size_t cursor = 0;
    locals_.emplace_back(info_.locals, shapes, &cursor);
    generatedPartition_.emplace_back(info_.generatedPartition, shapes, &cursor);
  }
}

std::string CompiledModel::partitionLabel(size_t partition) const {
  return partition < labels_.size() ? labels_[partition] : std::to_string(partition + 1);
}

double CompiledModel::partitionObservations(size_t partition) const {
  const DataBlock& block = partitions_.at(partition);
  std::size_t rows = 1;
  for (std::size_t k = 0; k < info_.data.partition.size() && k < block.size(); ++k)
    if (info_.data.partition[k].rank() == 1) rows = std::max(rows, block.length(k));
  return static_cast<double>(rows);
}

namespace {

// The names a size expression reads: identifiers not followed by '(' (a function call).
std::vector<std::string> namesIn(const std::string& expr) {
  std::vector<std::string> names;
  auto identChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < expr.size();) {
    if (!identChar(expr[i])) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < expr.size() && (identChar(expr[i]) || expr[i] == '.')) ++i;
    size_t next = i;
    while (next < expr.size() && expr[next] == ' ') ++next;
    const bool call = next < expr.size() && expr[next] == '(';
    if (!std::isdigit(static_cast<unsigned char>(expr[start])) && !call) names.push_back(expr.substr(start, i - start));
  }
  return names;
}

}  // namespace

std::string CompiledModel::sizeOrigins(const VariableInfo& v, size_t partition) const {
  std::vector<std::string> names;
  for (const std::vector<std::string>* dims : {&v.arrayDims, &v.shapeDims})
    for (const std::string& expr : *dims)
      for (std::string& n : namesIn(expr))
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(std::move(n));
  // "D = 57, H = 100000 from data.json, N = 368 from clients.csv ...": one origin per run of
  // names from the same place.
  std::string text, pending;
  std::string lastOrigin;
  auto flush = [&] {
    if (pending.empty()) return;
    text += (text.empty() ? "" : ", ") + pending + (lastOrigin.empty() ? "" : " " + lastOrigin);
    pending.clear();
  };
  for (const std::string& name : names) {
    // The partition's own ints first: they hide shared ones of the same name.
    const std::vector<DataField>* fields[2] = {&info_.data.partition, &info_.data.shared};
    const DataBlock* blocks[2] = {partition < partitions_.size() ? &partitions_[partition] : nullptr, &shared_};
    const size_t indices[2] = {partition, kSharedBlock};
    for (int b = 0; b < 2; ++b) {
      if (blocks[b] == nullptr) continue;
      const std::vector<DataField>& f = *fields[b];
      const auto it = std::find_if(f.begin(), f.end(), [&](const DataField& d) { return d.name == name; });
      if (it == f.end()) continue;
      const auto k = static_cast<size_t>(it - f.begin());
      if (!it->isInt || !it->isScalar || k >= blocks[b]->size() || blocks[b]->length(k) != 1) break;
      std::string origin = locator_ ? locator_(indices[b], k, 0) : "";
      if (origin.compare(0, name.size() + 1, name + " ") == 0) origin.erase(0, name.size() + 1);
      if (origin != lastOrigin) flush();
      lastOrigin = origin;
      pending += (pending.empty() ? "" : ", ") + name + " = " + std::to_string(blocks[b]->intAt(k, 0));
      break;
    }
  }
  flush();
  return text;
}

void CompiledModel::checkSizes(const std::vector<VariableInfo>& vars, const char* block,
                               const std::vector<double>& shapes, size_t* cursor, size_t partition,
                               const MemoryLimit& limit) const {
  for (const VariableInfo& v : vars) {
    std::vector<uint64_t> dims;
    bool valid = true;
    for (size_t k = 0; k < v.rank(); ++k) {
      if (*cursor >= shapes.size()) return;  // VariableLayout reports it
      const std::optional<uint64_t> d = sizeFromDouble(shapes[(*cursor)++]);
      if (d) dims.push_back(*d);
      valid = valid && d.has_value();
    }
    if (!valid || !limit.exceededBy(checkedProduct(dims))) continue;  // an invalid size: VariableLayout reports it
    const std::string origins = sizeOrigins(v, partition);
    throw DataError(std::string(block) + ": '" + v.name + "' (" + v.type + ") would have " + elementCountText(dims) +
                    ", more than " + limit.text() + (origins.empty() ? "" : "; " + origins));
  }
}

namespace {

std::string kindName(bool isInt) { return isInt ? "an int" : "a real"; }

// The shortest text that reads back to the same double (-1e-300, not -0.000000); inf, -inf.
std::string roundTrip(double x) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

}  // namespace

void CompiledModel::validate() const {
  const DataSchema& schema = info_.data;
  if (!partitions_.empty() && code_.partition_value == nullptr)
    throw DataError("the model has no partition, but data for " + std::to_string(partitions_.size()) +
                    " partitions were given");
  validateBlock(schema.shared, shared_, nullptr, code_.shared_counts, code_.shared_check, "data", kSharedBlock);
  for (size_t j = 0; j < partitions_.size(); ++j) {
    validateBlock(schema.partition, partitions_[j], partitions_[j].pointers(), code_.partition_counts,
                  code_.partition_check, "data per " + schema.partitionName + " " + partitionLabel(j), j);
  }
}

// `where` names the block in messages: "data" or "data per client 3".
void CompiledModel::validateBlock(const std::vector<DataField>& fields, const DataBlock& block,
                                  const void* const* partitionPtrs, pvi_counts_fn counts, pvi_check_fn check,
                                  const std::string& where, size_t blockIndex) const {
  if (block.size() != fields.size()) {
    std::string names;
    for (const DataField& f : fields) names += (names.empty() ? "" : ", ") + f.name;
    throw DataError(where + ": expected " + std::to_string(fields.size()) + " variables (" + names + "), got " +
                    std::to_string(block.size()));
  }
  // Kinds and scalars first: the sizes of later variables are computed from earlier ints.
  for (size_t k = 0; k < fields.size(); ++k) {
    const DataField& f = fields[k];
    if (block.isInt(k) != f.isInt)
      throw DataError(where + ": '" + f.name + "' must be " + kindName(f.isInt) + " (" + f.type + ")");
    if (f.isScalar && block.length(k) != 1)
      throw DataError(where + ": '" + f.name + "' must be one value (" + f.type + "); got " +
                      std::to_string(block.length(k)));
  }
  std::vector<int64_t> expected(fields.size(), 0);
  counts(shared_.pointers(), partitionPtrs, expected.data());
  for (size_t k = 0; k < fields.size(); ++k) {
    if (expected[k] < 0)
      throw DataError(where + ": '" + fields[k].name + "' has a negative size (" + fields[k].type + ")");
    if (block.length(k) != static_cast<size_t>(expected[k]))
      throw DataError(where + ": '" + fields[k].name + "' has " + std::to_string(block.length(k)) +
                      " values; its type " + fields[k].type + " needs " + std::to_string(expected[k]));
  }
  int64_t status = 0, at[3] = {0, 0, 0};
  withWorkspace(status, [&](void* ws, int64_t bytes) {
    return check(shared_.pointers(), partitionPtrs, ws, bytes, &status, at);
  });
  if (status == 0) return;
  if (status == PVI_STATUS_SIZE_MISMATCH) {
    const auto& checks = info_.data.sizeChecks;
    if (at[0] < 0 || static_cast<size_t>(at[0]) >= checks.size())
      throw DataError(where + ": sizes that must be equal differ (" + std::to_string(at[1]) + " vs " +
                      std::to_string(at[2]) + ")");
    const SizeCheckInfo& c = checks[static_cast<size_t>(at[0])];
    // "N = 3", or "3" for a constant.
    auto side = [](const std::string& text, int64_t v) {
      return text == std::to_string(v) ? text : text + " = " + std::to_string(v);
    };
    throw DataError(where + ": sizes that must be equal differ: " + side(c.a, at[1]) + " but " + side(c.b, at[2]) +
                    " (" + c.what + ") in '" + c.expr + "' at " + c.at);
  }
  const DataField& f = fields.at(static_cast<size_t>(at[0]));
  size_t i = static_cast<size_t>(at[1]);
  std::string value = f.isInt ? std::to_string(block.intAt(static_cast<size_t>(at[0]), i))
                              : roundTrip(block.realAt(static_cast<size_t>(at[0]), i));
  std::string element = f.isScalar ? "'" + f.name + "'" : "'" + f.name + "' element " + std::to_string(i + 1);
  const char* what = at[2] == 1 ? "is below its lower bound" : at[2] == 2 ? "is above its upper bound" : "is NaN";
  std::string origin = locator_ ? locator_(blockIndex, static_cast<size_t>(at[0]), i) : "";
  throw DataError(where + ": " + element + (at[2] == 3 ? "" : " = " + value) + " " + what + " (" + f.type + ")" +
                  (origin.empty() ? "" : "; at " + origin));
}

double CompiledModel::call(pvi_factor_fn fn, const double* z, const double* w, const double* theta,
                           const void* const* part, double* gz, double* gw, double* gtheta,
                           const std::string* partition) const {
  const PrintContext context(partition);
  int64_t status = 0;
  const double v = withWorkspace(status, [&](void* ws, int64_t bytes) {
    return fn(z, w, theta, shared_.pointers(), part, gz, gw, gtheta, ws, bytes, &status);
  });
  if (status == 0 && std::isfinite(v)) return v;
  // The reason of the first factor that was not finite since the caller cleared it.
  auto note = [&](const std::string& reason) {
    if (nonFiniteReason().empty() && !reason.empty()) noteNonFiniteReason(reason);
  };
  const std::string where = partition != nullptr ? " (" + *partition + ")" : std::string();
  if (status == PVI_STATUS_REJECT) {  // zero density there
    note("reject" + where + ": " + pvi_last_message());
    return -std::numeric_limits<double>::infinity();
  }
  if (status == PVI_STATUS_FATAL_ERROR)
    throw ModelEvaluationError(std::string("the model called fatal_error: ") + pvi_last_message());
  if (status != 0) throw ModelEvaluationError(indexErrorText(status));  // the caller names the partition
  const int64_t site = pvi_take_nonfinite();                            // the first statement whose term was not finite
  if (site >= 0 && static_cast<size_t>(site) < info_.statements.size())
    note("the term of " + statementText(static_cast<size_t>(site)) + where + " is not finite");
  return v;
}

std::string CompiledModel::statementText(size_t site) const {
  const std::string& s = info_.statements.at(site);  // "12:5: y[n] ~ normal(mu, sigma);"
  const size_t colon = s.find(": ");
  if (colon == std::string::npos) return "'" + s + "'";
  return "'" + s.substr(colon + 2) + "' at " + s.substr(0, colon);
}

// "an index is out of range<where>, at 12:5: y[n] ~ normal(mu, sigma);" naming the statement, or
// the status where it names none.
std::string CompiledModel::indexErrorText(int64_t status, const std::string& where) const {
  const int64_t site = PVI_STATUS_INDEX_SITE_BASE - status;
  if (status <= PVI_STATUS_INDEX_SITE_BASE && static_cast<uint64_t>(site) < info_.statements.size())
    return "an index is out of range" + where + ", at " + info_.statements[static_cast<size_t>(site)];
  return "an index is out of range" + where + " (status " + std::to_string(status) + ")";
}

double CompiledModel::priorLogDensity(const double* z, const double* theta, double* gradZ, double* gradTheta) const {
  if (gradZ == nullptr && gradTheta == nullptr)
    return call(code_.prior_value, z, nullptr, theta, nullptr, nullptr, nullptr, nullptr);
  // Gradient outputs the caller did not ask for go to scratch, one after the other.
  std::vector<double>& unused = scratch.unusedGradient;
  if (unused.size() < dimZ_ + dimTheta_) unused.resize(dimZ_ + dimTheta_);
  double* gz = gradZ ? gradZ : unused.data();
  double* gt = gradTheta ? gradTheta : unused.data() + dimZ_;
  return call(code_.prior_grad, z, nullptr, theta, nullptr, gz, nullptr, gt);
}

double CompiledModel::partitionLogDensity(size_t partition, const double* z, const double* w, const double* theta,
                                          double* gradZ, double* gradW, double* gradTheta) const {
  const void* const* part = partitions_.at(partition).pointers();
  const std::string* name = &printContexts_[partition];
  if (gradZ == nullptr && gradW == nullptr && gradTheta == nullptr)
    return call(code_.partition_value, z, w, theta, part, nullptr, nullptr, nullptr, name);
  size_t dw = dimW_[partition];
  std::vector<double>& unused = scratch.unusedGradient;
  if (unused.size() < dimZ_ + dw + dimTheta_) unused.resize(dimZ_ + dw + dimTheta_);
  double* gz = gradZ ? gradZ : unused.data();
  double* gw = gradW ? gradW : unused.data() + dimZ_;
  double* gt = gradTheta ? gradTheta : unused.data() + dimZ_ + dw;
  return call(code_.partition_grad, z, w, theta, part, gz, gw, gt, name);
}

namespace {

// Which elements of one constrained vector or matrix (column-major indices into its rows x cols
// elements) name the coordinates of z that it takes, in z's order: a simplex's first K - 1; the
// elements below the diagonal of a Cholesky factor of a correlation matrix or of a correlation
// matrix, row by row; those on and below it (and left of column N) of a cov_matrix or a
// cholesky_factor_cov, row by row; every element otherwise.
std::vector<size_t> coordinateElements(TransformKind kind, size_t rows, size_t cols) {
  std::vector<size_t> out;
  switch (kind) {
    case TransformKind::Simplex:
      for (size_t i = 0; i + 1 < rows; ++i) out.push_back(i);
      return out;
    case TransformKind::CholeskyFactorCorr:
    case TransformKind::CorrMatrix:
    case TransformKind::CovMatrix:
    case TransformKind::CholeskyFactorCov: {
      const bool diagonal = kind == TransformKind::CovMatrix || kind == TransformKind::CholeskyFactorCov;
      for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols && (diagonal ? j <= i : j < i); ++j) out.push_back(i + j * rows);
      return out;
    }
    default:
      for (size_t i = 0; i < rows * cols; ++i) out.push_back(i);
      return out;
  }
}

// The rows and columns of one element of a variable (1 x 1 for a scalar, K x 1 for a vector).
std::pair<size_t, size_t> elementShape(const VariableExtent& e) {
  const size_t own = e.dims.size() - e.arrayRank;
  const auto rows = own >= 1 ? static_cast<size_t>(e.dims[e.arrayRank]) : 1;
  const auto cols = own >= 2 ? static_cast<size_t>(e.dims[e.arrayRank + 1]) : 1;
  return {rows, cols};
}

}  // namespace

size_t CompiledModel::unconstrainedCount(size_t v) const {
  const VariableExtent& e = parameters_.variables().at(v);
  const auto [rows, cols] = elementShape(e);
  if (rows * cols == 0) return 0;
  return e.size / (rows * cols) * coordinateElements(info_.globals.at(v).transform.kind, rows, cols).size();
}

// The names of z's coordinates: the globals' element names, one per coordinate as
// coordinateElements says (a simplex's first K - 1 elements; L.2.1, L.3.1, L.3.2 for a Cholesky
// factor of a correlation matrix; ...).
std::vector<std::string> CompiledModel::globalNames() const {
  const std::vector<std::string> all = parameters_.elementNames();
  std::vector<std::string> names;
  const auto& vars = parameters_.variables();
  for (size_t v = 0; v < vars.size() && v < info_.globals.size(); ++v) {
    const VariableExtent& e = vars[v];
    const auto [rows, cols] = elementShape(e);
    if (rows * cols == 0) continue;
    const std::vector<size_t> picked = coordinateElements(info_.globals[v].transform.kind, rows, cols);
    for (size_t m = 0; m < e.size / (rows * cols); ++m)
      for (size_t i : picked) names.push_back(all.at(e.offset + m * rows * cols + i));
  }
  if (names.size() != dimZ_) return FactorModel::globalNames();
  return names;
}

std::vector<bool> CompiledModel::globalsWithProperPrior() const {
  std::vector<bool> proper;
  for (size_t v = 0; v < parameters_.variables().size() && v < info_.globals.size(); ++v)
    proper.insert(proper.end(), unconstrainedCount(v), info_.globals[v].properPrior);
  if (proper.size() != dimZ_) return FactorModel::globalsWithProperPrior();
  return proper;
}

std::vector<double> CompiledModel::output(pvi_output_fn fn, pvi_dims_fn size, const double* z, const double* w,
                                          const double* theta, const void* const* part) const {
  if (fn == nullptr || size == nullptr) throw std::logic_error("the model's code has no such output function");
  int64_t n[3] = {0, 0, 0};
  size(shared_.pointers(), part, n);
  return runOutput(fn, static_cast<size_t>(std::max<int64_t>(n[0], 0)), z, w, theta, part);
}

std::vector<double> CompiledModel::runOutput(pvi_output_fn fn, size_t n, const double* z, const double* w,
                                             const double* theta, const void* const* part) const {
  std::vector<double> out(n);
  int64_t status = 0;
  withWorkspace(status, [&](void* ws, int64_t bytes) {
    return fn(z, w, theta, shared_.pointers(), part, out.data(), ws, bytes, &status);
  });
  if (status == 0) return out;
  if (status == PVI_STATUS_VALUE_OUT_OF_BOUNDS)
    throw std::invalid_argument("a constrained value is outside its variable's bounds");
  throw ModelEvaluationError(indexErrorText(status));
}

std::vector<double> CompiledModel::constrainGlobals(const double* z, const double* theta) const {
  return output(code_.constrain_globals, code_.constrain_globals_size, z, nullptr, theta, nullptr);
}

std::vector<double> CompiledModel::unconstrainGlobals(const double* constrained) const {
  return runOutput(code_.unconstrain_globals, dimZ_ + dimTheta_, constrained, nullptr, nullptr, nullptr);
}

std::vector<double> CompiledModel::constrainLocals(size_t partition, const double* z, const double* w,
                                                  const double* theta) const {
  return output(code_.constrain_locals, code_.constrain_locals_size, z, w, theta, partitions_.at(partition).pointers());
}

std::vector<double> CompiledModel::unconstrainLocals(size_t partition, const double* z, const double* constrained,
                                                    const double* theta) const {
  return runOutput(code_.unconstrain_locals, dimW_.at(partition), z, constrained, theta,
                   partitions_.at(partition).pointers());
}

std::vector<double> CompiledModel::generateShared(const double* z, const double* theta, pvi_rng& rng) const {
  return generate(code_.generate_shared, code_.generate_shared_size, z, nullptr, theta, kShared, rng);
}

std::vector<double> CompiledModel::generatePartition(size_t partition, const double* z, const double* w,
                                                     const double* theta, pvi_rng& rng) const {
  return generate(code_.generate_partition, code_.generate_partition_size, z, w, theta, partition, rng);
}

std::vector<double> CompiledModel::generate(pvi_generate_fn fn, pvi_dims_fn size, const double* z, const double* w,
                                            const double* theta, size_t partition, pvi_rng& rng) const {
  if (fn == nullptr || size == nullptr) throw std::logic_error("the model's code has no such generate function");
  const bool shared = partition == kShared;
  const void* const* part = shared ? nullptr : partitions_.at(partition).pointers();
  const PrintContext context(shared ? nullptr : &printContexts_[partition]);
  int64_t dims[3] = {0, 0, 0};
  size(shared_.pointers(), part, dims);
  // At least three entries: a failing function reports where in out[0..2].
  std::vector<double> out(static_cast<size_t>(std::max<int64_t>(dims[0], 3)));
  int64_t status = 0;
  withWorkspace(status, [&](void* ws, int64_t bytes) {
    return fn(z, w, theta, shared_.pointers(), part, out.data(), ws, bytes, &status, &rng);
  });
  if (status == 0) {
    out.resize(static_cast<size_t>(std::max<int64_t>(dims[0], 0)));
    return out;
  }
  const std::string where = shared ? std::string() : " (partition " + partitionLabel(partition) + ")";
  auto at = [&](size_t k) { return static_cast<int64_t>(out[k]); };
  if (status == PVI_STATUS_GENERATED_OUT_OF_BOUNDS) {
    throw ModelEvaluationError(generatedOutOfBounds(shared ? info_.generatedShared : info_.generatedPartition,
                                                    shared ? generatedShared_ : generatedPartition_.at(partition),
                                                    at(0), at(1), at(2)) + where);
  }
  if (status == PVI_STATUS_REJECT || status == PVI_STATUS_FATAL_ERROR)
    throw ModelEvaluationError(std::string("the generated quantities called ") +
                               (status == PVI_STATUS_REJECT ? "reject" : "fatal_error") + where + ": " +
                               pvi_last_message());
  if (status == PVI_STATUS_RNG_DOMAIN) {
    const int64_t call = at(0);
    const std::string what = call >= 0 && static_cast<size_t>(call) < info_.rngCalls.size()
                                 ? info_.rngCalls[static_cast<size_t>(call)]
                                 : "an _rng function";
    throw ModelEvaluationError(what + ": arguments outside the distribution's domain (element " +
                               std::to_string(at(1) + 1) + " of its arguments) in the generated quantities" + where);
  }
  throw ModelEvaluationError(indexErrorText(status, " in the generated quantities" + where));
}

void CompiledModel::transformData() {
  const DataSchema& schema = info_.data;
  auto append = [](DataBlock& block, const std::vector<DataField>& fields, const std::vector<double>& values,
                   const std::vector<size_t>& lengths) {
    size_t at = 0;
    for (size_t k = 0; k < fields.size(); ++k) {
      const auto first = values.begin() + static_cast<std::ptrdiff_t>(at);
      const auto last = first + static_cast<std::ptrdiff_t>(lengths[k]);
      if (fields[k].isInt) {
        std::vector<int64_t> ints;
        ints.reserve(lengths[k]);
        for (auto it = first; it != last; ++it) ints.push_back(static_cast<int64_t>(*it));
        block.addInts(std::move(ints));
      } else {
        block.addReals(std::vector<double>(first, last));
      }
      at += lengths[k];
    }
  };
  // Every variable then has the size its declaration gives (from the final values of the
  // transformed ints), and the size checks that read transformed data are made.
  auto withTransformed = [](std::vector<DataField> fields, const std::vector<DataField>& transformed) {
    fields.insert(fields.end(), transformed.begin(), transformed.end());
    return fields;
  };
  // The block runs even without variables: its reject and print statements do.
  std::vector<size_t> lengths;
  if (code_.transform_shared == nullptr) return;  // (code without transformed data functions)
  const std::vector<double> values = transformed(code_.transform_shared_counts, code_.transform_shared,
                                                 schema.transformedShared, kSharedBlock, lengths);
  append(shared_, schema.transformedShared, values, lengths);
  validateBlock(withTransformed(schema.shared, schema.transformedShared), shared_, nullptr,
                code_.shared_counts_transformed, code_.shared_check_transformed, "transformed data", kSharedBlock);
  for (size_t j = 0; j < partitions_.size(); ++j) {
    const std::vector<double> values = transformed(code_.transform_partition_counts, code_.transform_partition,
                                                   schema.transformedPartition, j, lengths);
    append(partitions_[j], schema.transformedPartition, values, lengths);
    validateBlock(withTransformed(schema.partition, schema.transformedPartition), partitions_[j],
                  partitions_[j].pointers(), code_.partition_counts_transformed, code_.partition_check_transformed,
                  "transformed data per " + schema.partitionName + " " + partitionLabel(j), j);
  }
}

// One run of the transformed data block: each variable's length (in `lengths`) and all their
// values, in order. Its _rng draws are the same in both runs: each starts from the same state
// (the run's seed, as in Stan; a stream per block, counted down from the top so that they are
// not the streams of the draws or the generated quantities).
std::vector<double> CompiledModel::transformed(pvi_generate_fn counts, pvi_generate_fn values,
                                               const std::vector<DataField>& fields, size_t partition,
                                               std::vector<size_t>& lengths) const {
  if (counts == nullptr || values == nullptr)
    throw std::logic_error("the model's code has no transformed data functions");
  const bool shared = partition == kSharedBlock;
  const void* const* part = shared ? nullptr : partitions_.at(partition).pointers();
  const PrintContext context(shared ? nullptr : &printContexts_[partition]);
  const std::string where =
      shared ? std::string() : " (" + info_.data.partitionName + " " + partitionLabel(partition) + ")";
  const MemoryLimit limit = memoryLimit();
  auto run = [&](pvi_generate_fn fn, size_t n) {
    std::vector<double> out(std::max<size_t>(n, 3));  // a failing function reports where in out[0..2]
    pvi_rng rng;
    pvi_rng_seed(&rng, seed_, ~uint64_t{0} - 1 - (shared ? 0 : 1 + partition));
    int64_t status = 0;
    withWorkspace(status, [&](void* ws, int64_t bytes) {
      return fn(nullptr, nullptr, nullptr, shared_.pointers(), part, out.data(), ws, bytes, &status, &rng);
    });
    if (status == 0) {
      out.resize(n);
      return out;
    }
    auto at = [&](size_t k) { return static_cast<int64_t>(out[k]); };
    if (status == PVI_STATUS_GENERATED_OUT_OF_BOUNDS) {
      const int64_t v = at(0);
      const std::string name =
          v >= 0 && static_cast<size_t>(v) < fields.size() ? fields[static_cast<size_t>(v)].name : std::string("?");
      const Transform& t =
          v >= 0 && static_cast<size_t>(v) < fields.size() ? fields[static_cast<size_t>(v)].transform : Transform{};
      const std::string element = "element " + std::to_string(at(1) + 1);
      if (at(2) == 3) throw DataError("the transformed data '" + name + "' is NaN (" + element + ")" + where);
      const std::string bounds = declaredBounds(t);
      const char* what = at(2) == 1 ? "is below its lower bound" : "is above its upper bound";
      throw DataError("the transformed data '" + name + "' " + what + " (" + element + ", declared with <" + bounds +
                      ">)" + where);
    }
    if (status == PVI_STATUS_REJECT || status == PVI_STATUS_FATAL_ERROR) {
      // The checks of the data's constrained types run here too (compiler/desugar/DeclaredChecks.hpp).
      const std::string message = pvi_last_message();
      if (message.rfind("the data '", 0) == 0) throw DataError(message + where);
      throw DataError(std::string("the transformed data block called ") +
                      (status == PVI_STATUS_REJECT ? "reject" : "fatal_error") + where + ": " + message);
    }
    if (status == PVI_STATUS_RNG_DOMAIN) {
      const int64_t call = at(0);
      const std::string what = call >= 0 && static_cast<size_t>(call) < info_.rngCalls.size()
                                   ? info_.rngCalls[static_cast<size_t>(call)]
                                   : "an _rng function";
      throw DataError(what + ": arguments outside the distribution's domain (element " + std::to_string(at(1) + 1) +
                      " of its arguments) in the transformed data" + where);
    }
    throw DataError(indexErrorText(status, " in the transformed data" + where));
  };
  const std::vector<double> n = run(counts, fields.size());
  lengths.assign(fields.size(), 0);
  size_t total = 0;
  long double bytes = 0;
  for (size_t k = 0; k < fields.size(); ++k) {
    if (!(n[k] >= 0)) throw DataError("the transformed data '" + fields[k].name + "' has a negative size" + where);
    bytes += static_cast<long double>(n[k]) * sizeof(double);  // before any conversion: n[k] may be huge
    if (bytes > static_cast<long double>(limit.bytes))
      throw DataError("the transformed data up to '" + fields[k].name + "' (" + fields[k].type + ", " +
                      std::to_string(n[k]) + " elements) need more than " + limit.text() + where);
    lengths[k] = static_cast<size_t>(n[k]);
    total += lengths[k];
  }
  return run(values, total);
}

}  // namespace pvi
