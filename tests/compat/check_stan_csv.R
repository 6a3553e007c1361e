#!/usr/bin/env Rscript
# Checks that Stan CSV files load in rstan and posterior (docs/output.md, "Checking files with other
# tools"). A development-machine check, not run in CI (CI has no R).
#
# Usage: Rscript tests/compat/check_stan_csv.R FIT...
#   FIT  one fit: a Stan CSV file, a directory (its *.csv files, sorted, are the chains of one fit),
#        or a quoted glob such as 'out/fit_*.csv' (the matching files are the chains).
#
# For each fit: rstan::read_stan_csv, print (the stanfit summary), get_sampler_params and
# get_elapsed_time for sampling files; posterior::as_draws_array(as.array(fit)) and
# summarise_draws; for files with a chain__ column (pvic's merged file) also read.csv ->
# posterior::as_draws_df with .chain = chain__. Then checks that the number of draws matches the
# header, every variable has a finite mean, and (sampling files) treedepth__, n_leapfrog__ and
# divergent__ are integers. Warnings are shown and counted, not failures. Exits 1 when any fit fails.
suppressPackageStartupMessages({
  library(rstan)
  library(posterior)
})

args <- commandArgs(trailingOnly = TRUE)
if (length(args) == 0) {
  cat("usage: Rscript check_stan_csv.R FIT...\n")
  quit(status = 2)
}

fit_files <- function(arg) {
  if (dir.exists(arg)) return(sort(list.files(arg, pattern = "\\.csv$", full.names = TRUE)))
  if (grepl("[*?[]", arg)) return(sort(Sys.glob(arg)))
  arg
}

# The "key = value" comments before the column header, as CmdStanPy reads them (the last wins).
header_config <- function(file) {
  config <- list()
  for (line in readLines(file)) {
    if (!startsWith(line, "#")) break
    parts <- strsplit(sub("^#\\s*", "", line), "=", fixed = TRUE)[[1]]
    if (length(parts) == 2) config[[trimws(parts[1])]] <- trimws(sub("\\(Default\\)", "", parts[2]))
  }
  config
}

stop_unless <- function(ok, ...) if (!isTRUE(ok)) stop(..., call. = FALSE)

check_fit <- function(files) {
  stop_unless(length(files) > 0 && all(file.exists(files)), "no such file(s): ", paste(files, collapse = ", "))
  config <- header_config(files[1])
  method <- config$method
  cat(sprintf("method = %s, %d file(s)\n", method, length(files)))

  cat("-- rstan::read_stan_csv + print\n")
  fit <- read_stan_csv(files)
  print(fit)
  n_save <- fit@sim$n_save - fit@sim$warmup2
  expected <- if (identical(method, "variational")) as.integer(config$output_samples) else as.integer(config$num_samples)
  merged <- "chain__" %in% names(read.csv(files[1], comment.char = "#", nrows = 1))
  if (!merged) {
    stop_unless(all(n_save == expected), "rstan kept ", paste(n_save, collapse = ","), " draws per chain, the header says ",
                expected)
  }

  if (identical(method, "sample")) {
    cat("-- rstan::get_sampler_params, get_elapsed_time\n")
    params <- get_sampler_params(fit, inc_warmup = FALSE)
    for (p in params) {
      for (column in c("treedepth__", "n_leapfrog__", "divergent__")) {
        stop_unless(all(p[, column] == round(p[, column])), column, " has non-integer values")
      }
      stop_unless(all(p[, "divergent__"] %in% c(0, 1)), "divergent__ is not 0/1")
    }
    cat(sprintf("divergent transitions: %d\n", sum(sapply(params, function(p) sum(p[, "divergent__"])))))
    print(get_elapsed_time(fit))
  }

  cat("-- posterior::summarise_draws(as_draws_array(as.array(fit)))\n")
  draws <- as_draws_array(as.array(fit))
  summary <- summarise_draws(draws)
  print(summary, n = 50)
  variables <- setdiff(summary$variable, c("lp__", "log_p__", "log_g__", "chain__"))
  stop_unless(all(is.finite(summary$mean[summary$variable %in% variables])), "a variable has no finite mean")

  if (merged) {
    cat("-- read.csv + posterior::as_draws_df(.chain = chain__)\n")
    df <- read.csv(files[1], comment.char = "#")
    df$.chain <- df$chain__
    df$chain__ <- NULL
    d <- as_draws_df(df)
    cat(sprintf("%d chains x %d draws\n", nchains(d), niterations(d)))
    stop_unless(all(table(df$.chain) == expected), "a chain does not have num_samples draws")
    print(summarise_draws(subset_draws(d, variable = grep("__$", variables(d), value = TRUE, invert = TRUE))), n = 50)
  }
}

failures <- 0
for (arg in args) {
  files <- fit_files(arg)
  cat(sprintf("==== %s\n", arg))
  warnings_seen <- character(0)
  ok <- tryCatch(withCallingHandlers({
    check_fit(files)
    TRUE
  }, warning = function(w) {
    warnings_seen <<- c(warnings_seen, conditionMessage(w))
    invokeRestart("muffleWarning")
  }), error = function(e) {
    cat(sprintf("ERROR: %s\n", conditionMessage(e)))
    FALSE
  })
  for (w in unique(warnings_seen)) cat(sprintf("warning: %s\n", w))
  cat(sprintf("%s %s (%d warning(s))\n\n", if (ok) "OK" else "FAIL", arg, length(warnings_seen)))
  if (!ok) failures <- failures + 1
}
cat(sprintf("%d fit(s) checked, %d failed\n", length(args), failures))
quit(status = if (failures > 0) 1 else 0)
