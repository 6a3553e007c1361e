# Writes the draw sets of tests/diagnostics (iterations x chains, one column per chain, 12
# significant digits so that R and the C++ test read the same numbers). Run from this folder:
#   Rscript generate.R
# R 4.2.2; the draws depend only on base R's default RNG (Mersenne-Twister, Inversion).
set.seed(20240607)
ar1 <- function(iterations, chains, phi, shift = rep(0, chains)) {
  sapply(seq_len(chains), function(chain) {
    e <- rnorm(iterations)
    x <- numeric(iterations)
    x[1] <- e[1] / sqrt(1 - phi^2)
    for (t in 2:iterations) x[t] <- phi * x[t - 1] + e[t]
    x + shift[chain]
  })
}
save <- function(x, name) {
  colnames(x) <- paste0("chain", seq_len(ncol(x)))
  write.csv(signif(x, 12), paste0(name, ".csv"), row.names = FALSE)
}
save(ar1(200, 4, 0.7), "ar07")                           # mildly autocorrelated
save(ar1(200, 4, 0.95), "ar095")                         # strongly autocorrelated
save(ar1(200, 4, 0.5, shift = c(0, 0, 1, 3)), "shifted") # chains disagree: R-hat large
save(floor(1.5 * ar1(200, 4, 0.6)), "ties")              # a few integers: many ties
save(ar1(201, 3, 0.7), "odd")                            # odd iteration count: the middle draw is dropped
save(ar1(300, 1, 0.3), "single")                         # one chain
save(ar1(200, 4, -0.9), "antithetic")                    # ESS above S: capped at S log10(S)
save(matrix(rcauchy(800), 200, 4), "cauchy")             # heavy tails
# Lag-1 autocorrelation below -1: Geyer's sequence stops at once (see runtime/diagnostics/README.md)
save(matrix(rep((-1)^(1:200), 4) + 0.01 * rnorm(800), 200, 4), "alternating")
