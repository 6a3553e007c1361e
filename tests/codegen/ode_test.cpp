// Stan's ODE solvers (integrate_ode_rk45 / _bdf / _adams) through the whole pipeline: solutions
// against closed forms, gradients with respect to the initial state and the parameters against
// finite differences, and the solver's failures as Stan reports them.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

// The harmonic oscillator y1' = y2, y2' = -omega^2 y1 (omega = theta[1]) from y0 at t0 = 0, with
// the solution weighted by data w: target = sum_t w[t] . y(ts[t]).
const char* kOscillator = R"(
functions {
  array[] real oscillator(real t, array[] real y, array[] real theta, array[] real x_r, array[] int x_i) {
    return {y[2], -theta[1] ^ 2 * y[1]};
  }
}
data { int T; array[T] real ts; array[T, 2] real w; real tol; }
parameters { array[2] real y0; array[1] real theta; }
model {
  array[T, 2] real y = integrate_ode_rk45(oscillator, y0, 0, ts, theta, rep_array(0.0, 0), rep_array(0, 0),
                                          tol, tol, 100000);
  for (t in 1:T) target += w[t, 1] * y[t, 1] + w[t, 2] * y[t, 2];
}
)";

struct Oscillator {
  std::vector<double> ts{0.5, 1.0, 2.5, 4.0};
  std::vector<double> w{0.3, -1.2, 0.8, 0.5, -0.4, 1.1, 0.9, -0.7};  // row-major T x 2

  DataBlock data(double tol) const {
    DataBlock d;
    d.addInt(static_cast<int64_t>(ts.size())).addReals(ts).addReals(w).addReal(tol);
    return d;
  }
  // The closed form of the target.
  double target(const std::vector<double>& z) const {
    const double a = z[0], b = z[1], om = z[2];
    double s = 0;
    for (size_t t = 0; t < ts.size(); ++t) {
      const double c = std::cos(om * ts[t]), sn = std::sin(om * ts[t]);
      s += w[2 * t] * (a * c + b / om * sn) + w[2 * t + 1] * (-a * om * sn + b * c);
    }
    return s;
  }
};

TEST(Ode, OscillatorMatchesItsClosedForm) {
  Compiled c = compileModel(kOscillator);
  ASSERT_TRUE(c.jit) << c.errors;
  Oscillator o;
  for (double tol : {1e-6, 1e-10}) {
    CompiledModel m(c.jit->code(), c.lowered->schema, o.data(tol), {});
    for (const std::vector<double>& z : {std::vector<double>{1.0, 0.0, 1.0}, {0.3, -0.8, 2.1}, {-1.5, 0.4, 0.6}}) {
      const double exact = o.target(z);
      const double v = m.priorLogDensity(z.data(), nullptr, nullptr, nullptr);
      // The local error per step is within tol of each component (|y| <= ~2 here); over the
      // few dozen steps to t = 4 the global error stays within 100 tol.
      EXPECT_NEAR(v, exact, 100 * tol * 4) << "tol " << tol << " at " << z[0] << ", " << z[1] << ", " << z[2];
    }
  }
}

// The value at tolerance 1e-12 against the closed form, and the gradient (from the forward
// sensitivities) against both the closed form's derivative and finite differences of the solver's
// value, at three points.
void expectTheOscillatorsValueAndGradient(const std::string& text) {
  Compiled c = compileModel(text);
  ASSERT_TRUE(c.jit) << c.errors;
  Oscillator o;
  CompiledModel m(c.jit->code(), c.lowered->schema, o.data(1e-12), {});
  for (const std::vector<double>& z : {std::vector<double>{1.0, 0.0, 1.0}, {0.3, -0.8, 2.1}, {-1.5, 0.4, 0.6}}) {
    std::vector<double> g(3);
    const double v = m.priorLogDensity(z.data(), nullptr, g.data(), nullptr);
    EXPECT_NEAR(v, o.target(z), 1e-9);
    auto exact = finiteDifference([&](const std::vector<double>& x) { return o.target(x); }, z, 1e-5);
    auto fd = finiteDifference([&](const std::vector<double>& x) { return m.priorLogDensity(x.data(), nullptr, nullptr, nullptr); },
                               z, 1e-4);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_NEAR(g[i], exact[i], 1e-7 * (1 + std::fabs(exact[i]))) << "component " << i;
      EXPECT_NEAR(g[i], fd[i], 1e-6 * (1 + std::fabs(fd[i]))) << "component " << i;
    }
  }
}

