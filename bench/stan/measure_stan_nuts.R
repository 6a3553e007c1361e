#!/usr/bin/env Rscript
# Stan's own NUTS efficiency on the benchmark models, for comparison with pvic's sampler
# (bench/stan/README.md). For each model and seed: rstan's sampling() with its defaults (4 chains,
# iter 2000, warmup 1000, adapt_delta 0.8, max_treedepth 10, diag_e), chains run one after another,
# and records
#   grad_evals            sum of n_leapfrog__ over warm-up and sampling iterations of all chains
#   warmup_s, sampling_s  get_elapsed_time summed over the chains (seconds of compute)
#   min_ess_bulk/_tail    minimum posterior::ess_bulk / ess_tail over every variable but lp__
#                         (parameters and transformed parameters)
#   min_ess_*_globals     the same over the global parameters only
#   divergent             divergent post-warm-up transitions, all chains
# For the models with a reference posterior (<root>/../shared/reference, made by make_reference.R),
# it also prints each global's posterior mean against the reference mean, in Monte Carlo standard
# errors (per run, then pooled over the seeds); the check is skipped when that directory is missing.
#
# Usage: Rscript bench/stan/measure_stan_nuts.R [project root] [seeds, e.g. 1:3] [models, e.g.
#        contraception_centered,six_cities_centered]
#   writes <root>/bench/stan/stan_nuts_efficiency.csv, rewritten as each run ends. Without a list
#   of models, every model is run and the CSV holds only their rows; with one, only those models
#   are run and their rows replace that model's rows in the existing CSV, in the same place (at the
#   end for a model that had none; the old rows stay until the model's first new run ends). The
#   other rows are kept byte for byte.
# The compiler flags are R's (/usr/lib/R/etc/Makeconf) unless ~/.R/Makevars overrides them: see
# Makevars in this directory. The 1-minute load average is printed before and after each model.
suppressPackageStartupMessages({
  library(rstan)
  library(posterior)
})
options(mc.cores = 1)
rstan_options(auto_write = FALSE)

args <- commandArgs(trailingOnly = TRUE)
root <- if (length(args) >= 1) args[[1]] else "."
seeds <- if (length(args) >= 2) eval(parse(text = args[[2]])) else 1:3
only <- if (length(args) >= 3) strsplit(args[[3]], ",", fixed = TRUE)[[1]] else NULL
here <- file.path(root, "bench", "stan")
ex <- function(...) file.path(root, "examples", ...)
out_file <- file.path(here, "stan_nuts_efficiency.csv")
reference_dir <- file.path(root, "..", "shared", "reference")

# Data preparation as in shared/reference/make_reference.R.
contraception_data <- function() {
  d <- read.csv(ex("hierarchical_logistic", "data_per_district.csv"))
  g <- as.integer(factor(d$district, levels = unique(d$district)))
  list(N = nrow(d), J = max(g), g = g, use = d$use, urban = d$urban, age = d$age, l1 = d$livch1, l2 = d$livch2,
       l3 = d$livch3)
}
six_cities_data <- function() {
  d <- read.csv(ex("six_cities", "data_per_silo.csv"))
  off <- cumsum(c(0, tapply(d$C, d$silo, function(v) v[1])))[d$silo]
  k <- d$child + off
  list(N = nrow(d), K = max(k), k = k, age = d$age, smoke = d$smoke, wheeze = d$wheeze)
}
eight_schools_data <- list(J = 8L, y = c(28, 8, -3, 7, -1, 1, 18, 12), sigma = c(15, 10, 16, 11, 9, 11, 10, 18))

contraception_globals <- c("alpha", "b_urban", "b_age", "b_livch", "tau")
six_cities_globals <- c("beta", "omega")
models <- list(
  list(name = "contraception", file = "hierarchical_logistic.stan", data = contraception_data(),
       globals = contraception_globals, reference = "hierarchical_logistic.csv"),
  list(name = "six_cities", file = "six_cities.stan", data = six_cities_data(), globals = six_cities_globals,
       reference = "six_cities.csv"),
  list(name = "contraception_centered", file = "hierarchical_logistic_centered.stan", data = contraception_data(),
       globals = contraception_globals, reference = "hierarchical_logistic.csv"),
  list(name = "six_cities_centered", file = "six_cities_centered.stan", data = six_cities_data(),
       globals = six_cities_globals, reference = "six_cities.csv"),
  list(name = "eight_schools_centered", file = "eight_schools_centered.stan", data = eight_schools_data,
       globals = c("mu", "tau")),
  list(name = "eight_schools_noncentered", file = "eight_schools_noncentered.stan", data = eight_schools_data,
       globals = c("mu", "tau")))

# Variables of `summary` whose base name (before "[") is one of `names`.
of <- function(summary, names) summary[sub("\\[.*$", "", summary$variable) %in% names, ]

