// Contraception (examples/hierarchical_logistic): hierarchical logistic regression with one random
// intercept per district, centred as in examples/hierarchical_logistic/model.pvi (a ~ normal(0, tau),
// alpha + a in the likelihood). Same priors and data as the .pvi and as the non-centred
// hierarchical_logistic.stan; rstan 2.21 syntax.
data {
  int N;
  int J;
  int g[N];
  int use[N];
  vector[N] urban;
  vector[N] age;
  vector[N] l1;
  vector[N] l2;
  vector[N] l3;
}
parameters {
  real alpha;
  real b_urban;
  real b_age;
  vector[3] b_livch;
  real<lower=0> tau;
  vector[J] a;
}
model {
  alpha ~ normal(0, 5);
  b_urban ~ normal(0, 5);
  b_age ~ normal(0, 5);
  b_livch ~ normal(0, 5);
  tau ~ normal(0, 1);
  a ~ normal(0, tau);
  use ~ bernoulli_logit(alpha + a[g] + b_urban * urban + b_age * age + b_livch[1] * l1 + b_livch[2] * l2
                        + b_livch[3] * l3);
}
