// Hierarchical logistic regression on the contraception data (1,934 women, 60 districts), with
// every partition evaluated: generated code against a hand-written C++ baseline, in the same run.
//
//   HierarchicalJit    the prior factor plus all 60 district factors through CompiledModel:
//                      value and the full gradient (z, and every district's w) per iteration
//   HierarchicalHand   the same value and gradient written by hand: one fused scalar pass per
//                      district, at the project's flags (an extra row)
//   HierarchicalNative the strong baseline, the ratio to report: Eigen arrays over each district
//                      with vectorised exp and log at -O3 for the host (native_baselines.hpp)
//   CompileLatency/clutter
//                      source text to function pointers for examples/clutter (next to
//                      codegen_bench.cpp's CompileLatency/<example>); reported as an error and
//                      skipped when lowering rejects the model (its for loop: "not supported")
//
// Built into pvi_codegen_bench (whose main() is in codegen_bench.cpp), so one run gives these
// numbers together with LogisticJit / LogisticNative. The ratio to report is CPU time
// HierarchicalJit / HierarchicalNative.
//
// The model is examples/hierarchical_logistic/model.pvi, read from disk unchanged; the data are
// that example's data.json (shared) and data_per_district.csv (one row per woman; the column
// `district` is the partition, districts bound in order of first appearance). Before anything
// is timed, the hand-written value and gradient are checked against the generated ones at a
// random point (1e-10 relative); the program aborts if they differ.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/codegen/Jit.hpp"
#include "compiler/driver/LowerSource.hpp"
#include "native_baselines.hpp"
#include "runtime/model/CompiledModel.hpp"

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "hierarchical_bench: %s\n", message.c_str());
  std::abort();
}

std::filesystem::path exampleDir(const std::string& example) {
  return std::filesystem::path(PVI_SOURCE_DIR) / "examples" / example;
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path.string());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The number after `"key":` in a flat JSON object (enough for data.json's two scalars).
double jsonNumber(const std::string& json, const std::string& key) {
  size_t at = json.find('"' + key + '"');
  if (at == std::string::npos) fail("data.json has no \"" + key + "\"");
  at = json.find(':', at + key.size() + 2);
  if (at == std::string::npos) fail("data.json: no value for \"" + key + "\"");
  const char* begin = json.c_str() + at + 1;
  char* end = nullptr;
  double v = std::strtod(begin, &end);
  if (end == begin) fail("data.json: \"" + key + "\" is not a number");
  return v;
}

// A numeric CSV with a header line: column name -> values, plus the partition column's values.
struct Csv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;
  const std::vector<double>& column(const std::string& name) const {
    for (size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) return columns[k];
    fail("data_per_district.csv has no column '" + name + "'");
  }
};

Csv readCsv(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path.string());
  Csv csv;
  std::string line;
  auto split = [](const std::string& l) {
    std::vector<std::string> cells;
    std::string cell;
    std::stringstream s(l);
    while (std::getline(s, cell, ',')) {
      if (!cell.empty() && cell.back() == '\r') cell.pop_back();
      cells.push_back(cell);
    }
    return cells;
  };
  if (!std::getline(in, line)) fail(path.string() + " is empty");
  csv.names = split(line);
  csv.columns.resize(csv.names.size());
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") continue;
    std::vector<std::string> cells = split(line);
    if (cells.size() != csv.names.size()) fail(path.string() + ": a row has the wrong number of cells: " + line);
    for (size_t k = 0; k < cells.size(); ++k) {
      char* end = nullptr;
      double v = std::strtod(cells[k].c_str(), &end);
      if (end == cells[k].c_str()) fail(path.string() + ": not a number: '" + cells[k] + "'");
      csv.columns[k].push_back(v);
    }
  }
  return csv;
}

// The example's data, districts in order of first appearance; each district's rows in file order.
struct Data {
  double priorSd = 0, tauPriorSd = 0;
  std::vector<std::string> labels;                  // district numbers, as text
  std::vector<std::vector<size_t>> rows;            // rows of each district
  Csv csv;
};

