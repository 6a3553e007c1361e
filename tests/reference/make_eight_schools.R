#!/usr/bin/env Rscript
# Summarises posteriordb's reference posterior of eight_schools-eight_schools_noncentered (10
# chains x 1000 draws, thinned) into tests/reference/eight_schools.csv: per quantity the mean, the
# sd, the Monte Carlo standard error of the mean (sd / sqrt(ess)) and the bulk ESS (posterior::ess_bulk
# over the 10 chains). Provenance and the command: tests/reference/README.md.
#
# Usage: Rscript make_eight_schools.R <draws json> <output csv>
#   <draws json>  eight_schools-eight_schools_noncentered.json, unzipped from posteriordb's
#                 posterior_database/reference_posteriors/draws/draws/*.json.zip
suppressPackageStartupMessages({
  library(jsonlite)
  library(posterior)
})

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 2) stop("usage: make_eight_schools.R <draws json> <output csv>")
chains <- fromJSON(args[[1]], simplifyVector = FALSE)  # one list per chain: name -> draws
names_out <- c("mu", "tau", sprintf("theta[%d]", 1:8))

rows <- lapply(names_out, function(name) {
  x <- sapply(chains, function(chain) unlist(chain[[name]]))  # iterations x chains
  ess <- ess_bulk(x)
  data.frame(name = name, mean = mean(x), sd = sd(as.vector(x)),
             mcse_mean = sd(as.vector(x)) / sqrt(ess), ess = ess)
})
out <- do.call(rbind, rows)
out$name <- sub("^theta\\[(\\d+)\\]$", "theta.\\1", out$name)  # pvic's column names
write.csv(out, args[[2]], row.names = FALSE, quote = FALSE)
cat(sprintf("%d chains x %d draws\n", length(chains), length(chains[[1]][["mu"]])))
print(out, digits = 4)
