#pragma once
// The op table: every kernel operation the IR can contain, with its calling convention and the
// value and gradient kernels that implement it (stdlib/kernels). This is where the compiler
// learns each operation's derivative rule: the gradient kernel next to the value kernel.
#include <string>
#include <vector>

namespace pvi::stdlib {

enum class CallConv {
  Density,        // double v(n, [x, s_x]...);  double g(adj, n, [x, s_x]..., g_x for each real x)
  Unary,          // void v(n, x, out);  void g(n, x, out, g_out, g_x)
  EwBinary,       // void v(n, a, s_a, b, s_b, out);  void g(n, a, s_a, b, s_b, out, g_out, g_a, g_b)
  ScalarBinary,   // double v(a, b);  void g(a, b, out, g_out, &g_a, &g_b)
  ScalarTernary,  // double v(a, b, c);  void g(a, b, c, out, g_out, &g_a, &g_b, &g_c)
  Reduce,         // double v(n, x);  void g(n, x, out, g_out, g_x)
  Dot,            // double v(n, a, b);  void g(n, a, b, g_out, g_a, g_b)
  MatVec,         // void v(r, c, A, x, out);  void g(r, c, A, x, g_out, g_A, g_x)
  VecMat,         // void v(r, c, x, A, out);  void g(r, c, x, A, g_out, g_x, g_A)
  MatMul,         // void v(r, k, c, A, B, out);  void g(r, k, c, A, B, g_out, g_A, g_B)
  Transpose,      // void v(r, c, A, out);  void g(r, c, g_out, g_A)
  Row,            // void v(r, c, i, A, out);  void g(r, c, i, g_out, g_A)
  Gather,         // int64 v(n, idx, len, base, out);  void g(n, idx, g_out, g_base)
  Subscript,      // int64 v(r, dims, spec, lists, base, out);  void g(r, dims, spec, lists, g_out, g_base)
                  // (operands: base, then two per dimension of base; see arith.h)
  Fill,           // void v(n, x, out);  void g(n, x, out, g_out, g_x)   (x a scalar)
  Transform,      // double v(n, u, [bound, s]..., out);  void g(n, u, [bound, s]..., out, g_out, g_lj, g_u, g_bounds...)
  InverseTransform,  // int64 v(n, x, [bound, s]..., u): 0, or 1 + the first element outside its bounds
  Categorical,    // double v(n, y, s_y, k, beta);  double g(adj, n, y, s_y, k, beta, g_beta)
  Dirichlet,      // double v(k, theta, alpha);  double g(adj, k, theta, alpha, g_theta, g_alpha)
  MultiNormal,    // double v(n, k, y, s_y, mu, s_mu, M);  double g(adj, n, k, y, s_y, mu, s_mu, M, g_y, g_mu, g_M)
                  // (n variates: y and mu each a vector, stride 0, or an array of n vectors, stride k)
  Ode,            // integrate_ode_*: operands (y0, t0, ts, theta, x_r, x_i, rtol, atol, max_steps), imm =
                  // the ODE system (LoweredModel::odeSystems); see stdlib/kernels/ode/ode.h
};

// Conventions whose value is a log density (fused into their backward call when used only by
// `target +=`).
inline bool isDensity(CallConv c) {
  return c == CallConv::Density || c == CallConv::Categorical || c == CallConv::Dirichlet || c == CallConv::MultiNormal;
}

struct KernelOp {
  std::string name;          // the IR op name, e.g. "normal_lpdf", "exp", "matvec"
  CallConv conv;
  std::string value;         // C symbol of the value kernel
  std::string grad;          // C symbol of the gradient kernel
  std::vector<bool> intArgs; // Density: which arguments are int arrays (no gradient)
};

const KernelOp* findKernelOp(const std::string& name);
const std::vector<KernelOp>& kernelOps();

// The _rng functions of the generated quantities (stdlib/kernels/rng/rng.h): side effects on the
// random number state, never differentiated.
enum class RngConv {
  Vectorised,    // int64 v(rng, n, [x, s_x]..., out): n draws, n the length of the containers
  Multivariate,  // int64 v(rng, k, args..., out): one variate; k the length of the first argument
};

struct RngOp {
  std::string name;           // the function, e.g. "normal_rng"
  RngConv conv;
  std::string symbol;         // C symbol of the kernel
  std::vector<bool> intArgs;  // which arguments are ints
  bool intResult;             // int variates (discrete distributions)
  bool vectorResult;          // Multivariate: a vector variate of length k (else one int)
};

const RngOp* findRngOp(const std::string& name);

// Stan's constants, functions without arguments: pi(), e(), sqrt2(), log2(), log10(), ...
struct MathConstant {
  std::string name;
  double value;
};
const std::vector<MathConstant>& mathConstants();
const MathConstant* findMathConstant(const std::string& name);
const std::vector<RngOp>& rngOps();

}  // namespace pvi::stdlib
