#include "stdlib/Ops.hpp"

namespace pvi::stdlib {

namespace {

std::vector<KernelOp> build() {
  std::vector<KernelOp> ops;
  auto add = [&](std::string name, CallConv conv, std::string symbol, std::vector<bool> ints = {}) {
    ops.push_back({name, conv, "pvi_" + symbol, "pvi_" + symbol + "_grad", std::move(ints)});
  };
  // Densities: the variate first, then the parameters; `true` marks int arguments.
  for (const char* d : {"normal", "lognormal", "cauchy", "logistic", "gamma", "inv_gamma", "beta", "uniform"})
    add(std::string(d) + "_lpdf", CallConv::Density, std::string(d) + "_lpdf", {false, false, false});
  add("std_normal_lpdf", CallConv::Density, "std_normal_lpdf", {false});
  add("exponential_lpdf", CallConv::Density, "exponential_lpdf", {false, false});
  add("student_t_lpdf", CallConv::Density, "student_t_lpdf", {false, false, false, false});
  for (const char* d : {"bernoulli", "bernoulli_logit", "poisson", "poisson_log"})
    add(std::string(d) + "_lpmf", CallConv::Density, std::string(d) + "_lpmf", {true, false});
  for (const char* d : {"binomial", "binomial_logit"})
    add(std::string(d) + "_lpmf", CallConv::Density, std::string(d) + "_lpmf", {true, true, false});
  add("neg_binomial_2_lpmf", CallConv::Density, "neg_binomial_2_lpmf", {true, false, false});
  add("categorical_logit_lpmf", CallConv::Categorical, "categorical_logit_lpmf", {true, false});
  add("dirichlet_lpdf", CallConv::Dirichlet, "dirichlet_lpdf");
  add("multi_normal_lpdf", CallConv::MultiNormal, "multi_normal_lpdf");
  add("multi_normal_cholesky_lpdf", CallConv::MultiNormal, "multi_normal_cholesky_lpdf");

  for (const char* f : {"exp", "log", "log1p", "expm1", "log1m", "lgamma", "digamma", "inv_logit", "log_inv_logit",
                        "log1m_inv_logit", "logit", "sqrt", "square", "tanh", "abs", "relu", "inv", "softmax",
                        "log_softmax", "neg", "log10"})
    add(f, CallConv::Unary, f);
  for (const char* f : {"add", "sub", "mul", "div", "pow"}) add(std::string("ew_") + f, CallConv::EwBinary, std::string("ew_") + f);
  for (const char* f : {"pow", "fmax", "fmin"}) add(std::string(f) + "2", CallConv::ScalarBinary, f);
  add("log_sum_exp2", CallConv::ScalarBinary, "log_sum_exp2");
  add("log_mix", CallConv::ScalarTernary, "log_mix");
  add("sum", CallConv::Reduce, "sum");
  add("mean", CallConv::Reduce, "mean");
  add("log_sum_exp", CallConv::Reduce, "log_sum_exp");
  for (const char* f : {"dot_self", "variance", "sd", "prod"}) add(f, CallConv::Reduce, f);
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
  for (const char* f : {"tf_lower_inv", "tf_upper_inv", "tf_lower_upper_inv"})
    ops.push_back({f, CallConv::InverseTransform, std::string("pvi_") + f, "", {}});
  return ops;
}

}  // namespace

const std::vector<KernelOp>& kernelOps() {
  static const std::vector<KernelOp> table = build();
  return table;
}

const KernelOp* findKernelOp(const std::string& name) {
  for (const KernelOp& k : kernelOps())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace pvi::stdlib
