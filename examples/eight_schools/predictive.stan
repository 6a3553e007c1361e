// Eight schools, non-centred, with a posterior predictive check (docs/from-stan.md): replicated
// effects y_rep drawn from the fitted model, and whether each exceeds the observed one.
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
generated quantities {
  array[J] real y_rep = normal_rng(theta, sigma);       // a replicated study of every school
  array[J] int<lower=0, upper=1> above;                  // y_rep above the observed effect
  for (j in 1:J) above[j] = y_rep[j] > y[j];
  int<lower=0, upper=1> wider = sd(y_rep) > sd(y);      // replicated effects more spread out than observed
}
