#!/usr/bin/env python3
"""Writes the synthetic hierarchical logistic regression of the EP paper's section 4 and its
appendix J.1 ("Fearless stochasticity in expectation propagation"): 16 groups of 20 observations
with 4 covariates,

    w_i ~ N(mu, diag(exp(log_sigma2))),  y_ij ~ Bernoulli(inv_logit(x_ij . w_i)),
    z = (mu, log_sigma2) ~ N(0, diag(4, 4, 4, 4, 2, 2, 2, 2))   (the paper's prior),

with the true mu = (1, -0.5, 0.25, 0) and log sigma = (-0.5, -1, -0.5, -1).

The inputs follow the procedure of Vehtari et al. ("Expectation propagation as a way of life",
section 5), which the paper names: each group's inputs are scaled to its own coefficients so
that the linear predictor x . w_i is N(0, s_i^2) with its 97.5% quantile at logit(0.9). Only
2.5% of a group's observations then have a probability of success above 0.9 (or below 0.1),
and no group is separable by chance; with inputs N(0, I) instead, one group of an earlier
version of this file was completely separated and its coefficients unbounded.

Writes data.json (K) and data_per_group.csv (group, y, x.1 .. x.4). Python 3 standard library,
fixed seed: rerunning reproduces the files byte for byte.

    python3 make_data.py
"""
import json
import math
import os
import random
from statistics import NormalDist

GROUPS, PER_GROUP, K = 16, 20, 4
MU = [1.0, -0.5, 0.25, 0.0]
LOG_SIGMA = [-0.5, -1.0, -0.5, -1.0]
# sd of the linear predictor: its 97.5% quantile is logit(0.9)
PREDICTOR_SD = math.log(0.9 / 0.1) / NormalDist().inv_cdf(0.975)

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261129)
with open(os.path.join(here, "data.json"), "w") as f:
    json.dump({"K": K}, f)
    f.write("\n")
with open(os.path.join(here, "data_per_group.csv"), "w") as f:
    f.write("group,y," + ",".join(f"x.{k + 1}" for k in range(K)) + "\n")
    for g in range(GROUPS):
        w = [rng.gauss(MU[k], math.exp(LOG_SIGMA[k])) for k in range(K)]
        scale = PREDICTOR_SD / math.sqrt(sum(v * v for v in w))
        for _ in range(PER_GROUP):
            x = [round(rng.gauss(0.0, scale), 4) for _ in range(K)]
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(x, w))))
            y = 1 if rng.random() < p else 0
            f.write(f"{g + 1},{y}," + ",".join(repr(v) for v in x) + "\n")