TEST(Ode, SensitivitiesMatchTheClosedFormAndFiniteDifferences) { expectTheOscillatorsValueAndGradient(kOscillator); }

// Two solves of one system in a model (each keeps its own sensitivities for its derivative rule,
// stdlib/kernels/ode/ode.h) and a solve inside a loop (replayed by the gradient): the gradient
// matches finite differences.
TEST(Ode, SeveralSolvesAndASolveInALoop) {
  std::string text = kOscillator;
  const std::string once = "  for (t in 1:T) target += w[t, 1] * y[t, 1] + w[t, 2] * y[t, 2];\n";
  text.replace(text.find(once), once.size(),
               once +
                   "  array[T, 2] real y2 = integrate_ode_rk45(oscillator, y0, 0, ts, {2 * theta[1]}, rep_array(0.0, 0),\n"
                   "                                           rep_array(0, 0), tol, tol, 100000);\n"
                   "  target += 0.5 * y2[T, 1];\n"
                   "  for (k in 1:2) {\n"
                   "    array[1, 2] real yk = integrate_ode_rk45(oscillator, {y0[1], k * y0[2]}, 0, {k * 1.0}, theta,\n"
                   "                                             rep_array(0.0, 0), rep_array(0, 0), tol, tol, 100000);\n"
                   "    target += yk[1, 1] - yk[1, 2];\n"
                   "  }\n");
  Compiled c = compileModel(text);
  ASSERT_TRUE(c.jit) << c.errors;
  Oscillator o;
  CompiledModel m(c.jit->code(), c.lowered->schema, o.data(1e-12), {});
  const std::vector<double> z{0.3, -0.8, 2.1};
  std::vector<double> g(3);
  m.priorLogDensity(z.data(), nullptr, g.data(), nullptr);
  auto fd = finiteDifference([&](const std::vector<double>& x) { return m.priorLogDensity(x.data(), nullptr, nullptr, nullptr); },
                             z, 1e-4);
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(g[i], fd[i], 1e-6 * (1 + std::fabs(fd[i]))) << "component " << i;
}

// integrate_ode_bdf and integrate_ode_adams are solved by the same adaptive method: with the same
// controls they give rk45's values and gradients exactly.
TEST(Ode, BdfAndAdamsShareTheSolver) {
  std::string rk45 = kOscillator, bdf = kOscillator, adams = kOscillator;
  bdf.replace(bdf.find("integrate_ode_rk45"), 18, "integrate_ode_bdf ");
  adams.replace(adams.find("integrate_ode_rk45"), 18, "integrate_ode_adams");
  Oscillator o;
  Compiled a = compileModel(rk45), b = compileModel(bdf), c = compileModel(adams);
  ASSERT_TRUE(a.jit && b.jit && c.jit) << a.errors << b.errors << c.errors;
  CompiledModel ma(a.jit->code(), a.lowered->schema, o.data(1e-8), {});
  CompiledModel mb(b.jit->code(), b.lowered->schema, o.data(1e-8), {});
  CompiledModel mc(c.jit->code(), c.lowered->schema, o.data(1e-8), {});
  const std::vector<double> z{0.3, -0.8, 2.1};
  std::vector<double> ga(3), gb(3), gc(3);
  const double va = ma.priorLogDensity(z.data(), nullptr, ga.data(), nullptr);
  EXPECT_EQ(mb.priorLogDensity(z.data(), nullptr, gb.data(), nullptr), va);
  EXPECT_EQ(mc.priorLogDensity(z.data(), nullptr, gc.data(), nullptr), va);
  EXPECT_EQ(ga, gb);
  EXPECT_EQ(ga, gc);
}

