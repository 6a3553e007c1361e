# NUTS reference posteriors (rstan, 4 chains, half of each chain warm-up, seed 1) for the models
# tests/cli/models/random_slope.pvi and count_random_effect.pvi, written as
# tests/reference/<model>.csv: mean, sd, 5/50/95% quantiles, n_eff and Rhat of every global latent.
# The Stan programs are the same models (same priors, same data), written non-centred.
# Run from the repo root: Rscript tests/reference/make_shapes.R
suppressMessages(library(rstan)); options(mc.cores = 2)
fit <- function(code, data, iter, adapt_delta) {
  sampling(stan_model(model_code = code), data = data, chains = 4, iter = iter, warmup = iter / 2,
           seed = 1, refresh = 0, control = list(adapt_delta = adapt_delta))
}
save <- function(name, f, pars) {
  s <- summary(f, pars = pars, probs = c(0.05, 0.5, 0.95))$summary
  out <- data.frame(name = rownames(s), s[, c("mean", "sd", "5%", "50%", "95%", "n_eff", "Rhat")],
                    check.names = FALSE)
  out$name <- gsub("\\[(\\d+)\\]", ".\\1", out$name)
  write.csv(out, file.path("tests", "reference", paste0(name, ".csv")), row.names = FALSE)
  cat(name, ": divergences", sum(get_divergent_iterations(f)), ", max treedepth hits",
      get_num_max_treedepth(f), ", max Rhat", max(out$Rhat), ", min n_eff", min(out$n_eff), "\n")
  print(out, digits = 4); print(get_elapsed_time(f))
}

# Contraception with a random intercept and a random urban slope per district (random_slope.pvi,
# data and priors of examples/hierarchical_logistic).
d <- read.csv(file.path("examples", "hierarchical_logistic", "data_per_district.csv"))
h <- jsonlite::fromJSON(file.path("examples", "hierarchical_logistic", "data.json"))
g <- as.integer(factor(d$district, levels = unique(d$district)))
f <- fit("data { int N; int J; int g[N]; int use[N]; vector[N] urban; vector[N] age; vector[N] l1;
  vector[N] l2; vector[N] l3; real<lower=0> prior_sd; real<lower=0> tau_prior_sd; }
parameters { real alpha; real b_urban; real b_age; vector[3] b_livch; real<lower=0> tau;
  real<lower=0> tau_urban; vector[J] a_raw; vector[J] u_raw; }
model {
  vector[J] a = tau * a_raw;
  vector[J] u = tau_urban * u_raw;
  alpha ~ normal(0, prior_sd); b_urban ~ normal(0, prior_sd); b_age ~ normal(0, prior_sd);
  b_livch ~ normal(0, prior_sd); tau ~ normal(0, tau_prior_sd); tau_urban ~ normal(0, tau_prior_sd);
  a_raw ~ std_normal(); u_raw ~ std_normal();
  use ~ bernoulli_logit(alpha + a[g] + (b_urban + u[g]) .* urban + b_age * age
                        + b_livch[1] * l1 + b_livch[2] * l2 + b_livch[3] * l3); }",
  list(N = nrow(d), J = max(g), g = g, use = d$use, urban = d$urban, age = d$age, l1 = d$livch1,
       l2 = d$livch2, l3 = d$livch3, prior_sd = h$prior_sd, tau_prior_sd = h$tau_prior_sd),
  iter = 10000, adapt_delta = 0.8)
save("random_slope", f, c("alpha", "b_urban", "b_age", "b_livch", "tau", "tau_urban"))

# Poisson regression with a random effect per group and a half-normal prior on its sd
# (count_random_effect.pvi, data of examples/poisson_random_effect). 8 groups make a funnel with a
# heavy tail in sigma_u: adapt_delta 0.99 (0.8 gives a divergence) and 40000 iterations (10000
# leave R-hat of sigma_u at 1.002).
d <- read.csv(file.path("examples", "poisson_random_effect", "data_per_group.csv"))
g <- as.integer(factor(d$group, levels = unique(d$group)))
f <- fit("data { int N; int J; int g[N]; vector[N] x; int y[N]; }
parameters { real alpha; real beta; real<lower=0> sigma_u; vector[J] u_raw; }
model {
  alpha ~ normal(0, 5); beta ~ normal(0, 5); sigma_u ~ normal(0, 1); u_raw ~ std_normal();
  y ~ poisson_log(alpha + beta * x + sigma_u * u_raw[g]); }",
  list(N = nrow(d), J = max(g), g = g, x = d$x, y = d$y),
  iter = 40000, adapt_delta = 0.99)
save("count_random_effect", f, c("alpha", "beta", "sigma_u"))