const Data& data() {
  static const Data d = [] {
    Data out;
    std::string json = readText(exampleDir("hierarchical_logistic") / "data.json");
    out.priorSd = jsonNumber(json, "prior_sd");
    out.tauPriorSd = jsonNumber(json, "tau_prior_sd");
    out.csv = readCsv(exampleDir("hierarchical_logistic") / "data_per_district.csv");
    const std::vector<double>& district = out.csv.column("district");
    std::map<double, size_t> index;
    for (size_t r = 0; r < district.size(); ++r) {
      auto [it, added] = index.emplace(district[r], out.rows.size());
      if (added) {
        out.rows.emplace_back();
        out.labels.push_back(std::to_string(static_cast<long long>(district[r])));
      }
      out.rows[it->second].push_back(r);
    }
    if (district.size() != 1934 || out.rows.size() != 60)
      fail("expected 1934 women in 60 districts, read " + std::to_string(district.size()) + " in " +
           std::to_string(out.rows.size()));
    return out;
  }();
  return d;
}

// ---------------------------------------------------------------------------------------------
// Generated code.

struct Jit {
  std::unique_ptr<pvi::JitModel> jit;
  std::unique_ptr<pvi::CompiledModel> model;
};

// The lowered model with the checked program it points into; `errors` when it does not lower.
struct Lowered {
  std::unique_ptr<pvi::LoweredSource> source;
  std::string errors;
};

Lowered lowerExample(const std::string& text) {
  Lowered out{pvi::lowerSource("model.pvi", text), ""};
  if (!out.source->model) out.errors = out.source->front.diags->brief();
  return out;
}

const Jit& jit() {
  static const Jit j = [] {
    const Data& d = data();
    Lowered l = lowerExample(readText(exampleDir("hierarchical_logistic") / "model.pvi"));
    if (!l.source->model) fail("examples/hierarchical_logistic/model.pvi does not compile:\n" + l.errors);
    const pvi::LoweredModel* lowered = &*l.source->model;
    // The hand-written code assumes this layout of z: alpha, b_urban, b_age, b_livch[3], log tau.
    std::string layout;
    for (const pvi::Symbol* s : lowered->globals) layout += (layout.empty() ? "" : ",") + s->name;
    if (layout != "alpha,b_urban,b_age,b_livch,tau") fail("unexpected layout of z: " + layout);

    // Data bound by the names of the schema, in declaration order.
    pvi::DataBlock shared;
    for (const pvi::DataField& f : lowered->schema.shared) {
      if (f.name == "prior_sd") shared.addReal(d.priorSd);
      else if (f.name == "tau_prior_sd") shared.addReal(d.tauPriorSd);
      else fail("unexpected shared data '" + f.name + "'");
    }
    std::vector<pvi::DataBlock> parts(d.rows.size());
    for (size_t j = 0; j < d.rows.size(); ++j) {
      const std::vector<size_t>& rows = d.rows[j];
      for (const pvi::DataField& f : lowered->schema.partition) {
        if (f.name == "N") {
          parts[j].addInt(static_cast<int64_t>(rows.size()));
          continue;
        }
        const std::vector<double>& col = d.csv.column(f.name);
        if (f.isInt) {
          std::vector<int64_t> v;
          for (size_t r : rows) v.push_back(static_cast<int64_t>(col[r]));
          parts[j].addInts(std::move(v));
        } else {
          std::vector<double> v;
          for (size_t r : rows) v.push_back(col[r]);
          parts[j].addReals(std::move(v));
        }
      }
    }
    Jit out;
    out.jit = pvi::JitModel::compile(*lowered);
    // Moved, not copied: a copied DataBlock keeps pointing at the original's storage.
    out.model = std::make_unique<pvi::CompiledModel>(out.jit->code(), lowered->schema, std::move(shared),
                                                     std::move(parts), d.labels);
    if (out.model->globalDim() != 7 || out.model->numPartitions() != 60) fail("unexpected dimensions");
    for (size_t j = 0; j < 60; ++j)
      if (out.model->localDim(j) != 1) fail("unexpected local dimension");
    return out;
  }();
  return j;
}

