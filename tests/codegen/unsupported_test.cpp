// What code generation still refuses: each gives one positioned diagnostic, never a crash.
#include <gtest/gtest.h>

#include "model_harness.hpp"

namespace pvi::test {
namespace {

struct Case {
  const char* what;
  const char* source;
  const char* expected;  // "line:col: error: not supported by code generation yet: ..."
};

const Case kCases[] = {
    {"a draw deciding a branch both generate functions need", R"(
@partition(group)
data per group { int N; vector[N] y; }
global { real mu; }
local per group { real u; }
model { mu ~ normal(0, 1); u ~ normal(mu, 1); y ~ normal(u, 1); }
generated {
  real shift = 0;
  if (bernoulli_rng(0.5)) shift = 1;
  real moved = u + shift;
}
)",
     "9:7: error: not supported by code generation yet: 'bernoulli_rng' in 'shift', which the generated quantities "
     "of the globals and those of each partition both need: it would be drawn twice, with different values; "
     "declare the partition's own draw separately"},
    {"a literal of five dimensions", R"(
global { real a; }
model { a ~ normal(0, 1); }
generated { int k = size({{{{{1}}}}}); }
)",
     "4:26: error: not supported by code generation yet: a literal of more than 4 dimensions"},
    {"a draw both generate functions need", R"(
@partition(group)
data per group { int N; vector[N] y; }
global { real mu; real<lower=0> tau; }
local per group { real u; }
model { mu ~ normal(0, 1); tau ~ normal(0, 1); u ~ normal(mu, tau); y ~ normal(u, 1); }
generated {
  real u_new = normal_rng(mu, tau);
  real shift = u - u_new;
}
)",
     "8:16: error: not supported by code generation yet: 'normal_rng' in 'u_new', which the generated quantities of "
     "the globals and those of each partition both need: it would be drawn twice, with different values; declare "
     "the partition's own draw separately"},
    {"generated size from an element of int data", R"(
data { array[2] int<lower=1> g; }
global { real a; }
model { a ~ normal(0, 1); }
generated { vector[g[1]] v = rep_vector(a, g[1]); }
)",
     "5:13: error: not supported by code generation yet: a size of a data, parameter or generated variable that is "
     "not computed from int constants and int data scalars alone"},
    {"data size from an element of int data", R"(
data { array[2] int<lower=1> g; vector[g[1]] y; }
global { real a; }
model { a ~ normal(0, 1); y ~ normal(a, 1); }
)",
     "2:40: error: not supported by code generation yet: a size of a data, parameter or generated variable that is "
     "not computed from int constants and int data scalars alone"},
    {"size from an int assigned in a loop", R"(
data { int N; }
global { real mu; }
model {
  int m = 0;
  for (n in 1:N) {
    m += 1;
    vector[m] v = rep_vector(mu, m);
    target += sum(v);
  }
}
)",
     "8:5: error: not supported by code generation yet: a size that depends on a value assigned in a loop or "
     "branch"},
    {"loop bounds from an int assigned in a loop, reading an assigned variable", R"(
data { int N; }
global { real mu; }
model {
  real acc = 0;
  int m = 0;
  for (j in 1:N) {
    m += j;
    for (k in 1:m)
      acc += mu * k;
  }
  target += acc;
}
)",
     "10:7: error: not supported by code generation yet: reading a variable assigned in a loop or branch inside a "
     "loop whose bounds depend on a value assigned in a loop or branch"},
    {"assignment into an indexed slice", R"(
data { int N; }
global { real mu; }
model {
  vector[N] v = rep_vector(mu, N);
  v[2:3][1] = mu;
  target += sum(v);
}
)",
     "6:5: error: not supported by code generation yet: assigning to a part of a slice or multi-index"},
    {"five dimensions", R"(
data { int N; array[N, 2, 2] matrix[2, 2] q; }
global { real mu; }
model {
  mu ~ normal(0, 1);
}
)",
     "2:15: error: not supported by code generation yet: more than 4 dimensions in all"},
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.what; }

class Unsupported : public ::testing::TestWithParam<Case> {};

TEST_P(Unsupported, IsAPositionedDiagnostic) {
  Compiled c = compileModel(GetParam().source);
  EXPECT_FALSE(c.jit);
  EXPECT_NE(c.errors.find(GetParam().expected), std::string::npos) << c.errors;
  EXPECT_EQ(c.errors.find("error"), c.errors.rfind("error")) << "one error only: " << c.errors;
}

INSTANTIATE_TEST_SUITE_P(CodeGeneration, Unsupported, ::testing::ValuesIn(kCases));

}  // namespace
}  // namespace pvi::test
