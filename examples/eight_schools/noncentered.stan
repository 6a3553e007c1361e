// Eight schools, non-centred, as a Stan program: pvic runs it unchanged (docs/from-stan.md).
data {
  int<lower=0> J;               // number of schools
  array[J] real y;              // estimated coaching effects
  array[J] real<lower=0> sigma; // their standard errors
}
parameters {
  real mu;                      // population mean effect
  real<lower=0> tau;            // population sd of the effects
  vector[J] theta_tilde;        // standardised school effects
}
transformed parameters {
  vector[J] theta = mu + tau * theta_tilde;  // the schools' true effects
}
model {
  mu ~ normal(0, 5);
  tau ~ cauchy(0, 5);
  theta_tilde ~ normal(0, 1);
  y ~ normal(theta, sigma);
}