// Evaluates the oscillator program, with `from` replaced by `to` when `from` is not empty, at a
// fixed point, value alone and with its gradient, handing each evaluation to `expect`.
void evaluateVariant(const std::string& from, const std::string& to, const Oscillator& o, double tol,
                     const std::function<void(const std::function<double()>&)>& expect) {
  std::string text = kOscillator;
  if (!from.empty()) text.replace(text.find(from), from.size(), to);
  Compiled c = compileModel(text);
  ASSERT_TRUE(c.jit) << c.errors;
  CompiledModel m(c.jit->code(), c.lowered->schema, o.data(tol), {});
  const std::vector<double> z{0.3, -0.8, 2.1};
  std::vector<double> g(3);
  expect([&] { return m.priorLogDensity(z.data(), nullptr, nullptr, nullptr); });
  expect([&] { return m.priorLogDensity(z.data(), nullptr, g.data(), nullptr); });
}

// Too few steps allowed (max_num_steps) rejects the point, as in Stan: log density -inf, value
// and gradient alike. Output times that do not increase after t0 are a fatal error, and so are
// an empty state, no output times and non-finite real data.
TEST(Ode, SolverFailuresRejectOrStop) {
  const auto rejects = [](const std::function<double()>& f) { EXPECT_EQ(f(), -INFINITY); };
  const auto stops = [](const std::function<double()>& f) { EXPECT_THROW(f(), ModelEvaluationError); };
  evaluateVariant("100000", "3", Oscillator{}, 1e-10, rejects);
  Oscillator back;
  back.ts = {0.5, 1.0, 0.75, 4.0};  // goes back in time
  evaluateVariant("", "", back, 1e-6, stops);
  Oscillator atStart;
  atStart.ts = {0.0, 1.0, 2.0, 4.0};  // the first output time must be after t0 = 0
  evaluateVariant("", "", atStart, 1e-6, stops);
  // As in Stan, an empty initial state or no output times is an error, and so (real data that
  // no point can change) is a real data argument that is not finite.
  Oscillator noTimes;
  noTimes.ts.clear();
  noTimes.w.clear();
  evaluateVariant("", "", noTimes, 1e-6, stops);
  evaluateVariant("oscillator, y0, 0, ts, theta, rep_array(0.0, 0)", "oscillator, y0, 0, ts, theta, {1e308 * 10}",
                  Oscillator{}, 1e-6, stops);
  evaluateVariant("array[T, 2] real y = integrate_ode_rk45(oscillator, y0,",
                  "array[T, 0] real e = integrate_ode_rk45(oscillator, rep_array(0.0, 0), 0, ts, theta, "
                  "rep_array(0.0, 0), rep_array(0, 0), tol, tol, 100000);\n"
                  "  target += sum(to_matrix(e));\n"
                  "  array[T, 2] real y = integrate_ode_rk45(oscillator, y0,",
                  Oscillator{}, 1e-6, stops);
}

// A program solving y' = decay(...) whose system has the given body (from line 3 on).
std::string decayProgram(const std::string& body) {
  return "functions {\n"
         "  array[] real decay(real t, array[] real y, array[] real theta, array[] real x_r, array[] int x_i) {\n" +
         body +
         "  }\n"
         "}\n"
         "data { int N; array[N] real ts; }\n"
         "parameters { array[1] real<lower=0> k; }\n"
         "model {\n"
         "  array[N, 1] real y = integrate_ode_rk45(decay, {1.0}, 0, ts, k, rep_array(0.0, 0), rep_array(0, 0));\n"
         "  k ~ normal(0, 1);\n"
         "}\n";
}

