// noncentered.stan federated: each school keeps its data and its own theta_tilde (docs/from-stan.md).
// What changed: the @partition annotation, `data per school` (one school's y and sigma, no J),
// `local per school` for the per-school parameter; every statement is the same.
@partition(school)
data per school {
  real y;                       // this school's estimated coaching effect
  real<lower=0> sigma;          // its standard error
}
parameters {
  real mu;                      // population mean effect
  real<lower=0> tau;            // population sd of the effects
}
local per school {
  real theta_tilde;             // this school's standardised effect
}
transformed parameters {
  real theta = mu + tau * theta_tilde;       // this school's true effect
}
model {
  mu ~ normal(0, 5);
  tau ~ cauchy(0, 5);
  theta_tilde ~ normal(0, 1);
  y ~ normal(theta, sigma);
}
