// Six Cities wheeze study (examples/six_cities): logistic mixed model with one random intercept per
// child, non-centred. The Stan program of shared/reference/make_reference.R (same model, priors and
// data as examples/six_cities/model.pvi); rstan 2.21 syntax.
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
  vector[K] z;
}
model {
  beta ~ normal(0, 10);
  omega ~ normal(0, 10);
  z ~ std_normal();
  wheeze ~ bernoulli_logit(beta[1] + beta[2] * smoke + beta[3] * age + beta[4] * smoke .* age + exp(-omega) * z[k]);
}
