#include "stdlib/kernels/rng/rng.h"
#include "model_harness.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
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

Compiled compileModel(const std::string& source, bool fuse) {
  Compiled c{runFrontend("test.pvi", source), std::nullopt, nullptr, ""};
  if (!c.front.ok()) {
    c.errors = c.front.diags->brief();
    return c;
  }
  c.lowered = lowerModel(*c.front.checked, *c.front.diags, fuse);
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
    if (s->kind != kind || s->transformed) continue;  // transformed data are computed, not given
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

std::vector<double> randomVector(size_t n, std::mt19937_64& rng, double sd) {
  std::normal_distribution<double> d(0.0, sd);
  std::vector<double> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

double normalLpdf(double y, double mu, double sigma) {
  double z = (y - mu) / sigma;
  return -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2 * M_PI);
}

// Finite differences have a truncation error O(h^2) and a rounding error ~ eps |f| / h; the
// bound below covers both for h = 1e-6 * max(1, |x|).
void expectGradientNear(const std::vector<double>& g, const std::vector<double>& fd, double f, const std::string& what) {
  ASSERT_EQ(g.size(), fd.size());
  for (size_t i = 0; i < g.size(); ++i) {
    double tol = 1e-6 * std::max(1.0, std::fabs(fd[i])) + 1e-9 * std::fabs(f);
    EXPECT_NEAR(g[i], fd[i], tol) << what << " coordinate " << i;
  }
}

void expectSamePriorFactor(const CompiledModel& a, const CompiledModel& b, std::mt19937_64& rng, int trials, double sd) {
  ASSERT_EQ(a.globalDim(), b.globalDim());
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> z = randomVector(a.globalDim(), rng, sd), ga(z.size()), gb(z.size());
    const double va = a.priorLogDensity(z.data(), nullptr, ga.data(), nullptr);
    const double vb = b.priorLogDensity(z.data(), nullptr, gb.data(), nullptr);
    ASSERT_TRUE(std::isfinite(vb));
    EXPECT_NEAR(va, vb, 1e-12 * (1 + std::fabs(vb)));
    for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(ga[i], gb[i], 1e-12 * (1 + std::fabs(gb[i]))) << i;
  }
}

void checkGradients(const CompiledModel& m, std::mt19937_64& rng) {
  std::vector<double> z = randomVector(m.globalDim(), rng);
  std::vector<double> theta = randomVector(m.hyperDim(), rng);
  std::vector<double> gz(z.size()), gt(theta.size());
  double f = m.priorLogDensity(z.data(), theta.data(), gz.data(), gt.data());
  ASSERT_TRUE(std::isfinite(f));
  // value = grad's value, up to the order of the additions: the value function adds the target
  // terms in statement order, the gradient function adds a fused density's value when its backward
  // call runs (in reverse order). So they agree to a few ulps of the terms, which are O(1) at these
  // points, not of f: where the terms cancel (f = 0.21 from terms of +-3.5), 4 ulps of f is less
  // than one rounding of a term.
  EXPECT_NEAR(f, m.priorLogDensity(z.data(), theta.data(), nullptr, nullptr),
              8 * std::numeric_limits<double>::epsilon() * (1 + std::fabs(f)));
  std::vector<double> all = z;
  all.insert(all.end(), theta.begin(), theta.end());
  auto prior = [&](const std::vector<double>& x) {
    return m.priorLogDensity(x.data(), x.data() + z.size(), nullptr, nullptr);
  };
  std::vector<double> g = gz;
  g.insert(g.end(), gt.begin(), gt.end());
  expectGradientNear(g, finiteDifference(prior, all), f, "prior");

  for (size_t j = 0; j < m.numPartitions(); ++j) {
    std::vector<double> w = randomVector(m.localDim(j), rng);
    std::vector<double> gw(w.size());
    double fp = m.partitionLogDensity(j, z.data(), w.data(), theta.data(), gz.data(), gw.data(), gt.data());
    ASSERT_TRUE(std::isfinite(fp));
    EXPECT_DOUBLE_EQ(fp, m.partitionLogDensity(j, z.data(), w.data(), theta.data(), nullptr, nullptr, nullptr));
    std::vector<double> x = z;
    x.insert(x.end(), w.begin(), w.end());
    x.insert(x.end(), theta.begin(), theta.end());
    auto part = [&](const std::vector<double>& v) {
      return m.partitionLogDensity(j, v.data(), v.data() + z.size(), v.data() + z.size() + w.size(), nullptr, nullptr,
                                   nullptr);
    };
    std::vector<double> gp = gz;
    gp.insert(gp.end(), gw.begin(), gw.end());
    gp.insert(gp.end(), gt.begin(), gt.end());
    expectGradientNear(gp, finiteDifference(part, x), fp, "partition " + std::to_string(j));
  }
}

