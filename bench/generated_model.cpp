#include "generated_model.hpp"

namespace pvi::bench {

std::string generatedModel(int statements) {
  // Each group contributes 11 statements: 3 data, 2 globals, 1 local, 5 in the model.
  int groups = statements / 11;
  std::string data = "data {\n  int<lower=1> D;\n  real<lower=0> prior_sd;\n}\n";
  std::string perSilo = "data per silo {\n  int<lower=0> N;\n  int<lower=1> C;\n  array[N] int<lower=1, upper=C> child;\n";
  std::string global = "global {\n";
  std::string local = "local per silo {\n";
  std::string model = "model {\n";
  for (int g = 0; g < groups; ++g) {
    std::string s = std::to_string(g);
    perSilo += "  matrix[N, D] X" + s + ";\n  vector[N] y" + s + ";\n  array[N] int<lower=0, upper=1> z" + s + ";\n";
    global += "  vector[D] beta" + s + ";\n  real<lower=0> sigma" + s + ";\n";
    local += "  vector[C] b" + s + ";\n";
    model += "  beta" + s + " ~ normal(0, prior_sd);\n";
    model += "  sigma" + s + " ~ exponential(1);\n";
    model += "  vector[N] eta" + s + " = X" + s + " * beta" + s + " + b" + s + "[child];\n";
    model += "  y" + s + " ~ normal(eta" + s + ", sigma" + s + ");\n";
    model += "  for (n in 1:N) target += bernoulli_logit_lpmf(z" + s + "[n] | eta" + s + "[n] / (1 + sigma" + s +
             ")) + normal_lpdf(b" + s + "[child[n]] | 0, 1);\n";
  }
  return "// Generated benchmark model.\n@partition(silo)\n" + data + perSilo + "}\n" + global + "}\n" + local +
         "}\n" + model + "}\n";
}

}  // namespace pvi::bench