// The log joint density and its gradient through the generated code: the prior factor plus every
// district's factor. gz (7) and gw (60) are overwritten; gzPart is scratch (7).
double jitValueGrad(const pvi::CompiledModel& m, const double* z, const double* w, double* gz, double* gw,
                    double* gzPart) {
  double v = m.priorLogDensity(z, nullptr, gz, nullptr);
  const size_t dz = m.globalDim();
  for (size_t j = 0, nj = m.numPartitions(); j < nj; ++j) {
    v += m.partitionLogDensity(j, z, w + j, nullptr, gzPart, gw + j, nullptr);
    for (size_t k = 0; k < dz; ++k) gz[k] += gzPart[k];
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Hand-written: the same density, parameterisation and constants.
//   z = (alpha, b_urban, b_age, b_livch[1..3], u), tau = exp(u); w_j = a_j.
//   prior:    sum_k normal(z_k | 0, prior_sd), k < 6;  normal(tau | 0, tau_prior_sd);  + u (log-Jacobian)
//   district: normal(a_j | 0, tau) + sum_n bernoulli_logit(use_n | eta_n)

struct Hand {
  double priorSd, tauPriorSd;
  // All women, districts contiguous; district j holds rows [start[j], start[j + 1]).
  std::vector<size_t> start;
  std::vector<double> use, urban, age, livch1, livch2, livch3;
};

const Hand& hand() {
  static const Hand h = [] {
    const Data& d = data();
    Hand out{d.priorSd, d.tauPriorSd, {0}, {}, {}, {}, {}, {}, {}};
    const Csv& c = d.csv;
    for (const std::vector<size_t>& rows : d.rows) {
      for (size_t r : rows) {
        out.use.push_back(c.column("use")[r]);
        out.urban.push_back(c.column("urban")[r]);
        out.age.push_back(c.column("age")[r]);
        out.livch1.push_back(c.column("livch1")[r]);
        out.livch2.push_back(c.column("livch2")[r]);
        out.livch3.push_back(c.column("livch3")[r]);
      }
      out.start.push_back(out.use.size());
    }
    return out;
  }();
  return h;
}

constexpr double kHalfLog2Pi = 0.91893853320467274178;  // log(2 pi) / 2

double handValueGrad(const Hand& h, const double* z, const double* w, double* gz, double* gw) {
  const double alpha = z[0], bUrban = z[1], bAge = z[2], b1 = z[3], b2 = z[4], b3 = z[5], u = z[6];
  const double tau = std::exp(u), invTau2 = 1.0 / (tau * tau);

  // Prior factor.
  const double invPrior2 = 1.0 / (h.priorSd * h.priorSd);
  const double logPriorSd = std::log(h.priorSd);
  double lp = 0.0;
  for (int k = 0; k < 6; ++k) {
    lp += -0.5 * z[k] * z[k] * invPrior2 - logPriorSd - kHalfLog2Pi;
    gz[k] = -z[k] * invPrior2;
  }
  const double invTauPrior2 = 1.0 / (h.tauPriorSd * h.tauPriorSd);
  lp += -0.5 * tau * tau * invTauPrior2 - std::log(h.tauPriorSd) - kHalfLog2Pi + u;
  gz[6] = -tau * tau * invTauPrior2 + 1.0;  // d/du of normal(exp(u) | 0, s) + u

  // District factors: one fused pass over each district's women.
  const double* use = h.use.data();
  const double* urban = h.urban.data();
  const double* age = h.age.data();
  const double* l1 = h.livch1.data();
  const double* l2 = h.livch2.data();
  const double* l3 = h.livch3.data();
  double gAlpha = 0, gUrban = 0, gAge = 0, g1 = 0, g2 = 0, g3 = 0, gU = 0;
  for (size_t j = 0, nj = h.start.size() - 1; j < nj; ++j) {
    const double a = w[j];
    const double base = alpha + a;
    double lik = 0, sD = 0, sUrban = 0, sAge = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t n = h.start[j], end = h.start[j + 1]; n < end; ++n) {
      const double eta = base + bUrban * urban[n] + bAge * age[n] + b1 * l1[n] + b2 * l2[n] + b3 * l3[n];
      const double e = std::exp(-std::fabs(eta));
      const double sEta = use[n] != 0.0 ? eta : -eta;
      lik -= (sEta < 0.0 ? -sEta : 0.0) + std::log1p(e);  // = max(-sEta, 0): no call to fmax
      // d/d eta = use - inv_logit(eta), stable on both sides.
      const double pOther = sEta >= 0.0 ? e / (1.0 + e) : 1.0 / (1.0 + e);
      const double dEta = use[n] != 0.0 ? pOther : -pOther;
      sD += dEta;
      sUrban += dEta * urban[n];
      sAge += dEta * age[n];
      s1 += dEta * l1[n];
      s2 += dEta * l2[n];
      s3 += dEta * l3[n];
    }
    // normal(a | 0, tau): -a^2 / (2 tau^2) - log tau - log(2 pi) / 2, log tau = u.
    const double a2 = a * a * invTau2;
    lp += lik - 0.5 * a2 - u - kHalfLog2Pi;
    gw[j] = sD - a * invTau2;
    gU += a2 - 1.0;
    gAlpha += sD;
    gUrban += sUrban;
    gAge += sAge;
    g1 += s1;
    g2 += s2;
    g3 += s3;
  }
  gz[0] += gAlpha;
  gz[1] += gUrban;
  gz[2] += gAge;
  gz[3] += g1;
  gz[4] += g2;
  gz[5] += g3;
  gz[6] += gU;
  return lp;
}

// ---------------------------------------------------------------------------------------------
// The point, and the check that both sides compute the same thing.

struct Point {
  std::vector<double> z = std::vector<double>(7), w = std::vector<double>(60);
};

bool close(double a, double b, double rel) {
  return std::fabs(a - b) <= rel * std::fmax(std::fabs(a), std::fabs(b));
}

const Point& point() {
  static const Point p = [] {
    Point out;
    std::mt19937_64 rng(7);
    std::normal_distribution<double> nd;
    for (double& v : out.z) v = 0.5 * nd(rng);
    for (double& v : out.w) v = 0.5 * nd(rng);

    const pvi::CompiledModel& m = *jit().model;
    std::vector<double> gzJ(7), gwJ(60), scratch(7), gzH(7), gwH(60);
    double vJ = jitValueGrad(m, out.z.data(), out.w.data(), gzJ.data(), gwJ.data(), scratch.data());
    double vH = handValueGrad(hand(), out.z.data(), out.w.data(), gzH.data(), gwH.data());
    constexpr double kRel = 1e-10;
    double worst = std::fabs(vJ - vH) / std::fabs(vJ);
    if (!close(vJ, vH, kRel)) fail("values differ: generated " + std::to_string(vJ) + ", hand-written " + std::to_string(vH));
    for (size_t k = 0; k < 7; ++k) {
      if (!close(gzJ[k], gzH[k], kRel))
        fail("d/dz[" + std::to_string(k) + "] differs: generated " + std::to_string(gzJ[k]) + ", hand-written " +
             std::to_string(gzH[k]));
      worst = std::fmax(worst, std::fabs(gzJ[k] - gzH[k]) / std::fabs(gzJ[k]));
    }
    for (size_t j = 0; j < 60; ++j) {
      if (!close(gwJ[j], gwH[j], kRel))
        fail("d/dw[" + std::to_string(j) + "] differs: generated " + std::to_string(gwJ[j]) + ", hand-written " +
             std::to_string(gwH[j]));
      worst = std::fmax(worst, std::fabs(gwJ[j] - gwH[j]) / std::fabs(gwJ[j]));
    }
    std::fprintf(stderr,
                 "hierarchical_bench: generated and hand-written agree at a random point: log density %.12g, "
                 "largest relative difference %.2e (value and all %d gradient coordinates)\n",
                 vJ, worst, 67);
    return out;
  }();
  return p;
}

// Times one value-and-gradient call per iteration, its results kept.
template <class F>
void timeValueAndGradient(benchmark::State& state, std::vector<double>& gz, std::vector<double>& gw, F valueGrad) {
  for (auto _ : state) {
    double v = valueGrad();
    benchmark::DoNotOptimize(v);
    benchmark::DoNotOptimize(gz.data());
    benchmark::DoNotOptimize(gw.data());
    benchmark::ClobberMemory();
  }
  state.counters["women"] = 1934;
  state.counters["districts"] = 60;
}

void HierarchicalJit(benchmark::State& state) {
  const Point& p = point();
  const pvi::CompiledModel& m = *jit().model;
  std::vector<double> gz(7), gw(60), scratch(7);
  timeValueAndGradient(state, gz, gw,
                       [&] { return jitValueGrad(m, p.z.data(), p.w.data(), gz.data(), gw.data(), scratch.data()); });
}
BENCHMARK(HierarchicalJit)->Unit(benchmark::kMicrosecond);

void HierarchicalHand(benchmark::State& state) {
  const Point& p = point();
  const Hand& h = hand();
  std::vector<double> gz(7), gw(60);
  timeValueAndGradient(state, gz, gw, [&] { return handValueGrad(h, p.z.data(), p.w.data(), gz.data(), gw.data()); });
}
BENCHMARK(HierarchicalHand)->Unit(benchmark::kMicrosecond);

// The strong baseline (native_baselines.hpp): the same density with Eigen arrays over each
// district's rows, vectorised exp and log, -O3 for the host. Checked against the generated value
// and gradient (1e-10 relative) before it is timed.
void HierarchicalNative(benchmark::State& state) {
  const Point& p = point();
  const Hand& h = hand();
  static const std::vector<int64_t> start(h.start.begin(), h.start.end());
  const pvi_bench_hierarchical_data d{static_cast<int64_t>(start.size() - 1),
                                      start.data(),
                                      h.use.data(),
                                      h.urban.data(),
                                      h.age.data(),
                                      h.livch1.data(),
                                      h.livch2.data(),
                                      h.livch3.data(),
                                      h.priorSd,
                                      h.tauPriorSd};
  int64_t largest = 0;
  for (size_t j = 0; j + 1 < start.size(); ++j) largest = std::max(largest, start[j + 1] - start[j]);
  std::vector<double> gz(7), gw(60), work(3 * static_cast<size_t>(largest));
  {
    std::vector<double> gzJ(7), gwJ(60), scratch(7);
    const double vJ = jitValueGrad(*jit().model, p.z.data(), p.w.data(), gzJ.data(), gwJ.data(), scratch.data());
    const double vN = pvi_bench_hierarchical_native(&d, p.z.data(), p.w.data(), gz.data(), gw.data(), work.data());
    bool same = close(vJ, vN, 1e-10);
    for (size_t k = 0; k < 7; ++k) same = same && close(gzJ[k], gz[k], 1e-10);
    for (size_t j = 0; j < 60; ++j) same = same && close(gwJ[j], gw[j], 1e-10);
    if (!same) fail("the native baseline and the generated code differ at the point");
  }
  timeValueAndGradient(state, gz, gw, [&] {
    return pvi_bench_hierarchical_native(&d, p.z.data(), p.w.data(), gz.data(), gw.data(), work.data());
  });
}
BENCHMARK(HierarchicalNative)->Unit(benchmark::kMicrosecond);

// Compile latency of examples/clutter, skipped (reported as an error) while lowering rejects it.
void CompileLatencyClutter(benchmark::State& state) {
  const std::string source = readText(exampleDir("clutter") / "model.pvi");
  if (Lowered l = lowerExample(source); !l.source->model) {
    state.SkipWithError(("skipped: " + l.errors.substr(0, l.errors.find('\n'))).c_str());
    return;
  }
  for (auto _ : state) {
    Lowered l = lowerExample(source);
    benchmark::DoNotOptimize(pvi::JitModel::compile(*l.source->model));
  }
}
BENCHMARK(CompileLatencyClutter)->Name("CompileLatency/clutter")->Unit(benchmark::kMillisecond);

}  // namespace
