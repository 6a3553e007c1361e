// Eight schools, centred: posteriordb's eight_schools_centered (priors mu ~ normal(0, 5),
// tau ~ cauchy(0, 5)); rstan 2.21 syntax. Its funnel gives NUTS divergences.
data {
  int<lower=0> J;
  real y[J];
  real<lower=0> sigma[J];
}
parameters {
  real theta[J];
  real mu;
  real<lower=0> tau;
}
model {
  tau ~ cauchy(0, 5);
  theta ~ normal(mu, tau);
  y ~ normal(theta, sigma);
  mu ~ normal(0, 5);
}
