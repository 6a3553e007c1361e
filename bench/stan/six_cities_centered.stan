// Six Cities wheeze study (examples/six_cities): logistic mixed model with one random intercept per
// child, centred as in examples/six_cities/model.pvi (b ~ normal(0, exp(-omega)), + b[child] in the
// likelihood). Same priors and data as the .pvi and as the non-centred six_cities.stan; rstan 2.21
// syntax.
data {
  int N;
  int K;
  int k[N];
  vector[N] age;
  vector[N] smoke;
  int wheeze[N];
}
parameters {
  vector[4] beta;
  real omega;
  vector[K] b;
}
model {
  beta ~ normal(0, 10);
  omega ~ normal(0, 10);
  b ~ normal(0, exp(-omega));
  wheeze ~ bernoulli_logit(beta[1] + beta[2] * smoke + beta[3] * age + beta[4] * smoke .* age + b[k]);
}
