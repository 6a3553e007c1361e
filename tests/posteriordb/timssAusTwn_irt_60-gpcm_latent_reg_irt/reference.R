# Makes reference.json: Stan's NUTS (rstan 2.21, Debian's r-cran-rstan; 4 chains of 5,000 draws
# after 1,000 warm-up iterations, seed 1) on posteriordb's gpcm_latent_reg_irt program with the
# first 60 of the 500 persons of its timssAusTwn_irt data (data.json: their 660 responses and the
# first 60 rows of W), for which posteriordb has no reference draws. rstan 2.21 reads only the old
# array syntax, so reference_model.stan is model.stan (posteriordb's program, unchanged) with
# `array[N] int x` written `int x[N]` and its comments left out; the statements are the same.
# Run in this folder:
#   Rscript reference.R
library(rstan)
library(jsonlite)
d <- fromJSON("data.json")
fit <- stan("reference_model.stan", data = d, chains = 4, iter = 6000, warmup = 1000, seed = 1,
            cores = 1, refresh = 0)
s <- summary(fit)$summary
s <- s[rownames(s) != "lp__", , drop = FALSE]
params <- list()
for (name in rownames(s)) {
  params[[gsub("\\]", "", gsub("\\[|,", ".", name))]] <- list(
    stan_name = name, mean = s[name, "mean"], sd = s[name, "sd"], ess_bulk = s[name, "n_eff"],
    mcse_mean = s[name, "se_mean"])
}
write(toJSON(list(posterior = "timssAusTwn_irt_60-gpcm_latent_reg_irt",
                  source = "rstan 2.21 NUTS, tests/posteriordb/timssAusTwn_irt_60-gpcm_latent_reg_irt/reference.R",
                  parameters = params), auto_unbox = TRUE, digits = NA, pretty = TRUE),
      "reference.json")
