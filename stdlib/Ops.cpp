#include "stdlib/Ops.hpp"

#include <limits>

namespace pvi::stdlib {

namespace {

std::vector<KernelOp> build() {
  std::vector<KernelOp> ops;
  auto add = [&](std::string name, CallConv conv, std::string symbol, std::vector<bool> ints = {}) {
    ops.push_back({name, conv, "pvi_" + symbol, "pvi_" + symbol + "_grad", std::move(ints)});
  };
  // Densities: the variate first, then the parameters; `true` marks int arguments.
  for (const char* d : {"normal", "lognormal", "cauchy", "logistic", "double_exponential", "gamma", "inv_gamma", "weibull",
                        "beta", "uniform"})
    add(std::string(d) + "_lpdf", CallConv::Density, std::string(d) + "_lpdf", {false, false, false});
  add("std_normal_lpdf", CallConv::Density, "std_normal_lpdf", {false});
  add("exponential_lpdf", CallConv::Density, "exponential_lpdf", {false, false});
  add("student_t_lpdf", CallConv::Density, "student_t_lpdf", {false, false, false, false});
  for (const char* d : {"bernoulli", "bernoulli_logit", "poisson", "poisson_log"})
    add(std::string(d) + "_lpmf", CallConv::Density, std::string(d) + "_lpmf", {true, false});
  for (const char* d : {"binomial", "binomial_logit"})
    add(std::string(d) + "_lpmf", CallConv::Density, std::string(d) + "_lpmf", {true, true, false});
  add("neg_binomial_2_lpmf", CallConv::Density, "neg_binomial_2_lpmf", {true, false, false});
  // Log CDFs and CCDFs: the densities' calling convention.
  for (const char* side : {"_lcdf", "_lccdf"}) {
    for (const char* d : {"normal", "lognormal", "cauchy", "logistic", "gamma", "weibull"})
      add(std::string(d) + side, CallConv::Density, std::string(d) + side, {false, false, false});
    add(std::string("student_t") + side, CallConv::Density, std::string("student_t") + side,
        {false, false, false, false});
    add(std::string("exponential") + side, CallConv::Density, std::string("exponential") + side, {false, false});
    add(std::string("poisson") + side, CallConv::Density, std::string("poisson") + side, {true, false});
  }
  add("categorical_lpmf", CallConv::Categorical, "categorical_lpmf", {true, false});
  add("categorical_logit_lpmf", CallConv::Categorical, "categorical_logit_lpmf", {true, false});
  add("dirichlet_lpdf", CallConv::Dirichlet, "dirichlet_lpdf");
  // Stan's three solvers of the theta / x_r / x_i interface share the one adaptive solver.
  for (const char* solver : {"integrate_ode_rk45", "integrate_ode_bdf", "integrate_ode_adams"})
    add(solver, CallConv::Ode, "integrate_ode");
  add("lkj_corr_cholesky_lpdf", CallConv::Dirichlet, "lkj_corr_cholesky_lpdf");  // (K^2, L, eta)
  add("lkj_corr_lpdf", CallConv::Dirichlet, "lkj_corr_lpdf");                      // (K^2, Omega, eta)
  add("wishart_lpdf", CallConv::Dirichlet, "wishart_lpdf");                        // (K^2, W, nu, S)
  add("inv_wishart_lpdf", CallConv::Dirichlet, "inv_wishart_lpdf");
  add("multi_normal_lpdf", CallConv::MultiNormal, "multi_normal_lpdf");
  add("multi_normal_cholesky_lpdf", CallConv::MultiNormal, "multi_normal_cholesky_lpdf");

  for (const char* f : {"exp", "log", "log1p", "expm1", "log1m", "log1m_exp", "lgamma", "digamma", "inv_logit", "log_inv_logit",
                        "log1m_inv_logit", "logit", "sqrt", "square", "tanh", "abs", "relu", "inv", "softmax",
                        "log_softmax", "neg", "log10", "cumulative_sum", "cholesky_decompose", "diag_matrix",
                        "multiply_lower_tri_self_transpose", "eigenvalues_sym", "eigenvectors_sym"})
    add(f, CallConv::Unary, f);
  for (const char* f : {"add", "sub", "mul", "div", "pow"}) add(std::string("ew_") + f, CallConv::EwBinary, std::string("ew_") + f);
  for (const char* f : {"pow", "fmax", "fmin"}) add(std::string(f) + "2", CallConv::ScalarBinary, f);
  add("log_sum_exp2", CallConv::ScalarBinary, "log_sum_exp2");
  add("log_diff_exp", CallConv::ScalarBinary, "log_diff_exp");
  add("log_mix", CallConv::ScalarTernary, "log_mix");
  add("sum", CallConv::Reduce, "sum");
  add("mean", CallConv::Reduce, "mean");
  add("log_sum_exp", CallConv::Reduce, "log_sum_exp");
  for (const char* f : {"dot_self", "variance", "sd", "prod", "max", "min"}) add(f, CallConv::Reduce, f);
  add("dot", CallConv::Dot, "dot");
  add("matvec", CallConv::MatVec, "matvec");
  add("vecmat", CallConv::VecMat, "vecmat");
  add("matmul", CallConv::MatMul, "matmul");
  add("transpose", CallConv::Transpose, "transpose");
  add("row", CallConv::Row, "row");
  add("gather", CallConv::Gather, "gather");
  add("subscript", CallConv::Subscript, "subscript");
  add("fill", CallConv::Fill, "fill");
  add("tf_lower", CallConv::Transform, "tf_lower");
  add("tf_upper", CallConv::Transform, "tf_upper");
  add("tf_lower_upper", CallConv::Transform, "tf_lower_upper");
  add("tf_affine", CallConv::Transform, "tf_affine");
  for (const char* f : {"tf_simplex", "tf_ordered", "tf_positive_ordered", "tf_cholesky_factor_corr", "tf_cholesky_factor_cov",
                        "tf_cov_matrix", "tf_corr_matrix", "tf_unit_vector"})
    add(f, CallConv::Transform, f);
  for (const char* f : {"tf_lower_inv", "tf_upper_inv", "tf_lower_upper_inv", "tf_affine_inv", "tf_simplex_inv", "tf_ordered_inv",
                        "tf_positive_ordered_inv", "tf_cholesky_factor_corr_inv", "tf_cholesky_factor_cov_inv",
                        "tf_cov_matrix_inv", "tf_corr_matrix_inv", "tf_unit_vector_inv"})
    ops.push_back({f, CallConv::InverseTransform, std::string("pvi_") + f, "", {}});
  return ops;
}

}  // namespace

const std::vector<KernelOp>& kernelOps() {
  static const std::vector<KernelOp> table = build();
  return table;
}

namespace {

std::vector<RngOp> buildRng() {
  std::vector<RngOp> ops;
  auto add = [&](std::string dist, RngConv conv, std::vector<bool> ints, bool intResult, bool vectorResult = false) {
    ops.push_back({dist + "_rng", conv, "pvi_" + dist + "_rng", std::move(ints), intResult, vectorResult});
  };
  using C = RngConv;
  for (const char* d : {"normal", "lognormal", "cauchy", "logistic", "double_exponential", "gamma", "inv_gamma", "weibull",
                        "beta", "uniform"})
    add(d, C::Vectorised, {false, false}, false);
  add("std_normal", C::Vectorised, {}, false);
  add("exponential", C::Vectorised, {false}, false);
  add("student_t", C::Vectorised, {false, false, false}, false);
  for (const char* d : {"bernoulli", "bernoulli_logit", "poisson", "poisson_log"}) add(d, C::Vectorised, {false}, true);
  for (const char* d : {"binomial", "binomial_logit"}) add(d, C::Vectorised, {true, false}, true);
  add("neg_binomial_2", C::Vectorised, {false, false}, true);
  add("categorical", C::Multivariate, {false}, true);
  add("categorical_logit", C::Multivariate, {false}, true);
  add("dirichlet", C::Multivariate, {false}, false, true);
  add("multi_normal", C::Multivariate, {false, false}, false, true);
  add("multi_normal_cholesky", C::Multivariate, {false, false}, false, true);
  return ops;
}

}  // namespace

const std::vector<RngOp>& rngOps() {
  static const std::vector<RngOp> ops = buildRng();
  return ops;
}

const RngOp* findRngOp(const std::string& name) {
  for (const RngOp& r : rngOps())
    if (r.name == name) return &r;
  return nullptr;
}

const KernelOp* findKernelOp(const std::string& name) {
  for (const KernelOp& k : kernelOps())
    if (k.name == name) return &k;
  return nullptr;
}

const std::vector<MathConstant>& mathConstants() {
  static const std::vector<MathConstant> table{
      {"pi", 3.14159265358979323846},
      {"e", 2.71828182845904523536},
      {"sqrt2", 1.41421356237309504880},
      {"log2", 0.69314718055994530942},
      {"log10", 2.30258509299404568402},
      {"not_a_number", std::numeric_limits<double>::quiet_NaN()},
      {"positive_infinity", std::numeric_limits<double>::infinity()},
      {"negative_infinity", -std::numeric_limits<double>::infinity()},
      {"machine_precision", std::numeric_limits<double>::epsilon()}};
  return table;
}

const MathConstant* findMathConstant(const std::string& name) {
  for (const MathConstant& c : mathConstants())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace pvi::stdlib