// A system whose result does not have one derivative per state stops the run (Stan: a size
// mismatch), never reading or writing past the result; one whose function solves an ODE itself
// is refused.
TEST(Ode, WrongResultSizeStopsAndNestedSolversAreRefused) {
  evaluateVariant("return {y[2], -theta[1] ^ 2 * y[1]};", "return {y[2], -theta[1] ^ 2 * y[1], 0.0};", Oscillator{},
                  1e-6, [](const std::function<double()>& f) { EXPECT_THROW(f(), ModelEvaluationError); });

  Compiled nested = compileModel(decayProgram("    array[1, 1] real inner = integrate_ode_rk45(decay, y, 0, {1.0}, theta, x_r, x_i);\n"
                                               "    return {-theta[1] * inner[1, 1]};\n"));
  EXPECT_FALSE(nested.jit);
  EXPECT_NE(nested.errors.find("the ODE system 'decay' calls an ODE solver itself"), std::string::npos)
      << nested.errors;
}

// The system's function is compiled in a program of its own; an error in its body (which the
// model never calls directly, so the model's check does not type it) is reported at its place in
// the model, with the system named.
TEST(Ode, AnErrorInTheSystemIsReportedWhereItIs) {
  Compiled c = compileModel(decayProgram("    return {-exq(theta[1]) * y[1]};\n"));
  EXPECT_FALSE(c.jit);
  EXPECT_NE(c.errors.find("3:14: error: in the ODE system 'decay': unknown function 'exq'; did you mean 'exp'?"),
            std::string::npos)
      << c.errors;
}

// The oscillator in Stan's variadic interface, with arguments of several kinds: omega and
// g = [0, omega]' depend on parameters (theta), c and s are data (x_r), k is an int array (x_i,
// after the sizes of c, g and k). The system reads them so that any other unpacking changes the
// result: c[k[1]] = c[2] = 1 (k[1] read from the sizes would be 3, c[3] = 5), k[2] - 7 = 0, s = 1,
// g[2] * omega = omega^2.
const char* kVariadicOscillator = R"(
functions {
  vector oscillator(real t, vector y, real omega, vector g, data vector c, array[] int k, data real s) {
    return [c[k[1]] * y[2] * s, -(g[2] * omega) * y[1] + (k[2] - 7) * y[1]]';
  }
}
data { int T; array[T] real ts; array[T, 2] real w; real tol; }
parameters { vector[2] y0; real omega; }
model {
  array[T] vector[2] y = SOLVER(oscillator, y0, 0, ts, CONTROLS omega, [0, omega]', [3.0, 1.0, 5.0]', {2, 7}, 1.0);
  for (t in 1:T) target += w[t, 1] * y[t, 1] + w[t, 2] * y[t][2];
}
)";

std::string variadicOscillator(const std::string& solver, const std::string& controls) {
  std::string text = kVariadicOscillator;
  text.replace(text.find("SOLVER"), 6, solver);
  text.replace(text.find("CONTROLS "), 9, controls);
  return text;
}

TEST(Ode, VariadicInterfaceMatchesTheClosedFormAndFiniteDifferences) {
  expectTheOscillatorsValueAndGradient(variadicOscillator("ode_rk45_tol", "tol, tol, 100000, "));
}

