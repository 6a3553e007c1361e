#include "model_harness.hpp"

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace pvi::test {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string readExample(const std::string& name) {
  return readFile(std::filesystem::path(PVI_SOURCE_DIR) / "examples" / name / "model.pvi");
}

Compiled compileModel(const std::string& source) {
  Compiled c{runFrontend("test.pvi", source), std::nullopt, nullptr, ""};
  if (!c.front.ok()) {
    c.errors = c.front.diags->brief();
    return c;
  }
  c.lowered = lowerModel(*c.front.checked, *c.front.diags);
  if (!c.lowered) {
    c.errors = c.front.diags->brief();
    return c;
  }
  c.jit = JitModel::compile(*c.lowered);
  return c;
}

namespace {

// Evaluates an int size or bound expression over the ints generated so far.
int64_t evalInt(const Expr& e, const std::map<std::string, int64_t>& ints) {
  switch (e.kind) {
    case ExprKind::IntLit: {
      int64_t v = 0;
      std::from_chars(e.text.data(), e.text.data() + e.text.size(), v);
      return v;
    }
    case ExprKind::Name: return ints.at(e.text);
    case ExprKind::Unary: return -evalInt(*e.args[0], ints);
    case ExprKind::Binary: {
      int64_t a = evalInt(*e.args[0], ints), b = evalInt(*e.args[1], ints);
      if (e.text == "+") return a + b;
      if (e.text == "-") return a - b;
      if (e.text == "*") return a * b;
      if (e.text == "/") return a / b;
    }
    default: throw std::runtime_error("cannot evaluate " + e.text);
  }
}

double evalReal(const Expr& e, const std::map<std::string, int64_t>& ints, const std::map<std::string, double>& reals) {
  if (e.kind == ExprKind::RealLit) return std::stod(e.text);
  if (e.kind == ExprKind::Name && reals.count(e.text)) return reals.at(e.text);
  if (e.kind == ExprKind::Unary) return -evalReal(*e.args[0], ints, reals);
  return static_cast<double>(evalInt(e, ints));
}

void generateBlock(const CheckedProgram& program, SymbolKind kind, DataBlock& block, std::map<std::string, int64_t>& ints,
                   std::map<std::string, double>& reals, std::mt19937_64& rng) {
  for (const auto& s : program.symbols) {
    if (s->kind != kind) continue;
    const TypeSyntax& ts = *s->decl->declType;
    int64_t count = 1;
    for (const ExprPtr& d : ts.arrayDims) count *= evalInt(*d, ints);
    for (const ExprPtr& d : ts.elemDims) count *= evalInt(*d, ints);
    if (ts.elem == ElemKind::Int) {
      int64_t lo = ts.lower ? evalInt(*ts.lower, ints) : 0;
      int64_t hi = ts.upper ? evalInt(*ts.upper, ints) : lo + 3;
      if (!ts.upper && count == 1 && ts.arrayDims.empty()) {  // a size: small but > 1
        lo = std::max<int64_t>(lo, 2);
        hi = lo + 3;
      }
      std::uniform_int_distribution<int64_t> u(lo, hi);
      std::vector<int64_t> v(static_cast<size_t>(count));
      for (auto& x : v) x = u(rng);
      if (count == 1 && ts.arrayDims.empty()) ints[s->name] = v[0];
      block.addInts(std::move(v));
    } else {
      double lo = ts.lower ? evalReal(*ts.lower, ints, reals) : -2.0;
      double hi = ts.upper ? evalReal(*ts.upper, ints, reals) : lo + 4.0;
      if (ts.lower && !ts.upper) lo += 0.5, hi = lo + 2.0;  // scales away from their bound
      std::uniform_real_distribution<double> u(lo, hi);
      std::vector<double> v(static_cast<size_t>(count));
      for (auto& x : v) x = u(rng);
      if (count == 1 && ts.arrayDims.empty() && ts.elemDims.empty()) reals[s->name] = v[0];
      block.addReals(std::move(v));
    }
  }
}

}  // namespace

GeneratedData randomData(const CheckedProgram& program, size_t partitions, std::mt19937_64& rng) {
  GeneratedData out;
  std::map<std::string, int64_t> ints;
  std::map<std::string, double> reals;
  generateBlock(program, SymbolKind::SharedData, out.shared, ints, reals, rng);
  for (size_t j = 0; j < partitions; ++j) {
    auto partInts = ints;
    auto partReals = reals;
    out.partitions.emplace_back();
    generateBlock(program, SymbolKind::PartitionData, out.partitions.back(), partInts, partReals, rng);
  }
  return out;
}

std::vector<double> finiteDifference(const std::function<double(const std::vector<double>&)>& f,
                                     std::vector<double> x, double h) {
  std::vector<double> g(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double xi = x[i];
    double step = h * std::max(1.0, std::fabs(xi));
    x[i] = xi + step;
    double up = f(x);
    x[i] = xi - step;
    double down = f(x);
    x[i] = xi;
    g[i] = (up - down) / (2 * step);
  }
  return g;
}

}  // namespace pvi::test