namespace {

struct SharedLibrary {
  void* handle = nullptr;
  ~SharedLibrary() {
    if (handle) dlclose(handle);
  }
  template <class F>
  F get(const char* name) {
    return reinterpret_cast<F>(dlsym(handle, name));
  }
};

uint64_t bits(double v) {
  uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

}  // namespace

void expectAotBitIdentical(const Compiled& c, const DataBlock& shared, const std::vector<DataBlock>& partitions,
                           std::mt19937_64& rng, const std::string& tag) {
  auto dir = std::filesystem::temp_directory_path() / ("pvi-aot-" + tag + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string object = (dir / "model.o").string(), library = (dir / "model.so").string();
  emitObjectFile(*c.lowered, object);
  std::string link = std::string(PVI_CXX) + " -shared -o " + library + " " + object + " " + PVI_KERNELS_LIB + " " +
                     PVI_KERNELS_EXTRA_LINK;
  ASSERT_EQ(std::system(link.c_str()), 0) << link;

  SharedLibrary lib{dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL)};
  ASSERT_NE(lib.handle, nullptr) << dlerror();
  pvi_model_code aot{};
#define PVI_DLSYM_FUNCTION(member, type, partition) aot.member = lib.get<type>(PVI_ABI_SYMBOL(member));
  PVI_MODEL_CODE_FUNCTIONS(PVI_DLSYM_FUNCTION)
#undef PVI_DLSYM_FUNCTION
  // Every function of the ABI's list, the partition ones exactly when the model has a partition.
  bool partitioned = !c.lowered->partitionName.empty();
#define PVI_EXPECT_FUNCTION(member, type, partition) \
  EXPECT_EQ(aot.member != nullptr, !(partition) || partitioned) << tag << ": " << PVI_ABI_SYMBOL(member);
  PVI_MODEL_CODE_FUNCTIONS(PVI_EXPECT_FUNCTION)
#undef PVI_EXPECT_FUNCTION
  ASSERT_TRUE(aot.prior_value && aot.prior_grad && aot.shared_check);
  // The model's description travels with the object.
  const char* info = reinterpret_cast<const char*>(dlsym(lib.handle, PVI_MODEL_INFO_SYMBOL));
  EXPECT_NE(info, nullptr) << tag;
  if (info != nullptr) {
    EXPECT_EQ(toJson(modelInfoFromJson(info)), toJson(c.lowered->info)) << tag;
  }
  // The shared library must not depend on LLVM.
  std::string ldd = "ldd " + library + " | grep -qi llvm";
  EXPECT_NE(std::system(ldd.c_str()), 0) << library << " links LLVM";

  CompiledModel jitModel(c.jit->code(), c.lowered->schema, shared, partitions);
  CompiledModel aotModel(aot, c.lowered->schema, shared, partitions);
  std::vector<double> z = randomVector(jitModel.globalDim(), rng, 0.5);
  std::vector<double> theta = randomVector(jitModel.hyperDim(), rng, 0.5);
  std::vector<double> gz1(z.size()), gz2(z.size()), gt1(theta.size()), gt2(theta.size());
  EXPECT_EQ(bits(jitModel.priorLogDensity(z.data(), theta.data(), gz1.data(), gt1.data())),
            bits(aotModel.priorLogDensity(z.data(), theta.data(), gz2.data(), gt2.data())));
  EXPECT_EQ(0, std::memcmp(gz1.data(), gz2.data(), gz1.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(gt1.data(), gt2.data(), gt1.size() * sizeof(double)));
  for (size_t j = 0; j < jitModel.numPartitions(); ++j) {
    std::vector<double> w = randomVector(jitModel.localDim(j), rng, 0.5);
    std::vector<double> gw1(w.size()), gw2(w.size());
    EXPECT_EQ(bits(jitModel.partitionLogDensity(j, z.data(), w.data(), theta.data(), gz1.data(), gw1.data(), gt1.data())),
              bits(aotModel.partitionLogDensity(j, z.data(), w.data(), theta.data(), gz2.data(), gw2.data(), gt2.data())));
    EXPECT_EQ(0, std::memcmp(gz1.data(), gz2.data(), gz1.size() * sizeof(double)));
    EXPECT_EQ(0, std::memcmp(gw1.data(), gw2.data(), gw1.size() * sizeof(double)));
  }
  // Generated quantities too.
  for (bool ofShared : {true, false}) {
    if (!ofShared && !partitioned) continue;
    std::string symbol = ofShared ? PVI_ABI_SYMBOL(generate_shared) : PVI_ABI_SYMBOL(generate_partition);
    pvi_generate_fn aotFn = ofShared ? aot.generate_shared : aot.generate_partition;
    pvi_dims_fn size = ofShared ? aot.generate_shared_size : aot.generate_partition_size;
    pvi_generate_fn jitFn = ofShared ? c.jit->code().generate_shared : c.jit->code().generate_partition;
    ASSERT_TRUE(aotFn && size && jitFn) << symbol;
    // The data with their transformed data, as the models computed them.
    const void* const* part = ofShared ? nullptr : jitModel.partitionData(0).pointers();
    const void* const* sharedPtrs = jitModel.sharedData().pointers();
    std::vector<double> w = randomVector(ofShared ? 0 : jitModel.localDim(0), rng, 0.5);
    int64_t dims[3] = {0, 0, 0};
    size(sharedPtrs, part, dims);
    std::vector<double> out1(static_cast<size_t>(std::max<int64_t>(dims[0], 3))), out2(out1.size()), ws(1 << 16);
    int64_t st1 = 0, st2 = 0;
    pvi_rng rng1, rng2;  // one seed: the same draws
    pvi_rng_seed(&rng1, 7, 0);
    pvi_rng_seed(&rng2, 7, 0);
    jitFn(z.data(), w.data(), theta.data(), sharedPtrs, part, out1.data(), ws.data(),
          static_cast<int64_t>(ws.size() * sizeof(double)), &st1, &rng1);
    aotFn(z.data(), w.data(), theta.data(), sharedPtrs, part, out2.data(), ws.data(),
          static_cast<int64_t>(ws.size() * sizeof(double)), &st2, &rng2);
    EXPECT_EQ(st1, st2);
    EXPECT_EQ(0, std::memcmp(out1.data(), out2.data(), out1.size() * sizeof(double))) << symbol;
  }
  std::filesystem::remove_all(dir);
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