// ode_rk45, ode_bdf, ode_adams and ode_ckrk without controls use Stan's defaults (1e-6 for rk45
// and ckrk, 1e-10 for bdf and adams); with the same controls all four give the same values and
// gradients (one adaptive method).
TEST(Ode, VariadicSolversAndTheirDefaults) {
  Oscillator o;
  const std::vector<double> z{0.3, -0.8, 2.1};
  const auto evaluate = [&](const std::string& text, std::vector<double>& g) -> double {
    Compiled c = compileModel(text);
    EXPECT_TRUE(c.jit) << c.errors;
    if (!c.jit) return NAN;
    CompiledModel m(c.jit->code(), c.lowered->schema, o.data(1e-8), {});
    g.assign(3, 0.0);
    return m.priorLogDensity(z.data(), nullptr, g.data(), nullptr);
  };
  std::vector<double> g0, g;
  const double v0 = evaluate(variadicOscillator("ode_rk45_tol", "tol, tol, 100000, "), g0);
  EXPECT_NEAR(v0, o.target(z), 400 * 1e-8);
  for (const char* solver : {"ode_bdf_tol", "ode_adams_tol", "ode_ckrk_tol"}) {
    EXPECT_EQ(evaluate(variadicOscillator(solver, "tol, tol, 100000, "), g), v0) << solver;
    EXPECT_EQ(g, g0) << solver;
  }
  for (const auto& [solver, tol] :
       {std::pair{"ode_rk45", 1e-6}, {"ode_ckrk", 1e-6}, {"ode_bdf", 1e-10}, {"ode_adams", 1e-10}}) {
    const double v = evaluate(variadicOscillator(solver, ""), g);
    EXPECT_NEAR(v, o.target(z), 400 * tol) << solver;
    EXPECT_NE(v, v0) << solver << ": the defaults were not applied";
  }
}

// The other kinds, and their other placements: a row_vector (data, then depending on omega), an
// array of reals (depending on omega, then data), an int, an int where a real is expected, one
// system with two layouts in one model, and a system without arguments after y. Target: the
// oscillator's at omega, plus 0.5 times it at omega = 2 and 0.25 times it at omega = 1.
const char* kVariadicKinds = R"(
functions {
  vector osc(real t, vector y, row_vector r, array[] real a, int n, real x) {
    return [r[n] * x * y[2], -a[n] ^ 2 * y[1]]';
  }
  vector unit(real t, vector y) {
    return [y[2], -y[1]]';
  }
}
data { int T; array[T] real ts; array[T, 2] real w; real tol; }
parameters { vector[2] y0; real omega; }
model {
  array[T] vector[2] y = ode_rk45_tol(osc, y0, 0, ts, tol, tol, 100000, [0, 1], {5.0, omega}, 2, 1);
  array[T] vector[2] u = ode_rk45_tol(osc, y0, 0, ts, tol, tol, 100000, [0, omega / omega], {5.0, 2.0}, 2, 1);
  array[T] vector[2] v = ode_rk45_tol(unit, y0, 0, ts, tol, tol, 100000);
  for (t in 1:T)
    target += w[t, 1] * (y[t, 1] + 0.5 * u[t, 1] + 0.25 * v[t, 1]) + w[t, 2] * (y[t, 2] + 0.5 * u[t, 2] + 0.25 * v[t, 2]);
}
)";

TEST(Ode, VariadicArgumentsOfEveryKindAndPlacement) {
  Compiled c = compileModel(kVariadicKinds);
  ASSERT_TRUE(c.jit) << c.errors;
  Oscillator o;
  CompiledModel m(c.jit->code(), c.lowered->schema, o.data(1e-12), {});
  const auto exact = [&](const std::vector<double>& z) {
    return o.target(z) + 0.5 * o.target({z[0], z[1], 2.0}) + 0.25 * o.target({z[0], z[1], 1.0});
  };
  for (const std::vector<double>& z : {std::vector<double>{0.3, -0.8, 2.1}, {-1.5, 0.4, 0.6}}) {
    std::vector<double> g(3);
    EXPECT_NEAR(m.priorLogDensity(z.data(), nullptr, g.data(), nullptr), exact(z), 1e-9);
    auto fd = finiteDifference([&](const std::vector<double>& x) { return exact(x); }, z, 1e-5);
    for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(g[i], fd[i], 1e-6 * (1 + std::fabs(fd[i]))) << "component " << i;
  }
}

}  // namespace
}  // namespace pvi::test
