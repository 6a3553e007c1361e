// eight_schools_noncentered written with Stan's offset and multiplier: the same posterior, theta
// declared centred and sampled non-centred (not a posteriordb program; its reference is the
// non-centred program's, for mu, tau and theta).
data {
  int<lower=0> J;
  array[J] real y;
  array[J] real<lower=0> sigma;
}
parameters {
  real mu;
  real<lower=0> tau;
  vector<offset=mu, multiplier=tau>[J] theta;
}
model {
  mu ~ normal(0, 5);
  tau ~ cauchy(0, 5);
  theta ~ normal(mu, tau);
  y ~ normal(theta, sigma);
}
