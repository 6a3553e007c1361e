#!/usr/bin/env python3
"""Writes the synthetic hierarchical logistic regression of the EP paper's section 4
("Fearless stochasticity in expectation propagation"): 16 groups of 20 observations with 4
covariates,

    w_i ~ N(mu, diag(exp(log_sigma))^2),  y_ij ~ Bernoulli(inv_logit(x_ij . w_i)),
    mu ~ N(0, I),  log_sigma ~ N(0, I)   (an exactly Gaussian prior over z = (mu, log_sigma)),

with x_ij ~ N(0, I), the true mu = (1, -0.5, 0.25, 0) and log_sigma = (-0.5, -1, -0.5, -1).
Writes data.json (K) and data_per_group.csv (group, y, x.1 .. x.4). Python 3 standard library,
fixed seed: rerunning reproduces the files byte for byte.

    python3 make_data.py
"""
import json
import math
import os
import random

GROUPS, PER_GROUP, K = 16, 20, 4
MU = [1.0, -0.5, 0.25, 0.0]
LOG_SIGMA = [-0.5, -1.0, -0.5, -1.0]

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261125)
with open(os.path.join(here, "data.json"), "w") as f:
    json.dump({"K": K}, f)
    f.write("\n")
with open(os.path.join(here, "data_per_group.csv"), "w") as f:
    f.write("group,y," + ",".join(f"x.{k + 1}" for k in range(K)) + "\n")
    for g in range(GROUPS):
        w = [rng.gauss(MU[k], math.exp(LOG_SIGMA[k])) for k in range(K)]
        for _ in range(PER_GROUP):
            x = [round(rng.gauss(0.0, 1.0), 4) for _ in range(K)]
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(x, w))))
            y = 1 if rng.random() < p else 0
            f.write(f"{g + 1},{y}," + ",".join(repr(v) for v in x) + "\n")
