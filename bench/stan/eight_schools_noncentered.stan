// Eight schools, non-centred: posteriordb's eight_schools_noncentered, the model of
// tests/reference/eight_schools.csv; rstan 2.21 syntax.
data {
  int<lower=0> J;
  real y[J];
  real<lower=0> sigma[J];
}
parameters {
  vector[J] theta_trans;
  real mu;
  real<lower=0> tau;
}
transformed parameters {
  vector[J] theta = theta_trans * tau + mu;
}
model {
  theta_trans ~ normal(0, 1);
  y ~ normal(theta, sigma);
  mu ~ normal(0, 5);
  tau ~ cauchy(0, 5);
}
