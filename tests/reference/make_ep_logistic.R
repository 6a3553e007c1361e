# NUTS reference posterior (rstan, 4 chains of 20,000 iterations, half warm-up, seed 1,
# adapt_delta 0.99) for examples/ep_hierarchical_logistic (the EP paper's hierarchical logistic
# regression), written as tests/reference/ep_hierarchical_logistic.csv: mean, sd, 5/50/95%
# quantiles, n_eff and Rhat of every global latent. The Stan program is the same model (same
# priors, same data), written non-centred.
# Run from the repo root: Rscript tests/reference/make_ep_logistic.R
suppressMessages(library(rstan)); options(mc.cores = 2)
d <- read.csv(file.path("examples", "ep_hierarchical_logistic", "data_per_group.csv"))
K <- jsonlite::fromJSON(file.path("examples", "ep_hierarchical_logistic", "data.json"))$K
g <- as.integer(factor(d$group, levels = unique(d$group)))
x <- as.matrix(d[, paste0("x.", 1:K)])
code <- "data { int N; int J; int K; int g[N]; matrix[N, K] x; int y[N]; }
parameters { vector[K] mu; vector[K] log_sigma2; matrix[J, K] w_raw; }
model {
  vector[K] sigma = exp(0.5 * log_sigma2);
  matrix[J, K] w = rep_matrix(mu', J) + w_raw .* rep_matrix(sigma', J);
  mu ~ normal(0, 2); log_sigma2 ~ normal(0, sqrt(2)); to_vector(w_raw) ~ std_normal();
  y ~ bernoulli_logit(rows_dot_product(x, w[g])); }"
f <- sampling(stan_model(model_code = code), data = list(N = nrow(d), J = max(g), K = K, g = g, x = x, y = d$y),
              chains = 4, iter = 20000, warmup = 10000, seed = 1, refresh = 0,
              control = list(adapt_delta = 0.99))
s <- summary(f, pars = c("mu", "log_sigma2"), probs = c(0.05, 0.5, 0.95))$summary
out <- data.frame(name = rownames(s), s[, c("mean", "sd", "5%", "50%", "95%", "n_eff", "Rhat")], check.names = FALSE)
out$name <- gsub("\\[(\\d+)\\]", ".\\1", out$name)
write.csv(out, file.path("tests", "reference", "ep_hierarchical_logistic.csv"), row.names = FALSE)
cat("divergences", sum(get_divergent_iterations(f)), ", max treedepth hits", get_num_max_treedepth(f),
    ", max Rhat", max(out$Rhat), ", min n_eff", min(out$n_eff), "\n")
print(out, digits = 4); print(get_elapsed_time(f))