# The reference posterior of model `m` (rows named as rstan names them: b_livch[1]), or NULL.
reference_of <- function(m) {
  f <- file.path(reference_dir, if (is.null(m$reference)) "" else m$reference)
  if (is.null(m$reference) || !file.exists(f)) return(NULL)
  r <- read.csv(f, check.names = FALSE)
  data.frame(variable = sub("\\.([0-9]+)$", "[\\1]", r$name), ref_mean = r$mean,
             ref_mcse = r$sd / sqrt(r$n_eff))
}
# Prints the globals' means (with their MCSE) against the reference; z is the difference over the
# combined MCSE of the run and the reference.
check_means <- function(label, est, ref) {
  x <- merge(est, ref, by = "variable", sort = FALSE)
  stopifnot(nrow(x) == nrow(ref))
  x$z <- (x$mean - x$ref_mean) / sqrt(x$mcse_mean^2 + x$ref_mcse^2)
  cat(sprintf("%s: posterior means of the globals against the reference (max |z| %.2f)\n", label, max(abs(x$z))))
  print(x, digits = 4, row.names = FALSE)
}

# The CSV's lines kept from before this run (all of them when only some models are run, none
# otherwise), and the lines of this run's rows, by model.
old_lines <- character(0)
new_lines <- list()
if (!is.null(only)) {
  unknown <- setdiff(only, sapply(models, `[[`, "name"))
  if (length(unknown) > 0) stop("unknown models: ", paste(unknown, collapse = ", "))
  models <- Filter(function(m) m$name %in% only, models)
  if (file.exists(out_file)) old_lines <- readLines(out_file)
}
csv_lines <- function(row, header) {
  capture.output(write.table(row, sep = ",", row.names = FALSE, quote = FALSE, col.names = header))
}
# Rewrites the CSV: the old lines, those of a model with new rows replaced, in place, by the new
# rows; then the new rows of models the old lines do not have.
write_csv <- function(header) {
  if (length(old_lines) > 0 && old_lines[[1]] != header) stop(out_file, " has another header: ", old_lines[[1]])
  body <- old_lines[-1]
  model_of <- sub(",.*$", "", body)
  out <- character(0)
  for (i in seq_along(body)) {
    if (!(model_of[[i]] %in% names(new_lines))) {
      out <- c(out, body[[i]])
    } else if (!(model_of[[i]] %in% model_of[seq_len(i - 1)])) {
      out <- c(out, new_lines[[model_of[[i]]]])
    }
  }
  out <- c(out, unlist(new_lines[setdiff(names(new_lines), model_of)], use.names = FALSE))
  writeLines(c(header, out), out_file)
}
load_1min <- function() {
  if (file.exists("/proc/loadavg")) strsplit(readLines("/proc/loadavg"), " ")[[1]][[1]] else "unknown"
}
for (m in models) {
  cat(sprintf("== %s: compiling (1-minute load average %s)\n", m$name, load_1min()))
  sm <- stan_model(file.path(here, m$file), model_name = m$name)
  ref <- reference_of(m)
  means <- list()
  for (seed in seeds) {
    fit <- sampling(sm, data = m$data, chains = 4, iter = 2000, warmup = 1000, seed = seed, cores = 1,
                    refresh = 0)
    params <- get_sampler_params(fit, inc_warmup = TRUE)
    post <- get_sampler_params(fit, inc_warmup = FALSE)
    times <- get_elapsed_time(fit)
    draws <- as_draws_array(as.array(fit))
    s <- summarise_draws(subset_draws(draws, variable = setdiff(variables(draws), "lp__")), "ess_bulk", "ess_tail")
    g <- of(s, m$globals)
    stopifnot(nrow(g) > 0)
    row <- data.frame(model = m$name, seed = seed,
                      grad_evals = sum(sapply(params, function(p) sum(p[, "n_leapfrog__"]))),
                      warmup_s = sum(times[, "warmup"]), sampling_s = sum(times[, "sample"]),
                      min_ess_bulk = min(as.numeric(s$ess_bulk)), min_ess_tail = min(as.numeric(s$ess_tail)),
                      min_ess_bulk_globals = min(as.numeric(g$ess_bulk)),
                      min_ess_tail_globals = min(as.numeric(g$ess_tail)),
                      divergent = sum(sapply(post, function(p) sum(p[, "divergent__"]))))
    print(row, digits = 5)
    new_lines[[m$name]] <- c(new_lines[[m$name]], csv_lines(row, header = FALSE))
    write_csv(csv_lines(row[0, ], header = TRUE))
    if (!is.null(ref)) {
      est <- summarise_draws(subset_draws(draws, variable = g$variable), "mean", "mcse_mean")
      means[[length(means) + 1]] <- est
      check_means(sprintf("%s, seed %d", m$name, seed), est, ref)
    }
  }
  if (length(means) > 1) {  # pooled over the seeds: the mean of the runs' means, independent errors
    pooled <- data.frame(variable = means[[1]]$variable,
                         mean = rowMeans(sapply(means, function(e) e$mean)),
                         mcse_mean = sqrt(rowSums(sapply(means, function(e) e$mcse_mean^2))) / length(means))
    check_means(sprintf("%s, %d seeds pooled", m$name, length(means)), pooled, ref)
  }
  cat(sprintf("== %s: done (1-minute load average %s)\n", m$name, load_1min()))
}
cat(sprintf("wrote %s\n", out_file))
